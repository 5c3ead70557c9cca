// The files an ingest command reads: a file path as given, or a folder's files of the source's kinds.
import { readdir, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { IngestRejectedError, MalformedSourceError } from './errors.ts';

/**
 * A file path is returned as is (whatever its name: the parser judges it); a folder gives its files
 * whose name ends in one of `extensions` ('.json', or a double one like '.tsv.gz'; any case) after
 * at least one other character, sorted by name, not recursively. A symbolic link in the folder that
 * leads outside it is refused (insideFolder).
 */
export async function sourceFiles(path: string, extensions: readonly string[]): Promise<string[]> {
  if (!(await stat(path)).isDirectory()) return [path];
  const wanted = extensions.map((extension) => extension.toLowerCase());
  const matches = (name: string) => wanted.some((extension) => name.length > extension.length && name.toLowerCase().endsWith(extension));
  return insideFolder(path, (await readdir(path)).filter(matches).sort());
}

/**
 * The paths of `names` in `folder`, after checking that each resolves (symbolic links followed) to a
 * place inside the folder: a link out of it is an input error naming the file, nothing is read.
 */
export async function insideFolder(folder: string, names: readonly string[]): Promise<string[]> {
  const root = await realpath(folder);
  const problems: MalformedSourceError[] = [];
  for (const name of names) {
    const target = await realpath(join(folder, name)).catch(() => null);
    if (target === null) problems.push(new MalformedSourceError(name, null, 'a symbolic link to nothing; refused'));
    else if (!target.startsWith(root + sep)) problems.push(new MalformedSourceError(name, null, 'a symbolic link to a file outside the folder given; refused'));
  }
  if (problems.length > 0) throw new IngestRejectedError(problems);
  return names.map((name) => join(folder, name));
}
