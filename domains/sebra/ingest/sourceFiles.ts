// Lists the SEBRA source files of a folder (non-recursive), or the file itself.
import { readdir, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { SEBRA_FILE_EXTENSIONS } from './detect.ts';

/** .xlsx and .json files of a folder sorted by name; a file path is returned as is. */
export async function sebraSourceFiles(path: string): Promise<string[]> {
  if (!(await stat(path)).isDirectory()) return [path];
  const names = await readdir(path);
  return names
    .filter((name) => (SEBRA_FILE_EXTENSIONS as readonly string[]).includes(extname(name).toLowerCase()))
    .sort()
    .map((name) => join(path, name));
}
