// The files an ingest command reads: a file path as given, or a folder's files of the source's kinds.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A file path is returned as is (whatever its name: the parser judges it); a folder gives its files
 * whose name ends in one of `extensions` ('.json', or a double one like '.tsv.gz'; any case) after
 * at least one other character, sorted by name, not recursively.
 */
export async function sourceFiles(path: string, extensions: readonly string[]): Promise<string[]> {
  if (!(await stat(path)).isDirectory()) return [path];
  const wanted = extensions.map((extension) => extension.toLowerCase());
  const matches = (name: string) => wanted.some((extension) => name.length > extension.length && name.toLowerCase().endsWith(extension));
  return (await readdir(path)).filter(matches).sort().map((name) => join(path, name));
}
