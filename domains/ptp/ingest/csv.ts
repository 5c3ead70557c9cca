// The CSV form of the per-accident data read through DuckDB (read_csv): the cells are checked and
// converted in SQL where their form is one of the common ones (dates DD.MM.YYYY HH:MM or YYYY-MM-DD
// HH:MM, decimal coordinates with a point or a comma), and the few-valued cells through the JavaScript
// readers once per distinct text (oblast, settlement, the serious-accident flag, the counts, the
// accident type and place: a lookup join is cheaper per row than the regular expressions were): the
// same values as recordFromRow. A row in any other form goes through recordFromRow itself, which reads it
// or names the problem, so the messages are the JavaScript ones. Lines are numbered as csv-parse
// numbers them (the header is line 1).
import { createReadStream } from 'node:fs';
import { setImmediate } from 'node:timers/promises';
import type { Database } from '../../../engine/database.ts';
import { csvParseMessage, readCsvHead, withUtf8Copy, type CsvTable } from '../../../ingest/duckdbCsv.ts';
import { stageCsv } from '../../../ingest/staging.ts';
import { locateColumns, recordFromRow, type Column, type ColumnIndex } from './rows.ts';
import { MalformedSourceError } from './types.ts';
import { count, majorFlag, oblast, settlement, text } from './values.ts';

/** The first bytes decide the encoding, as the JavaScript reader decided it: UTF-8 when they are, else CP1251. */
const SNIFF_BYTES = 64 * 1024;

/** The columns of a staged CSV's table (stage_crashes' text forms), after `line`. */
export const STAGED_PTP_COLUMNS = [
  'crash_datetime', 'region_code', 'region', 'municipality', 'location', 'crash_type', 'ptp_place', 'latitude', 'longitude',
  'died_count', 'injured_count', 'participant_count', 'is_major', 'coordinate_fix',
] as const;

export interface StagedPtpCsv {
  /** Scratch table: `line` (the source row) and STAGED_PTP_COLUMNS, one row per accident. */
  table: string;
  records: number;
  firstDay: string;
  lastDay: string;
  drop: () => Promise<void>;
}

async function firstBytes(path: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of createReadStream(path, { start: 0, end: SNIFF_BYTES - 1 })) {
    chunks.push(chunk as Buffer);
    length += (chunk as Buffer).length;
  }
  return Buffer.concat(chunks, length);
}

/** The separator a header line uses: the most frequent of `;`, `,` and tab outside quotes. */
export function detectDelimiter(headerLine: string): string {
  const unquoted = headerLine.replace(/"[^"]*"/g, '');
  const counts = [';', ',', '\t'].map((d) => [d, unquoted.split(d).length - 1] as const);
  counts.sort((a, b) => b[1] - a[1]);
  return counts[0][1] === 0 ? ',' : counts[0][0];
}

let fileCounter = 0;

/**
 * JavaScript work to do while DuckDB normalises the file's rows: that statement runs on one DuckDB
 * thread, so the other core is free. It must not use the database, and must not throw.
 */
export type Meanwhile = () => Promise<void>;

/**
 * Reads a PTP CSV into a scratch table of `db`; `file` names it in messages (the path, as the
 * JavaScript reader named it). `meanwhile` runs while the rows are normalised.
 */
export async function stagePtpCsv(db: Database, file: string, meanwhile?: Meanwhile): Promise<StagedPtpCsv> {
  const head = await firstBytes(file);
  let text: string;
  let utf8 = true;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
  } catch {
    utf8 = false;
    text = new TextDecoder('windows-1251').decode(head, { stream: true });
  }
  if (text.trim() === '') throw new MalformedSourceError(file, null, 'the file is empty');
  const delimiter = detectDelimiter(text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0]!);
  if (utf8) return stageUtf8(db, file, file, delimiter, meanwhile);
  // Older exports are CP1251: DuckDB reads UTF-8, so it reads a UTF-8 copy.
  return withUtf8Copy(file, 'windows-1251', (copy) => stageUtf8(db, file, copy, delimiter, meanwhile));
}

async function stageUtf8(db: Database, file: string, path: string, delimiter: string, meanwhile?: Meanwhile): Promise<StagedPtpCsv> {
  const [header] = await readCsvHead(path, 1, { delimiter });
  if (!header) throw new MalformedSourceError(file, null, 'the file is empty');
  const id = nextStageId();
  const table = `ptp_csv_${id}`;
  let index: ColumnIndex = {};
  try {
    await stageCsv(db, {
      file, path, table: `ptp_csv_${id}_read`,
      csv: { skipLines: header.line, fields: header.record.length, delimiter, invalidUtf8: 'refuse' },
      // A file that is not readable CSV is refused before any row is judged, as csv-parse refused it.
      badRecordRefuses: 'at once',
      badRecord: (bad) => (bad.kind === 'INVALID ENCODING'
        ? new MalformedSourceError(file, null, 'not valid UTF-8 text')
        : new MalformedSourceError(file, bad.line, `not readable as CSV: ${csvParseMessage(bad, header.record.length)}`)),
      afterRead: async (read) => {
        index = locateColumns(header.record, file, header.line, 'position');
        await normaliseInto(db, read, index, table, id, meanwhile);
      },
      merge: { append: table },
      reader: (record, line) => {
        const r = recordFromRow((column) => cellOf(record, index[column]), file, line);
        return [
          r.crashDatetime, r.regionCode, r.region, r.municipality, r.location, r.crashType, r.ptpPlace, r.latitude, r.longitude,
          r.died, r.injured, r.participants, String(r.isMajor), r.coordinateFix,
        ];
      },
    });
    const [summary] = await db.all(`SELECT count(*)::INTEGER AS n, min(crash_datetime[1:10]) AS first, max(crash_datetime[1:10]) AS last FROM ${table}`);
    if (Number(summary.n) === 0) throw new MalformedSourceError(file, null, 'no accident rows after the header');
    return {
      table, records: Number(summary.n), firstDay: String(summary.first), lastDay: String(summary.last),
      drop: () => db.run(`DROP TABLE IF EXISTS ${table}`),
    };
  } catch (error) {
    await db.run(`DROP TABLE IF EXISTS ${table}`);
    throw error;
  }
}

/** The next scratch table number of this process (tables ptp_csv_<id>...). */
function nextStageId(): number {
  return ++fileCounter;
}

/**
 * The accidents the SQL reads from a read of text cells (`read.lined`: `line` and the fields c<i> as
 * `index` places them, '' for a blank cell), into a new table `table` (`line` and STAGED_PTP_COLUMNS);
 * the rows it leaves go to recordFromRow (see stageCsv). `meanwhile` runs while the statement is in flight.
 */
async function normaliseInto(db: Database, read: CsvTable, index: ColumnIndex, table: string, id: number, meanwhile?: Meanwhile): Promise<void> {
  await db.run(`CREATE TABLE ${table} (line INTEGER, ${STAGED_PTP_COLUMNS.map((c) => `${c} ${c.endsWith('_count') ? 'INTEGER' : 'VARCHAR'}`).join(', ')})`);
  const lookups = await nameLookups(db, read, index, id);
  try {
    const normalised = db.run(`INSERT INTO ${table} ${normaliseSql(read, index, lookups)}`);
    if (meanwhile) {
      // Awaited below: a failure while JavaScript is busy is not an unhandled rejection.
      normalised.catch(() => undefined);
      // The statement reaches DuckDB's thread before JavaScript takes this one.
      await setImmediate();
      await meanwhile();
    }
    await normalised;
  } finally {
    for (const lookup of Object.values(lookups)) await db.run(`DROP TABLE IF EXISTS ${lookup}`);
  }
}

function cellOf(cells: ReadonlyArray<string | null>, at: number | string | undefined): string | undefined {
  return at === undefined ? undefined : (cells[at as number] ?? '');
}

// ---- the SQL --------------------------------------------------------------------------------------

const DOTTED_SQL = String.raw`'^(\d{1,2})\.(\d{1,2})\.(\d{4})(?: (\d{1,2}):(\d{2})(?::(\d{2}))?)?$'`;
const ISO_SQL = String.raw`'^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$'`;
const CLOCK_SQL = String.raw`'^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?$'`;
const COORDINATE_SQL = String.raw`'[+-]?\d{1,3}(?:[.,]\d+)?'`;

interface Lookups {
  regions: string;
  places: string;
  flags: string;
  texts: string;
  counts: string;
}

/**
 * The accidents the SQL reads, in stage_crashes' text forms (with `coordinate_fix`), in the order of
 * STAGED_PTP_COLUMNS after `line`: every cell in a common form and every name known to the lookups.
 */
function normaliseSql(read: Pick<CsvTable, 'table' | 'lined'>, index: ColumnIndex, lookups: Lookups): string {
  const cell = (column: Column) => (index[column] === undefined ? 'NULL::VARCHAR' : `coalesce(c${index[column] as number}, '')`);
  const coordinate = (column: Column) => `CASE WHEN ${cell(column)} IS NULL OR ${cell(column)} = '' THEN NULL
      WHEN regexp_full_match(${cell(column)}, ${COORDINATE_SQL}) AND CAST(replace(${cell(column)}, ',', '.') AS DOUBLE) <> 0 THEN replace(${cell(column)}, ',', '.') END`;
  const coordinateOk = (column: Column) => `(${cell(column)} IS NULL OR ${cell(column)} = '' OR regexp_full_match(${cell(column)}, ${COORDINATE_SQL}))`;
  const inRange = (v: string, [low, high]: readonly [number, number]) => `CAST(${v} AS DOUBLE) BETWEEN ${low} AND ${high}`;
  const fields = `SELECT line,
      ${cell('datetime')} AS datetime_text,
      regexp_full_match(${cell('datetime')}, ${DOTTED_SQL}) AS dotted, regexp_full_match(${cell('datetime')}, ${ISO_SQL}) AS iso,
      ${index.hour === undefined ? 'NULL' : `regexp_extract(${cell('hour')}, ${CLOCK_SQL}, ['hh', 'mi', 'ss'])`} AS clock,
      ${index.hour === undefined ? 'true' : `${cell('hour')} = '' OR regexp_full_match(${cell('hour')}, ${CLOCK_SQL})`} AS clock_ok,
      ${cell('died')} AS died_text, ${cell('injured')} AS injured_text, ${cell('participants')} AS participants_text,
      ${coordinate('latitude')} AS lat, ${coordinate('longitude')} AS lon, ${coordinateOk('latitude')} AND ${coordinateOk('longitude')} AS coordinates_ok,
      ${cell('region')} AS region_text, ${cell('municipality')} AS municipality_text, ${cell('settlement')} AS settlement_text,
      ${cell('major')} AS major_text, ${cell('crashType')} AS crash_type_text, ${cell('place')} AS place_text
    FROM ${read.lined}`;
  // The parts of a date the patterns matched, by position and separator ('' for an absent time or
  // seconds): matching and then splitting costs a tenth of extracting the groups.
  const part = (value: string, separator: string, at: number) => `split_part(${value}, '${separator}', ${at})`;
  const dottedTime = part('datetime_text', ' ', 2);
  const isoTime = 'datetime_text[12:]';
  const dated = `SELECT *,
      CASE WHEN dotted THEN {'y': ${part(part('datetime_text', '.', 3), ' ', 1)}, 'm': ${part('datetime_text', '.', 2)}, 'd': ${part('datetime_text', '.', 1)},
                             'hh': ${part(dottedTime, ':', 1)}, 'mi': ${part(dottedTime, ':', 2)}, 'ss': ${part(dottedTime, ':', 3)}}
           WHEN iso THEN {'y': datetime_text[1:4], 'm': datetime_text[6:7], 'd': datetime_text[9:10],
                          'hh': ${part(isoTime, ':', 1)}, 'mi': ${part(isoTime, ':', 2)}, 'ss': ${part(isoTime, ':', 3)}} END AS day
    FROM (${fields})`;
  // A date without a time takes the hour column's, else midnight.
  const timed = `SELECT *, CAST(day.y AS INTEGER) AS y, CAST(day.m AS INTEGER) AS mo, CAST(day.d AS INTEGER) AS d,
      CAST(CASE WHEN day.hh <> '' THEN day.hh WHEN clock.hh <> '' THEN clock.hh ELSE '0' END AS INTEGER) AS hh,
      CAST(CASE WHEN day.hh <> '' THEN day.mi WHEN clock.hh <> '' THEN coalesce(nullif(clock.mi, ''), '0') ELSE '0' END AS INTEGER) AS mi,
      CAST(CASE WHEN day.hh <> '' THEN coalesce(nullif(day.ss, ''), '0') WHEN clock.hh <> '' THEN coalesce(nullif(clock.ss, ''), '0') ELSE '0' END AS INTEGER) AS ss
    FROM (${dated})`;
  const checked = `SELECT *, printf('%04d-%02d-%02dT%02d:%02d:%02d', y, mo, d, hh, mi, ss) AS crash_datetime,
      day IS NOT NULL AND clock_ok AND y >= 1900 AND hh <= 23 AND mi <= 59 AND ss <= 59
        AND try_cast(printf('%04d-%02d-%02d', y, mo, d) AS DATE) IS NOT NULL AND coordinates_ok AS ok,
      CASE WHEN lat IS NULL OR lon IS NULL THEN 'missing'
           WHEN ${inRange('lat', [40, 45])} AND ${inRange('lon', [20, 30])} THEN 'as_given'
           WHEN ${inRange('lon', [40, 45])} AND ${inRange('lat', [20, 30])} THEN 'swapped' ELSE 'out_of_area' END AS coordinate_fix
    FROM (${timed})`;
  const columns = `line, crash_datetime, r.code AS region_code, r.name AS region, m.name AS municipality, s.name AS location, ct.value AS crash_type, pp.value AS ptp_place,
      CASE coordinate_fix WHEN 'as_given' THEN lat WHEN 'swapped' THEN lon END AS latitude,
      CASE coordinate_fix WHEN 'as_given' THEN lon WHEN 'swapped' THEN lat END AS longitude,
      dc.zero_blank AS died_count, ic.zero_blank AS injured_count, pc.null_blank AS participant_count,
      CAST(CASE f.flag WHEN 'blank' THEN dc.zero_blank + ic.zero_blank > 0 ELSE f.flag = 'true' END AS VARCHAR) AS is_major, coordinate_fix`;
  return `SELECT ${columns} FROM (${checked})
    JOIN ${lookups.regions} r ON r.text = region_text
    JOIN ${lookups.places} m ON m.text IS NOT DISTINCT FROM municipality_text
    JOIN ${lookups.places} s ON s.text IS NOT DISTINCT FROM settlement_text
    JOIN ${lookups.flags} f ON f.text IS NOT DISTINCT FROM major_text
    JOIN ${lookups.texts} ct ON ct.text IS NOT DISTINCT FROM crash_type_text
    JOIN ${lookups.texts} pp ON pp.text IS NOT DISTINCT FROM place_text
    JOIN ${lookups.counts} dc ON dc.text IS NOT DISTINCT FROM died_text
    JOIN ${lookups.counts} ic ON ic.text IS NOT DISTINCT FROM injured_text
    JOIN ${lookups.counts} pc ON pc.text IS NOT DISTINCT FROM participants_text
    WHERE ok`;
}

/**
 * The names of the file, each distinct text read once by the JavaScript readers: oblast (a text that is
 * no oblast has no row, so its rows go to recordFromRow), settlement, and the serious-accident flag
 * ('true', 'false', 'blank' for a blank cell; a text that is none has no row).
 */
async function nameLookups(db: Database, read: Pick<CsvTable, 'table' | 'lined'>, index: ColumnIndex, id: number): Promise<Lookups> {
  const lookups = {
    regions: `ptp_csv_${id}_regions`, places: `ptp_csv_${id}_places`, flags: `ptp_csv_${id}_flags`,
    texts: `ptp_csv_${id}_texts`, counts: `ptp_csv_${id}_counts`,
  };
  const distinct = async (columns: Column[]) => {
    const present = columns.filter((c) => index[c] !== undefined).map((c) => `SELECT DISTINCT c${index[c] as number} AS text FROM ${read.table}`);
    const rows = present.length === 0 ? [] : await db.all(present.join(' UNION '));
    return rows.map((r) => (r.text === null ? null : String(r.text)));
  };
  const attempt = <T>(read: () => T): T | undefined => {
    try {
      return read();
    } catch {
      return undefined;
    }
  };
  await db.run(`CREATE TABLE ${lookups.regions} (text VARCHAR, code VARCHAR, name VARCHAR)`);
  await db.appendRows(lookups.regions, (await distinct(['region'])).flatMap((text) => {
    const found = attempt(() => oblast(text));
    return found ? [[text, found.code, found.name]] : [];
  }));
  await db.run(`CREATE TABLE ${lookups.places} (text VARCHAR, name VARCHAR)`);
  const places = await distinct(['municipality', 'settlement']);
  await db.appendRows(lookups.places, [...(index.municipality === undefined || index.settlement === undefined ? [null] : []), ...places]
    .map((text) => [text, settlement(text)]));
  await db.run(`CREATE TABLE ${lookups.flags} (text VARCHAR, flag VARCHAR)`);
  const flags = index.major === undefined ? [null] : await distinct(['major']);
  await db.appendRows(lookups.flags, flags.flatMap((text) => {
    // majorFlag with no casualties: true or false as the text says, the blank rule otherwise.
    const none = attempt(() => majorFlag(text, 0, 0));
    const some = attempt(() => majorFlag(text, 1, 0));
    if (none === undefined || some === undefined) return [];
    return [[text, none === some ? String(none) : 'blank']];
  }));
  // The blank cell both ways ('' as read, NULL for an absent column), with the texts of the file.
  const blanks = ['', null];
  await db.run(`CREATE TABLE ${lookups.texts} (text VARCHAR, value VARCHAR)`);
  await db.appendRows(lookups.texts, [...new Set([...blanks, ...(await distinct(['crashType', 'place']))])].map((cell) => [cell, text(cell)]));
  // A count's two readings (a blank cell as 0, as NULL); a text count() refuses has no row.
  await db.run(`CREATE TABLE ${lookups.counts} (text VARCHAR, zero_blank INTEGER, null_blank INTEGER)`);
  await db.appendRows(lookups.counts, [...new Set([...blanks, ...(await distinct(['died', 'injured', 'participants']))])].flatMap((cell) => {
    const zero = attempt(() => count(cell, '', 0));
    const none = attempt(() => count(cell, '', null));
    return zero === undefined || none === undefined ? [] : [[cell, zero, none]];
  }));
  return lookups;
}
