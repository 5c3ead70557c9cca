// Turns a dataset's downloads into what its ingest command reads (sources.ts `Packing`): the file as it
// came, the pages of a paged JSON API joined into one array, or the CSV files of a World Bank bulk zip.
// Problems are MalformedSourceError (the dataset fails, named with its file).
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { MalformedSourceError } from '../errors.ts';
import { inflateEntry, openBoundedZip } from '../zip.ts';
import type { Packing } from './sources.ts';

/** World Bank bulk zip entries the reader takes: the data and the country metadata (aggregates), not the indicator notes. */
const WORLD_BANK_ENTRY = /^(?:API_.+|Metadata_Country_.+)\.csv$/i;

/**
 * The path the ingest reads: `pages` (downloaded files, in page order) packed into `staging` as `file`
 * (a folder for a zip). `maxBytes` bounds a joined JSON file.
 */
export async function packDownloads(packing: Packing, pages: readonly string[], staging: string, file: string, maxBytes: number): Promise<string> {
  if (packing === 'file') return pages[0]!;
  if (packing === 'json-pages') {
    const rows: unknown[] = [];
    let bytes = 0;
    for (const [index, page] of pages.entries()) {
      const text = await readFile(page, 'utf8');
      bytes += text.length;
      if (bytes > maxBytes) throw new MalformedSourceError(file, null, `the pages pass ${maxBytes} bytes together (FETCH_MAX_BYTES)`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        throw new MalformedSourceError(basename(page), null, `page ${index + 1} is not JSON: ${(error as Error).message}`);
      }
      if (!Array.isArray(parsed)) throw new MalformedSourceError(basename(page), null, `page ${index + 1} is not a JSON array`);
      for (const row of parsed) rows.push(row);
    }
    const target = join(staging, file);
    await writeFile(target, JSON.stringify(rows));
    return target;
  }
  const zipFile = pages[0]!;
  const opened = await openBoundedZip(zipFile, basename(zipFile), 'zip file', (message) => `not a zip file: ${message}`);
  const entries = Object.values(opened.zip.files).filter((entry) => !entry.dir && WORLD_BANK_ENTRY.test(basename(entry.name)));
  if (!entries.some((entry) => /^API_/i.test(basename(entry.name)))) {
    throw new MalformedSourceError(basename(zipFile), null, 'the World Bank zip holds no API_<indicator>_DS2_*.csv');
  }
  const folder = join(staging, file.replace(/\.zip$/i, ''));
  await mkdir(folder, { recursive: true });
  for (const entry of entries) await writeFile(join(folder, basename(entry.name)), await inflateEntry(opened, entry));
  return folder;
}
