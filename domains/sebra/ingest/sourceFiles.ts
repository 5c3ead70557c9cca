// The SEBRA source files of a path: the file itself, or a folder's .xlsx and .json files by name.
import { sourceFiles } from '../../../ingest/sourceFiles.ts';
import { SEBRA_FILE_EXTENSIONS } from './detect.ts';

export function sebraSourceFiles(path: string): Promise<string[]> {
  return sourceFiles(path, SEBRA_FILE_EXTENSIONS);
}
