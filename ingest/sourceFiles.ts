// The files an ingest command reads: a file path as given, or a folder's files of the source's kinds.
import { readdir, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';

/**
 * A file path is returned as is (whatever its extension: the parser judges it); a folder gives its
 * files whose extension (case-insensitive, e.g. '.json') is one of `extensions`, sorted by name,
 * not recursively.
 */
export async function sourceFiles(path: string, extensions: readonly string[]): Promise<string[]> {
  if (!(await stat(path)).isDirectory()) return [path];
  const wanted = new Set(extensions.map((extension) => extension.toLowerCase()));
  const names = await readdir(path);
  return names.filter((name) => wanted.has(extname(name).toLowerCase())).sort().map((name) => join(path, name));
}
