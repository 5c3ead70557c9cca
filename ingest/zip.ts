// Zips (a eurofxref .zip, an .xlsx workbook) read within ingest/bounds.ts: the entry count and the sizes
// the central directory declares are checked before anything is inflated, and inflating counts the
// bytes it really produces and stops at the bound (a central directory can understate them).
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import JSZip from 'jszip';
import { boundPassed, ingestBounds, type IngestBounds } from './bounds.ts';
import { MalformedSourceError } from './errors.ts';

/** A zip opened (its central directory read, nothing inflated) with the bytes it may still inflate to. */
export interface BoundedZip {
  zip: JSZip;
  /** The file's name, as messages give it. */
  name: string;
  bounds: IngestBounds;
  /** Bytes left to inflate within INGEST_MAX_UNZIPPED_BYTES. */
  left: number;
}

/** The uncompressed size an entry's central directory record states (JSZip keeps it, untyped). */
function declaredSize(entry: JSZip.JSZipObject): number {
  const size = (entry as unknown as { _data?: { uncompressedSize?: unknown } })._data?.uncompressedSize;
  return typeof size === 'number' ? size : 0;
}

/**
 * Opens a zip and checks its entry count and declared total size; `what` says what it was read as
 * ("zip file", "XLSX workbook"), `unreadable` words the problem of a file that is no zip.
 */
export async function openBoundedZip(file: string, name: string, what: string, unreadable: (message: string) => string): Promise<BoundedZip> {
  const bounds = ingestBounds();
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(await readFile(file));
  } catch (error) {
    throw new MalformedSourceError(name, null, unreadable((error as Error).message));
  }
  const entries = Object.values(zip.files);
  if (entries.length > bounds.maxZipEntries) throw new MalformedSourceError(name, null, boundPassed('maxZipEntries', `the ${what} holds ${entries.length} entries`));
  const declared = entries.reduce((sum, entry) => sum + declaredSize(entry), 0);
  if (declared > bounds.maxUnzippedBytes) throw new MalformedSourceError(name, null, boundPassed('maxUnzippedBytes', `the ${what} unzips to ${declared} bytes`));
  return { zip, name, bounds, left: bounds.maxUnzippedBytes };
}

/** Inflates one entry chunk by chunk into `use`, stopping with a MalformedSourceError once the zip's bytes pass the bound. */
export function inflateBounded(opened: BoundedZip, entry: JSZip.JSZipObject, use: (chunk: Uint8Array) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const stream = entry.nodeStream('nodebuffer') as Readable;
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      stream.pause();
      stream.destroy();
      reject(error instanceof MalformedSourceError ? error : new MalformedSourceError(opened.name, null, `entry ${JSON.stringify(entry.name)} cannot be inflated (${(error as Error).message})`));
    };
    stream.on('data', (chunk: Uint8Array) => {
      if (failed) return;
      opened.left -= chunk.length;
      if (opened.left < 0) {
        fail(new MalformedSourceError(opened.name, null, boundPassed('maxUnzippedBytes', `entry ${JSON.stringify(entry.name)} inflates past the bound`)));
        return;
      }
      try {
        use(chunk);
      } catch (error) {
        fail(error);
      }
    });
    stream.on('error', fail);
    stream.on('end', () => {
      if (!failed) resolve();
    });
    stream.resume();
  });
}

/** One entry's bytes, inflated within the bound. */
export async function inflateEntry(opened: BoundedZip, entry: JSZip.JSZipObject): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  await inflateBounded(opened, entry, (chunk) => chunks.push(chunk));
  return Buffer.concat(chunks);
}

// The XML elements counted in a workbook: a row, a cell, a shared string (with or without a namespace prefix).
const COUNTED_ELEMENT = /<(?:\w{1,16}:)?(row|c|si)[\s/>]/g;
/** Long enough to hold the start of an element cut by a chunk boundary. */
const CARRY_CHARS = 24;

/**
 * Checks an .xlsx before a workbook reader opens it: entries and unzipped bytes (ingest/bounds.ts), and
 * the rows and cells of its worksheets and its shared strings, counted while inflating (nothing kept).
 * Past a bound: a MalformedSourceError naming the file and the bound.
 */
export async function checkXlsxBounds(file: string, name: string): Promise<void> {
  const opened = await openBoundedZip(file, name, 'XLSX workbook', (message) => `not a readable XLSX workbook: ${message}`);
  const { bounds } = opened;
  const counts = { row: 0, c: 0, si: 0 };
  for (const entry of Object.values(opened.zip.files)) {
    if (entry.dir) continue;
    const counted = /^xl\/worksheets\/[^/]+\.xml$/i.test(entry.name) ? ['row', 'c'] : /^xl\/sharedStrings\.xml$/i.test(entry.name) ? ['si'] : null;
    let carry = '';
    await inflateBounded(opened, entry, (chunk) => {
      if (counted === null) return;
      const text = carry + Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1');
      for (const match of text.matchAll(COUNTED_ELEMENT)) {
        // A match wholly inside the carried tail was counted with the previous chunk.
        if (match.index + match[0].length <= carry.length) continue;
        const element = match[1] as 'row' | 'c' | 'si';
        if (counted.includes(element)) counts[element] += 1;
      }
      carry = text.slice(-CARRY_CHARS);
      if (counts.row > bounds.maxXlsxRows) throw new MalformedSourceError(name, null, boundPassed('maxXlsxRows', `the workbook has more than ${bounds.maxXlsxRows} rows`));
      if (counts.c > bounds.maxXlsxCells) throw new MalformedSourceError(name, null, boundPassed('maxXlsxCells', `the workbook has more than ${bounds.maxXlsxCells} cells`));
      if (counts.si > bounds.maxXlsxSharedStrings) throw new MalformedSourceError(name, null, boundPassed('maxXlsxSharedStrings', `the workbook has more than ${bounds.maxXlsxSharedStrings} shared strings`));
    });
  }
}
