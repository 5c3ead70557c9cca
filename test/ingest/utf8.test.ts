// isUtf8File judges a file as TextDecoder's fatal mode judges its whole bytes, wherever the 64 KiB
// read chunks cut a multi-byte sequence.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { isUtf8File } from '../../ingest/utf8.ts';
import { tempDir } from './fixtures.ts';

function decodesFatally(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

test('isUtf8File agrees with a fatal TextDecoder on every sequence at every position around a read boundary', async () => {
  const dir = await tempDir('utf8-');
  const sequences: Array<[string, number[]]> = [
    ['Cyrillic', [0xd0, 0x9f]], ['euro sign', [0xe2, 0x82, 0xac]], ['clef', [0xf0, 0x9d, 0x84, 0x9e]], ['BOM', [0xef, 0xbb, 0xbf]],
    ['lone continuation', [0x80]], ['cut two-byte', [0xd0]], ['cut four-byte', [0xf0, 0x9d, 0x84]], ['overlong', [0xc0, 0x80]],
    ['surrogate', [0xed, 0xa0, 0x80]], ['past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]], ['0xff', [0xff]],
  ];
  const boundary = 64 * 1024;
  for (const [name, sequence] of sequences) {
    for (const at of [boundary - 4, boundary - 3, boundary - 2, boundary - 1, boundary, 2 * boundary - 2]) {
      for (const atEnd of [false, true]) {
        const bytes = Buffer.concat([Buffer.alloc(at, 0x61), Buffer.from(sequence), Buffer.alloc(atEnd ? 0 : 100, 0x62)]);
        const file = join(dir, 'f.txt');
        await writeFile(file, bytes);
        assert.equal(await isUtf8File(file), decodesFatally(bytes), `${name} at ${at}${atEnd ? ', ending the file' : ''}`);
      }
    }
  }
  const empty = join(dir, 'empty.txt');
  await writeFile(empty, '');
  assert.equal(await isUtf8File(empty), true);
});
