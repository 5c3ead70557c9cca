// The per-accident parsers on hand-made files in both published forms (portal JSON rows, JSON
// objects, CSV with `;` or `,`, UTF-8 or CP1251), with the real quirks, and malformed inputs.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parsePtpFile } from '../../domains/ptp/ingest/parse.ts';
import { MalformedSourceError, type PtpRecord } from '../../domains/ptp/ingest/types.ts';
import { coordinates, crashDatetime, recase, settlement, text } from '../../domains/ptp/ingest/values.ts';
import { tempDir } from '../ingest/fixtures.ts';
import { FIXTURE_ROWS, HEADERS, portalJson } from './fixture.ts';

async function write(name: string, content: string | Uint8Array): Promise<string> {
  const file = join(await tempDir('ptp-parse-'), name);
  await writeFile(file, content);
  return file;
}

function malformed(file: string, row: number | null, problem: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof MalformedSourceError, `expected MalformedSourceError, got ${String(error)}`);
    assert.equal(error.file, file);
    assert.equal(error.row, row);
    assert.match(error.problem, problem);
    assert.ok(error.message.startsWith(`${file}${row === null ? '' : `, row ${row}`}: `), error.message);
    return true;
  };
}

/** A text of ASCII and Cyrillic А..я in CP1251 bytes (older exports' encoding). */
function cp1251(content: string): Uint8Array {
  return Uint8Array.from([...content].map((char) => {
    const code = char.codePointAt(0)!;
    if (code < 0x80) return code;
    if (code >= 0x410 && code <= 0x44f) return code - 0x410 + 0xc0;
    throw new Error(`no CP1251 byte for ${char}`);
  }));
}

const pick = (r: PtpRecord) => [r.crashDatetime, r.region, r.location, r.latitude, r.longitude, r.coordinateFix, r.died, r.injured, r.participants, r.isMajor];

describe('value quirks', () => {
  test('both date formats are local Sofia time; zoned ISO and epoch milliseconds are converted to Sofia time', () => {
    assert.equal(crashDatetime('15.03.2024 08:00'), '2024-03-15T08:00:00');
    assert.equal(crashDatetime('5.3.2024 8:07'), '2024-03-05T08:07:00');
    assert.equal(crashDatetime('15.03.2024 г. 08:00:30'), '2024-03-15T08:00:30');
    assert.equal(crashDatetime('2024-03-15 08:00'), '2024-03-15T08:00:00');
    assert.equal(crashDatetime('2024-03-15T08:00:59'), '2024-03-15T08:00:59');
    // Winter: Sofia is UTC+2; summer: UTC+3.
    assert.equal(crashDatetime('2024-01-10T10:00:00Z'), '2024-01-10T12:00:00');
    assert.equal(crashDatetime('2024-07-10T22:30:00Z'), '2024-07-11T01:30:00');
    assert.equal(crashDatetime('2024-07-10T10:00:00+01:00'), '2024-07-10T12:00:00');
    // ArcGIS epoch ms: 1710489600000 = 2024-03-15T08:00:00Z = 10:00 in Sofia (UTC+2 until 31 March).
    assert.equal(crashDatetime(1710489600000), '2024-03-15T10:00:00');
    // A date without time takes the separate hour column, else midnight.
    assert.equal(crashDatetime('15.03.2024', [17, 45, 0]), '2024-03-15T17:45:00');
    assert.equal(crashDatetime('2024-03-15'), '2024-03-15T00:00:00');
    for (const bad of ['31.02.2024 10:00', '15/03/2024 10:00', '2024-03-15 25:00', '', 'вчера']) {
      assert.throws(() => crashDatetime(bad), /date|blank/, bad);
    }
  });

  test('coordinates: decimal comma, swapped pair, blank or zero, outside Bulgaria', () => {
    assert.deepEqual(coordinates('42,6977', '23,3219'), { latitude: '42.6977', longitude: '23.3219', fix: 'as_given' });
    assert.deepEqual(coordinates('23,3219', '42,6977'), { latitude: '42.6977', longitude: '23.3219', fix: 'swapped' });
    assert.deepEqual(coordinates(42.6977, 23.3219), { latitude: '42.6977', longitude: '23.3219', fix: 'as_given' });
    assert.deepEqual(coordinates('', '23.3'), { latitude: null, longitude: null, fix: 'missing' });
    assert.deepEqual(coordinates('0', '0'), { latitude: null, longitude: null, fix: 'missing' });
    assert.deepEqual(coordinates('51.5', '-0.12'), { latitude: null, longitude: null, fix: 'out_of_area' });
    assert.throws(() => coordinates('42°41′', '23.3'), /latitude "42°41′" is not a decimal number/);
  });

  test('names: upper case re-cased, settlement prefix normalised', () => {
    assert.equal(recase('СТАРА ЗАГОРА'), 'Стара Загора');
    assert.equal(recase('ДОБРИЧ-СЕЛСКА'), 'Добрич-Селска');
    assert.equal(recase('Велико Търново'), 'Велико Търново');
    assert.equal(settlement('ГР.ПЛОВДИВ'), 'гр. Пловдив');
    assert.equal(settlement('с.Труд'), 'с. Труд');
    assert.equal(settlement('  гр.  Велико   Търново '), 'гр. Велико Търново');
    assert.equal(settlement('С. ДОЛНО ОСЕНОВО'), 'с. Долно Осеново');
    assert.equal(settlement(''), null);
  });

  test('text: runs of any whitespace become one space, the ends are trimmed, a blank cell is null', () => {
    // Cells with nothing to change are returned as they are; the others as written out by hand.
    for (const same of ['Блъскане на пешеходец', 'В населено място', '0', '42,558149', '01.01.2023 04:04', 'a b c']) assert.equal(text(same), same);
    const changed: Array<[string, string | null]> = [
      ['  Блъскане  на\tпешеходец ', 'Блъскане на пешеходец'], [' x', 'x'], ['x ', 'x'], ['a  b', 'a b'], ['a\tb', 'a b'],
      ['a\u00a0b', 'a b'], ['a\r\nb', 'a b'], ['\ufeffa', 'a'], ['a\u2028b', 'a b'], ['a \u00a0 b', 'a b'],
      ['', null], [' ', null], ['\t\n', null],
    ];
    for (const [cell, expected] of changed) assert.equal(text(cell), expected, JSON.stringify(cell));
    assert.equal(text(12), '12');
    assert.equal(text(null), null);
    assert.equal(text(undefined), null);
  });
});

describe('JSON as the portal serves it', () => {
  test('header row then string rows: upper-case regions, decimal commas, swapped and missing coordinates', async () => {
    const file = await write('ptp.json', portalJson());
    const parsed = await parsePtpFile(file);
    assert.equal(parsed.format, 'mvr-json');
    assert.equal(parsed.records.length, 11);
    // Row numbers: the header is row 1.
    assert.deepEqual(parsed.records.map((r) => r.sourceRow), [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    assert.deepEqual(pick(parsed.records[0]), ['2024-03-15T08:00:00', 'Пловдив', 'гр. Пловдив', '42.10000', '24.75000', 'as_given', 1, 0, 2, true]);
    assert.equal(parsed.records[0].regionCode, 'PDV');
    // c1: blank participants -> null, no coordinates.
    assert.deepEqual(pick(parsed.records[8]), ['2025-02-14T10:00:00', 'София-град', 'гр. София', null, null, 'missing', 3, 0, null, true]);
    // d1: swapped.
    assert.deepEqual(pick(parsed.records[9]).slice(3, 6), ['42.69000', '23.32000', 'swapped']);
    // e1: СОФИЙСКА is the district.
    assert.deepEqual([parsed.records[10].regionCode, parsed.records[10].region], ['SFO', 'Софийска']);
  });

  test('a bare array of rows, and a list of objects keyed by the headers (numbers as numbers)', async () => {
    const row = ['2025-07-10 22:05', 'Пловдив', 'Пловдив', 'гр. Пловдив', 'Челен удар', 'Извън населено място', '2', '1', '3', '1', '42.125', '24.75'];
    const bare = await parsePtpFile(await write('bare.json', JSON.stringify([HEADERS, row])));
    assert.deepEqual(pick(bare.records[0]), ['2025-07-10T22:05:00', 'Пловдив', 'гр. Пловдив', '42.125', '24.75', 'as_given', 2, 1, 3, true]);
    const objects = [
      { OBJECTID: 7, 'Дата и час на ПТП': '10.07.2025 22:05', 'Област': 'Пловдив', 'Община': 'Пловдив', 'Населено място': 'гр. Пловдив',
        'Вид на ПТП': 'Челен удар', 'Място на ПТП': 'Извън населено място', 'Брой загинали': 2, 'Брой ранени': 1,
        'Брой участници': 3, 'Тежки ПТП': 1, 'Географска ширина': 42.125, 'Географска дължина': 24.75 },
      { 'Дата и час на ПТП': '11.07.2025 06:00', 'Област': 'варна', 'Община': 'Варна', 'Населено място': 'гр. Варна',
        'Вид на ПТП': 'Самокатастрофа', 'Място на ПТП': 'В населено място', 'Брой загинали': '', 'Брой ранени': '',
        'Брой участници': 1, 'Географска ширина': null, 'Географска дължина': null },
    ];
    const parsed = await parsePtpFile(await write('objects.json', JSON.stringify({ success: true, data: objects })));
    assert.deepEqual(pick(parsed.records[0]), ['2025-07-10T22:05:00', 'Пловдив', 'гр. Пловдив', '42.125', '24.75', 'as_given', 2, 1, 3, true]);
    // Blank killed/injured read as 0; no serious flag: derived (0 + 0 -> false); objects numbered from 1.
    assert.deepEqual(pick(parsed.records[1]), ['2025-07-11T06:00:00', 'Варна', 'гр. Варна', null, null, 'missing', 0, 0, 1, false]);
    assert.deepEqual(parsed.records.map((r) => r.sourceRow), [1, 2]);
  });
});

describe('JSON read as it streams: the records and the first problem of JSON.parse of the whole text', () => {
  const row = ['10.07.2025 22:05', 'Пловдив', 'Пловдив', 'гр. Пловдив', 'Челен удар', 'Извън населено място', '2', '1', '3', '1', '42.125', '24.75'];
  const objectOf = (cells: string[]) => Object.fromEntries(HEADERS.map((header, i) => [header, cells[i]!]));

  test('a portal answer over many read chunks: every row, numbered from the header', async () => {
    // 3,000 rows of about 250 bytes: a dozen 64 KiB reads; row i has i killed and the date 1 + i % 28 of March.
    const rows = Array.from({ length: 3000 }, (_, i) => {
      const cells = [...row];
      cells[0] = `${String(1 + (i % 28)).padStart(2, '0')}.03.2024 10:30`;
      cells[6] = String(i);
      return cells;
    });
    const parsed = await parsePtpFile(await write('many.json', JSON.stringify({ success: true, data: [HEADERS, ...rows] })));
    assert.equal(parsed.records.length, 3000);
    assert.deepEqual(parsed.records.map((r) => r.died), rows.map((_, i) => i));
    assert.deepEqual([parsed.records[0]!.sourceRow, parsed.records[2999]!.sourceRow], [2, 3001]);
    assert.deepEqual([parsed.records[27]!.crashDatetime, parsed.records[28]!.crashDatetime], ['2024-03-28T10:30:00', '2024-03-01T10:30:00']);
  });

  test('CP1251 bytes are read as Cyrillic', async () => {
    const legacy = await parsePtpFile(await write('cp1251.json', cp1251(JSON.stringify([HEADERS, row]))));
    assert.deepEqual(pick(legacy.records[0]!), ['2025-07-10T22:05:00', 'Пловдив', 'гр. Пловдив', '42.125', '24.75', 'as_given', 2, 1, 3, true]);
  });

  test('which problem is named: a syntax error anywhere, then a row of the wrong shape, then the columns, then the first bad row', async () => {
    const badDate = [...row];
    badDate[0] = '32.03.2024 08:00';
    // A bad row early and a syntax error at the end: the text is not JSON.
    const cut = await write('cut.json', `${JSON.stringify({ success: true, data: [HEADERS, badDate, row] }).slice(0, -2)},]}`);
    await assert.rejects(parsePtpFile(cut), malformed(cut, null, /not valid JSON/));
    // A bad date in row 2, a nested cell in row 4: the shape is named.
    const nested = await write('nested.json', JSON.stringify([HEADERS, badDate, row, [{ deep: 1 }]]));
    await assert.rejects(parsePtpFile(nested), malformed(nested, 4, /cell 1 is not a string or number/));
    // A missing column and a row that is no array: the row.
    const noRegion = HEADERS.filter((h) => h !== 'Област');
    const shaped = await write('shaped.json', JSON.stringify([noRegion, row.slice(1), 'not a row']));
    await assert.rejects(parsePtpFile(shaped), malformed(shaped, 3, /row is not an array of cells/));
    // Objects: a missing column and a bad row: the columns (named for no row).
    const objects = await write('cols.json', JSON.stringify([badDate, row].map((cells) => {
      const object = objectOf(cells);
      delete object['Област'];
      return object;
    })));
    await assert.rejects(parsePtpFile(objects), malformed(objects, null, /missing column\(s\) "Област"/));
    // The first of two bad rows.
    const twice = await write('twice.json', JSON.stringify([HEADERS, row, badDate, badDate]));
    await assert.rejects(parsePtpFile(twice), malformed(twice, 3, /not a valid date/));
  });

  test('objects: the columns are those of every object\'s keys, also when the first object lacks some', async () => {
    // The first object has no participants column: it reads as blank (null) once a later object brings it.
    const first = objectOf(row);
    delete first['Брой участници'];
    const later = { ...objectOf(row), 'Брой участници': '5' };
    const parsed = await parsePtpFile(await write('later-column.json', JSON.stringify([first, later])));
    assert.deepEqual(parsed.records.map((r) => r.participants), [null, 5]);
    // The first object dates by the short header; a later one brings the full one, which the reader prefers: the first has no date.
    const short = objectOf(row);
    delete short['Дата и час на ПТП'];
    const preferred = await write('preferred.json', JSON.stringify([{ 'Дата': '10.07.2025 22:05', ...short }, objectOf(row)]));
    await assert.rejects(parsePtpFile(preferred), malformed(preferred, 1, /date and time are blank/));
  });

  test('"data" given twice is refused (JSON.parse would keep the last)', async () => {
    const file = await write('repeated.json', `{"success":true,"data":${JSON.stringify([HEADERS, row])},"data":${JSON.stringify([HEADERS])}}`);
    await assert.rejects(parsePtpFile(file), malformed(file, null, /"data" is given more than once/));
  });
});

describe('CSV', () => {
  const csvHeader = ['OBJECTID', ...HEADERS, 'Вид на пътя'];
  test('semicolon CSV with BOM, decimal commas, ISO dates, a quoted field with the separator', async () => {
    const lines = [
      csvHeader.join(';'),
      '1;2024-05-05 12:00;ВАРНА;Варна;гр. Варна;Блъскане между МПС;В населено място;1;3;2;1;43,2;27,9;Улица',
      '2;2024-05-06 12:00;ВАРНА;Варна;гр. Варна;"Блъскане; с ремарке";В населено място;0;1;2;;27,9;43,2;Улица',
      '',
      '3;2024-05-07 08:30;СОФИЯ;Столична;гр. София;Самокатастрофа;В населено място;0;0;1;0;;;Улица',
    ];
    const parsed = await parsePtpFile(await write('ptp.csv', `\uFEFF${lines.join('\r\n')}\r\n`));
    assert.equal(parsed.format, 'mvr-csv');
    assert.deepEqual(parsed.records.map(pick), [
      ['2024-05-05T12:00:00', 'Варна', 'гр. Варна', '43.2', '27.9', 'as_given', 1, 3, 2, true],
      ['2024-05-06T12:00:00', 'Варна', 'гр. Варна', '43.2', '27.9', 'swapped', 0, 1, 2, true],
      ['2024-05-07T08:30:00', 'София-град', 'гр. София', null, null, 'missing', 0, 0, 1, false],
    ]);
    assert.equal(parsed.records[1].crashType, 'Блъскане; с ремарке');
    // Rows are CSV lines: the empty line 4 is skipped, so the third record is line 5.
    assert.deepEqual(parsed.records.map((r) => r.sourceRow), [2, 3, 5]);
  });

  test('comma CSV with dotted dates; CP1251 bytes are read as Cyrillic', async () => {
    const content = `${HEADERS.join(',')}\n15.03.2024 08:00,ПЛОВДИВ,Пловдив,гр. Пловдив,Челен удар,Извън населено място,1,0,2,1,"42,1","24,75"\n`;
    const utf8 = await parsePtpFile(await write('comma.csv', content));
    assert.deepEqual(pick(utf8.records[0]), ['2024-03-15T08:00:00', 'Пловдив', 'гр. Пловдив', '42.1', '24.75', 'as_given', 1, 0, 2, true]);
    const legacy = await parsePtpFile(await write('cp1251.csv', cp1251(content)));
    assert.deepEqual(legacy.records.map(pick), utf8.records.map(pick));
  });
});

describe('CSV read through DuckDB: the same records and messages as the JSON form', () => {
  const csvOf = (rows: string[][]) => `${[HEADERS, ...rows].map((row) => row.map((cell) => (/[;"\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(';')).join('\n')}\n`;

  test('every fixture row, in the forms the SQL reads and in the rarer ones only the JavaScript reader reads', async () => {
    const rows = FIXTURE_ROWS.map((row) => row.slice(1));
    // Rarer forms: a zoned ISO date, "г." after the date, spaces around cells, a ';' inside a quoted cell, a line break in one.
    rows[0] = ['2024-03-15T06:00:00Z', ...rows[0]!.slice(1)];
    rows[1] = ['20.06.2024 г. 17:30', ...rows[1]!.slice(1)];
    rows[2] = [rows[2]![0]!, '  ПЛОВДИВ ', ' Марица', 'с.  Труд ', 'Само;катастрофа', 'Извън\nнаселено място', ' 0', '1 ', '1,0', ' 1', '42,11000 ', '24,75000'];
    const fromCsv = await parsePtpFile(await write('fixture.csv', csvOf(rows)));
    const fromJson = await parsePtpFile(await write('fixture.json', portalJson(FIXTURE_ROWS.map((row, i) => (i < 3 ? [row[0]!, ...rows[i]!] : row)))));
    assert.deepEqual(fromCsv.records.map(({ sourceRow, ...r }) => r), fromJson.records.map(({ sourceRow, ...r }) => r));
    // The CSV's rows are its lines: the quoted line break makes row 4 end on line 5.
    assert.deepEqual(fromCsv.records.map((r) => r.sourceRow), [2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });

  test('every date form: the SQL reads the same date and time as the JavaScript reader', async () => {
    const good = ['15.03.2024 08:00', 'ПЛОВДИВ', 'Пловдив', 'гр. Пловдив', 'Челен удар', 'Извън населено място', '1', '0', '2', '1', '42,1', '24,75'];
    // Expected values written out by hand (local Sofia time, seconds 00 when absent, midnight when no time).
    const forms: Array<[string, string]> = [
      ['15.03.2024 08:00', '2024-03-15T08:00:00'], ['5.3.2024 8:07', '2024-03-05T08:07:00'], ['05.03.2024 18:07:09', '2024-03-05T18:07:09'],
      ['29.02.2024', '2024-02-29T00:00:00'], ['1.12.2023 0:00', '2023-12-01T00:00:00'],
      ['2024-03-15 08:00', '2024-03-15T08:00:00'], ['2024-03-15T8:05', '2024-03-15T08:05:00'], ['2024-03-15 23:59:58', '2024-03-15T23:59:58'],
      ['2024-12-31', '2024-12-31T00:00:00'], ['2024-03-15T06:00:00Z', '2024-03-15T08:00:00'],
    ];
    const rows = forms.map(([date]) => [date, ...good.slice(1)]);
    const fromCsv = await parsePtpFile(await write('dates.csv', csvOf(rows)));
    const fromJson = await parsePtpFile(await write('dates.json', portalJson(rows.map((row, i) => [String(i + 1), ...row]))));
    assert.deepEqual(fromCsv.records.map((r) => r.crashDatetime), forms.map(([, expected]) => expected));
    assert.deepEqual(fromJson.records.map((r) => r.crashDatetime), forms.map(([, expected]) => expected));
    for (const date of ['30.02.2024 08:00', '15.13.2024', '2024-02-30', '2024-03-15 24:00', '15.03.2024 08:60', '2024-3-15', '15.03.24 08:00']) {
      const file = await write('bad-date.csv', csvOf([good, [date, ...good.slice(1)]]));
      await assert.rejects(parsePtpFile(file), malformed(file, 3, /not a valid date|neither DD\.MM\.YYYY/), date);
    }
  });

  test('bad cells: date, region, count, coordinate, flag, each named at its line', async () => {
    const good = ['15.03.2024 08:00', 'ПЛОВДИВ', 'Пловдив', 'гр. Пловдив', 'Челен удар', 'Извън населено място', '1', '0', '2', '1', '42,1', '24,75'];
    const cases: Array<[number, string, RegExp]> = [
      [0, '32.03.2024 08:00', /not a valid date/],
      [0, '2024-03-15 25:00', /not a valid date/],
      [1, 'НАРНИЯ', /region "НАРНИЯ" is not a Bulgarian oblast/],
      [1, '', /region \(Област\) is blank/],
      [6, 'две', /killed \(Брой загинали\) "две" is not a whole number/],
      [7, '-1', /injured \(Брой ранени\) "-1" is not a whole number/],
      [8, '100001', /participants \(Брой участници\) "100001" is out of range/],
      [10, '42.1.5', /latitude "42.1.5" is not a decimal number/],
      [9, 'може би', /serious-accident flag "може би" is not 0\/1/],
    ];
    for (const [column, value, problem] of cases) {
      const bad = [...good];
      bad[column] = value;
      const file = await write('bad.csv', csvOf([good, bad, bad]));
      await assert.rejects(parsePtpFile(file), malformed(file, 3, problem), value);
    }
  });

  test('a line past the UTF-8 sniff that is not UTF-8, and too many cells: refused as the CSV reader refused them', async () => {
    const good = '15.03.2024 08:00;ПЛОВДИВ;Пловдив;гр. Пловдив;Челен удар;Извън населено място;1;0;2;1;42,1;24,75\n';
    const padding = good.repeat(Math.ceil(70_000 / Buffer.byteLength(good)));
    const bytes = Buffer.concat([Buffer.from(`${HEADERS.join(';')}\n${padding}`), Buffer.from([0xff, 0x3b, 0x0a])]);
    const notUtf8 = await write('late.csv', bytes);
    await assert.rejects(parsePtpFile(notUtf8), malformed(notUtf8, null, /not valid UTF-8 text/));
    const long = await write('long.csv', `${HEADERS.join(';')}\n${good}${good.replace('\n', ';x\n')}`);
    await assert.rejects(parsePtpFile(long), malformed(long, 3, /not readable as CSV/));
  });
});

describe('malformed files name the file, the row and the problem', () => {
  test('a missing required column (the header row)', async () => {
    const file = await write('cols.json', JSON.stringify([HEADERS.filter((h) => h !== 'Брой ранени' && h !== 'Област'), []]));
    await assert.rejects(parsePtpFile(file), malformed(file, 1, /missing column\(s\) "Област", "Брой ранени"/));
  });

  test('bad cells: date, region, count, coordinate, flag', async () => {
    const good = ['15.03.2024 08:00', 'ПЛОВДИВ', 'Пловдив', 'гр. Пловдив', 'Челен удар', 'Извън населено място', '1', '0', '2', '1', '42,1', '24,75'];
    const cases: Array<[number, string, RegExp]> = [
      [0, '32.03.2024 08:00', /not a valid date/],
      [1, 'НАРНИЯ', /region "НАРНИЯ" is not a Bulgarian oblast/],
      [1, '', /region \(Област\) is blank/],
      [6, 'две', /killed \(Брой загинали\) "две" is not a whole number/],
      [7, '-1', /injured \(Брой ранени\) "-1" is not a whole number/],
      [10, '42.1.5', /latitude "42.1.5" is not a decimal number/],
      [9, 'може би', /serious-accident flag "може би" is not 0\/1/],
    ];
    for (const [column, value, problem] of cases) {
      const bad = [...good];
      bad[column] = value;
      const file = await write('bad.json', portalJson([['x', ...good], ['y', ...bad]]));
      await assert.rejects(parsePtpFile(file), malformed(file, 3, problem), value);
    }
  });

  test('not JSON, the wrong shape, a failed portal answer, no rows, an unknown extension', async () => {
    const broken = await write('broken.json', '{"success": true, "data": [');
    await assert.rejects(parsePtpFile(broken), malformed(broken, null, /not valid JSON/));
    const shape = await write('shape.json', '{"rows": []}');
    await assert.rejects(parsePtpFile(shape), malformed(shape, null, /expected \{"success":true,"data":\[\.\.\.\]\}/));
    const failed = await write('failed.json', '{"success": false, "errors": ["no such resource"]}');
    await assert.rejects(parsePtpFile(failed), malformed(failed, null, /"success": false/));
    const headerOnly = await write('header.json', JSON.stringify([HEADERS]));
    await assert.rejects(parsePtpFile(headerOnly), malformed(headerOnly, null, /no accident rows/));
    const cell = await write('cell.json', JSON.stringify([HEADERS, [{ nested: 1 }]]));
    await assert.rejects(parsePtpFile(cell), malformed(cell, 2, /cell 1 is not a string or number/));
    const empty = await write('empty.csv', '');
    await assert.rejects(parsePtpFile(empty), malformed(empty, null, /empty/));
    const ragged = await write('ragged.csv', `${HEADERS.join(';')}\n1;2\n`);
    await assert.rejects(parsePtpFile(ragged), malformed(ragged, 2, /not readable as CSV/));
    const xlsx = await write('ptp.xlsx', 'x');
    await assert.rejects(parsePtpFile(xlsx), malformed(xlsx, null, /unknown file type ".xlsx"/));
  });
});
