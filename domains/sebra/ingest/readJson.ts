import { readFile } from 'node:fs/promises';
import { MalformedSourceError } from './types.ts';

/** Parses a JSON source file (a UTF-8 BOM is tolerated); invalid JSON is a MalformedSourceError. */
export async function readJson(file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8');
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new MalformedSourceError(file, null, `not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}
