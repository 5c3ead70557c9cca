// The JSON forms read through DuckDB (json.ts): the same records and messages as the JavaScript reader
// (parsePtpFile, which reads every JSON file itself), and the files DuckDB's reader must not decide
// left to it.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Database } from '../../engine/database.ts';
import { stagePtpJson } from '../../domains/ptp/ingest/json.ts';
import { parsePtpFile } from '../../domains/ptp/ingest/parse.ts';
import type { PtpRecord } from '../../domains/ptp/ingest/types.ts';
import { tempDir } from '../ingest/fixtures.ts';
import { FIXTURE_ROWS, HEADERS } from './fixture.ts';

async function write(name: string, content: string): Promise<string> {
  const file = join(await tempDir('ptp-json-'), name);
  await writeFile(file, content);
  return file;
}

/** The staged table's rows as records (its text forms, as the JavaScript records print them), or the error thrown, or 'javascript'. */
async function staged(file: string): Promise<Array<Record<string, string | number | null>> | string> {
  const db = await Database.open({ connections: 1 });
  try {
    const result = await stagePtpJson(db, file);
    if (result === null) return 'javascript';
    return (await db.all(`SELECT * EXCLUDE (coordinate_fix) FROM ${result.table} ORDER BY line`)).map((row) =>
      Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value === null ? null : typeof value === 'string' ? value : Number(value)])));
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await db.close();
  }
}

/** The JavaScript reader's records in the staged table's form. */
async function parsed(file: string): Promise<Array<Record<string, string | number | null>> | string> {
  try {
    const { records } = await parsePtpFile(file);
    return records.map((r: PtpRecord) => ({
      line: r.sourceRow, crash_datetime: r.crashDatetime, region_code: r.regionCode, region: r.region, municipality: r.municipality,
      location: r.location, crash_type: r.crashType, ptp_place: r.ptpPlace, latitude: r.latitude, longitude: r.longitude,
      died_count: r.died, injured_count: r.injured, participant_count: r.participants, is_major: String(r.isMajor),
    }));
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const ROWS = FIXTURE_ROWS.map((row) => row.slice(1));

/** Rarer cells: the SQL leaves them to recordFromRow (a zoned ISO date, "г.", spaces, null, a short row, a decimal comma count). */
function oddRows(): Array<Array<string | null>> {
  const rows: Array<Array<string | null>> = ROWS.map((row) => [...row]);
  rows[0]![0] = '2024-03-15T06:00:00Z';
  rows[1]![0] = '20.06.2024 г. 17:30';
  rows[2] = [rows[2]![0]!, '  ПЛОВДИВ ', ' Марица', 'с.  Труд ', 'Само;катастрофа', 'Извън\nнаселено място', ' 0', '1 ', '1,0', ' 1', '42,11000 ', '24,75000'];
  rows[3]![2] = null;
  rows[4] = rows[4]!.slice(0, 9);
  return rows;
}

const objectsOf = (rows: Array<Array<string | null>>) => rows.map((row) => Object.fromEntries(HEADERS.map((header, i) => [header, row[i]]).filter(([, cell]) => cell !== undefined)));

describe('PTP JSON read through DuckDB', () => {
  test('the portal form and an array of objects, common and rarer cells: the records of the JavaScript reader', async () => {
    for (const [name, content] of [
      ['portal.json', JSON.stringify({ success: true, data: [HEADERS, ...ROWS] })],
      ['portal-odd.json', JSON.stringify({ success: true, data: [HEADERS, ...oddRows()] })],
      ['objects.json', JSON.stringify(objectsOf(ROWS))],
      ['objects-odd.json', `\uFEFF${JSON.stringify(objectsOf(oddRows()))}`],
    ] as const) {
      const file = await write(name, content);
      const expected = await parsed(file);
      assert.equal(typeof expected, 'object', name);
      assert.deepEqual(await staged(file), expected, name);
    }
  });

  test('a row the JavaScript reader refuses: the same message, the first such row', async () => {
    const rows = oddRows();
    rows[5]![1] = 'НАРНИЯ';
    rows[7]![7] = '-1';
    for (const content of [JSON.stringify({ success: true, data: [HEADERS, ...rows] }), JSON.stringify(objectsOf(rows))]) {
      const file = await write('bad.json', content);
      const message = await parsed(file);
      assert.match(String(message), /region "НАРНИЯ" is not a Bulgarian oblast/);
      assert.equal(await staged(file), message);
    }
  });

  test('files DuckDB reads otherwise than JSON.parse, or with cells that are not text, are left to the JavaScript reader', async () => {
    const portal = JSON.stringify({ success: true, data: [HEADERS, ...ROWS] });
    for (const content of [
      portal.replace(/\]\]\}$/, '],]}'), // a trailing comma: DuckDB reads it, JSON.parse does not
      `{"data":[["x"]],${portal.slice(1)}`, // a repeated key: JSON.parse keeps the last
      JSON.stringify(objectsOf(ROWS)).replace('{', `{"Област":"НАРНИЯ",`), // a repeated key in an object
      JSON.stringify({ success: true, data: [HEADERS, ...ROWS.map((row, i) => (i === 0 ? [row[0], row[1], row[2], row[3], row[4], row[5], 1] : row))] }),
      JSON.stringify([HEADERS, ...ROWS]), // a bare array of rows
      JSON.stringify({ success: false, data: [] }),
    ]) {
      assert.equal(await staged(await write('other.json', content)), 'javascript', content.slice(0, 60));
    }
  });
});
