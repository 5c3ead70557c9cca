// The data.egov.bg copies of the daily report ({"success":true,"data":[[a,b,c,d],...]}) read through
// DuckDB, all new files of a batch in one read_json: the sheet walk of dailyReport.ts done in SQL over
// every file's rows at once (row kinds, the summary, the organisation sections and their totals, the
// checks of the sums), for the reports in the forms the portal publishes: every cell a string, no
// whitespace but spaces, amounts "1234.5", counts "12", the sections' periods written as the title's.
// Any other file, and any file whose walk would fail, is left to the JavaScript walker (parsePortalJson),
// which reads it and names its problem: a report read here is the one parsePortalJson gives.
import { basename } from 'node:path';
import type { Database } from '../../../engine/database.ts';
import { sqlStringLiteral } from '../../../engine/parquet.ts';
import { runJsonRead } from '../../../ingest/duckdbJson.ts';
import { SEBRA_CODES } from './codes.ts';
import type { Currency, DayStatus } from './types.ts';

const MAXIMUM_OBJECT_SIZE = 256 * 1024 * 1024;

/** A report read in SQL: its rows are in the results table (readPortalJsonReports), `line` numbering them in sheet order. */
export interface SqlReport {
  paymentDate: string;
  currency: Currency;
  status: DayStatus;
  rowCount: number;
}

// Whitespace cellText would turn into a space or trim, other than the space itself: left to JavaScript.
const ODD_WHITESPACE = '[\\t\\n\\x{0B}\\f\\r\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}]';
// dailyReport.ts's patterns, where a cell holds no whitespace but spaces (\s is a space).
const TOTAL = '(?i)общо *:?';
const CODED = '(?i)(\\d{1,2})(?: *[xх]{4})?';
const UNCODED = '(?i)[xх]{4}';
const TITLE = '(?i)ОБЩО ПЛАЩАНИЯ ЗА ДЕНЯ';
const TITLE_CURRENCY = '(?i)\\( *в +(лева|евро) *\\)';
const PERIOD = '(?i)Период *:? *(\\d{1,2})\\.(\\d{1,2})\\.(\\d{4}) *[-\\x{2013}\\x{2014}] *(\\d{1,2})\\.(\\d{1,2})\\.(\\d{4})';
const MASKED_ID = '\\( *(\\d{3}[\\d*]{4,}) *\\)';
/**
 * The amounts read here, as centsFromText reads them: "1234.5", "-0.25", "1234,5", and digits grouped by
 * spaces or no-break spaces with an optional decimal point or comma ("5 000 000,00"); at most two
 * decimals (more are rounded there) and 15 integer digits. Other forms go to JavaScript.
 */
const AMOUNT = '-?(?:\\d{1,15}|\\d{1,3}(?:[ \\x{A0}\\x{202F}]\\d{3}){1,4})(?:[.,]\\d{1,2})?';
/** SQL: the DECIMAL of an AMOUNT cell. */
const amountValue = (cell: string) => `CAST(CASE WHEN contains(${cell}, ',') OR contains(${cell}, ' ') OR contains(${cell}, chr(160)) OR contains(${cell}, chr(8239))
  THEN replace(regexp_replace(${cell}, '[ \\x{A0}\\x{202F}]', '', 'g'), ',', '.') ELSE ${cell} END AS DECIMAL(18,2))`;
/** The counts read here (countOf reads them the same; other forms go to JavaScript). */
const COUNT = '\\d{1,9}';

/**
 * Reads the portal-JSON reports of `files` (their positions in the batch as keys) and appends their
 * payment lines to `stage` (SEBRA's staging table: the payment columns as text, source_file, then
 * file_position and line: the file's key and the sheet row). Returns the reports read; a file absent
 * from the answer is left to parsePortalJson (nothing of it staged).
 */
export async function readPortalJsonReports(db: Database, files: ReadonlyMap<number, string>, stage: string): Promise<Map<number, SqlReport>> {
  const reports = new Map<number, SqlReport>();
  if (files.size === 0) return reports;
  await db.run('CREATE TEMP TABLE sebra_json_codes (code VARCHAR, name VARCHAR)');
  await db.appendRows('sebra_json_codes', SEBRA_CODES.map((entry) => [entry.code, entry.name]));
  await db.run('CREATE TEMP TABLE sebra_json_docs (file_id INTEGER, success JSON, structure JSON, data JSON)');
  try {
    await readDocuments(db, [...files]);
    await walk(db, stage, files);
    for (const row of await db.all('SELECT file_id, CAST(start_date AS VARCHAR) AS payment_date, currency, status, row_count FROM sebra_json_reports ORDER BY file_id')) {
      reports.set(Number(row.file_id), {
        paymentDate: String(row.payment_date), currency: String(row.currency) as Currency, status: String(row.status) as DayStatus, rowCount: Number(row.row_count),
      });
    }
  } finally {
    for (const table of ['sebra_json_codes', 'sebra_json_docs', 'sebra_json_rows', 'sebra_json_reports', 'sebra_json_placed', 'sebra_json_sections', 'sebra_json_days']) {
      await db.run(`DROP TABLE IF EXISTS ${table}`);
    }
  }
  return reports;
}

/**
 * The files' `success` and `data`, read together; when DuckDB refuses the read (a file that is not a
 * JSON object, a repeated key, bytes that are not UTF-8), halves are read apart, down to the files
 * it refuses, which are left out (to JavaScript).
 */
async function readDocuments(db: Database, files: ReadonlyArray<[number, string]>): Promise<void> {
  if (files.length === 0) return;
  const ids = `(VALUES ${files.map(([id, path]) => `(${id}, ${sqlStringLiteral(path)})`).join(', ')}) AS f(file_id, path)`;
  const refused = await runJsonRead(db, `INSERT INTO sebra_json_docs SELECT f.file_id, d.success, json_structure(d.data), d.data
    FROM read_json([${files.map(([, path]) => sqlStringLiteral(path)).join(', ')}], columns = {success: 'JSON', data: 'JSON'},
      format = 'unstructured', records = true, filename = true, maximum_object_size = ${MAXIMUM_OBJECT_SIZE}) d
    JOIN ${ids} ON f.path = d.filename`);
  if (refused === null || files.length === 1) return;
  const half = Math.ceil(files.length / 2);
  await readDocuments(db, files.slice(0, half));
  await readDocuments(db, files.slice(half));
}

/** SQL: whether a cell holds "Период" in any case (the common spelling checked first, without the regular expression). */
function hasPeriod(cell: string): string {
  return `(contains(${cell}, 'Период') OR regexp_matches(${cell}, '(?i)Период'))`;
}

async function walk(db: Database, stage: string, files: ReadonlyMap<number, string>): Promise<void> {
  // The sheet's rows (row n is data[n-1]) of the files whose every cell is a string or null, each
  // cell as cellText gives it (`odd`: other whitespace than spaces), with their kind, and what the walk
  // reads of each kind: a text row's first cell and period (the first of columns C, B, D, A naming
  // one), whether it holds an amount; a line's code, description, count and amount; a total's amount.
  // `g` orders the rows of all files (file, then row) for the running counts of the walk.
  await db.run(`CREATE TEMP TABLE sebra_json_rows AS
    WITH sheets AS (
      SELECT file_id, from_json(data, '[["VARCHAR"]]') AS sheet FROM sebra_json_docs
      WHERE structure = '[["VARCHAR"]]' AND (success IS NULL OR CAST(success AS VARCHAR) <> 'false')
    ),
    numbered AS (SELECT file_id, unnest(range(1, len(sheet) + 1)) AS n, unnest(sheet) AS cells FROM sheets),
    cells AS (
      SELECT file_id, CAST(n AS INTEGER) AS n, cells IS NULL AS not_a_row,
        coalesce(cells[1], '') AS a0, coalesce(cells[2], '') AS b0, coalesce(cells[3], '') AS c0, coalesce(cells[4], '') AS d0
      FROM numbered
    ),
    trimmed AS (
      SELECT file_id, n, trim(a0) AS a, trim(b0) AS b, trim(c0) AS c, trim(d0) AS d,
        -- Column D is only ever read as an amount (its odd whitespace then fails AMOUNT) or tested for being empty.
        not_a_row OR regexp_matches(a0 || b0 || c0, '${ODD_WHITESPACE}') AS odd
      FROM cells
    ),
    kinded AS (
      SELECT *,
        CASE WHEN a = '' AND b = '' AND c = '' AND d = '' THEN 'blank'
             WHEN a = 'Общо:' OR regexp_full_match(a, '${TOTAL}') OR (a = '' AND regexp_full_match(b, '${TOTAL}')) OR (a = '' AND b = '' AND d <> '') THEN 'total'
             WHEN (a = 'Код' AND b = 'Описание') OR (regexp_full_match(a, '(?i)код') AND regexp_full_match(b, '(?i)описание')) THEN 'header'
             WHEN regexp_full_match(a, '${CODED}') OR regexp_full_match(a, '${UNCODED}') THEN 'code'
             ELSE 'text' END AS kind
      FROM trimmed
    )
    SELECT file_id, n, (CAST(file_id AS BIGINT) << 32) + n AS g, kind, odd,
      CASE WHEN kind = 'text' THEN a END AS a,
      CASE WHEN kind = 'text' THEN (CASE WHEN ${hasPeriod('c')} THEN c WHEN ${hasPeriod('b')} THEN b WHEN ${hasPeriod('d')} THEN d WHEN ${hasPeriod('a')} THEN a END) END AS period_text,
      kind = 'text' AND d <> '' AS text_with_amount,
      CASE WHEN kind = 'code' THEN (CASE WHEN regexp_full_match(a, '${UNCODED}') THEN '' ELSE lpad(regexp_extract(a, '^(\\d{1,2})', 1), 2, '0') END) END AS account_code,
      CASE WHEN kind = 'code' THEN (CASE WHEN contains(b, '  ') THEN regexp_replace(b, ' +', ' ', 'g') ELSE b END) END AS described,
      CASE WHEN kind = 'code' AND regexp_full_match(c, '${COUNT}') THEN CAST(c AS INTEGER) END AS payment_count,
      kind = 'code' AND c <> '' AND NOT regexp_full_match(c, '${COUNT}') AS count_unread,
      CASE WHEN kind IN ('code', 'total') AND regexp_full_match(d, '${AMOUNT}') THEN ${amountValue('d')} END AS amount
    FROM kinded`);
  await db.run(`UPDATE sebra_json_rows p SET described = c.name FROM sebra_json_codes c WHERE p.kind = 'code' AND p.described = '' AND c.code = p.account_code`);

  // Per file: the title row (first row not blank), its currency and period, and the summary's "Общо:".
  await db.run(`CREATE TEMP TABLE sebra_json_reports AS
    WITH bounds AS (
      SELECT file_id, min(n) FILTER (WHERE kind <> 'blank') AS title_n, bool_or(odd) AS odd FROM sebra_json_rows GROUP BY file_id
    ),
    summaries AS (
      SELECT r.file_id, min(r.n) AS summary_n FROM sebra_json_rows r JOIN bounds b USING (file_id) WHERE r.kind = 'total' AND r.n > b.title_n GROUP BY r.file_id
    ),
    titled AS (
      SELECT b.file_id, b.title_n, b.odd, s.summary_n, r.a AS title, r.period_text AS period_cell
      FROM bounds b JOIN sebra_json_rows r ON r.file_id = b.file_id AND r.n = b.title_n LEFT JOIN summaries s ON s.file_id = b.file_id
    ),
    period AS (
      SELECT *, regexp_extract(period_cell, '${PERIOD}', ['d1', 'm1', 'y1', 'd2', 'm2', 'y2']) AS p,
        lower(regexp_extract(title, '${TITLE_CURRENCY}', 1)) AS currency_word
      FROM titled
    )
    SELECT file_id, title_n, summary_n, period_cell,
      CASE currency_word WHEN 'лева' THEN 'BGN' WHEN 'евро' THEN 'EUR' END AS currency,
      TRY_CAST(printf('%s-%02d-%02d', p.y1, TRY_CAST(p.m1 AS INTEGER), TRY_CAST(p.d1 AS INTEGER)) AS DATE) AS start_date,
      TRY_CAST(printf('%s-%02d-%02d', p.y2, TRY_CAST(p.m2 AS INTEGER), TRY_CAST(p.d2 AS INTEGER)) AS DATE) AS end_date,
      coalesce(NOT odd AND title IS NOT NULL AND regexp_matches(title, '${TITLE}') AND currency_word IN ('лева', 'евро') AND p.y1 <> '' AND summary_n IS NOT NULL, false) AS readable
    FROM period`);
  await db.run(`DELETE FROM sebra_json_reports WHERE NOT readable OR start_date IS NULL OR end_date IS NULL OR start_date <> end_date
    OR start_date < DATE '1000-01-01'`);

  // Every row after the title that is not blank, placed: the summary's, its "Общо:", then the sections'.
  // Running over all files' rows in order: `sec` (the totals before the row: a section's rows and its
  // closing "Общо:" share it), whether a header or code row came after the last total (in_body: a text
  // row then separates, it does not continue the name), the kind of the row before (a section opens
  // after a total). Lines with their code, description, count and amount.
  await db.run(`CREATE TEMP TABLE sebra_json_placed AS
    WITH placed AS (
      SELECT r.*, f.period_cell,
        CASE WHEN r.n < f.summary_n THEN 'summary' WHEN r.n = f.summary_n THEN 'summary_total' ELSE 'sections' END AS region
      FROM sebra_json_rows r JOIN sebra_json_reports f USING (file_id)
      WHERE r.n > f.title_n AND r.kind <> 'blank'
    )
    SELECT file_id, n, region, kind, a, period_text, period_cell, text_with_amount, account_code, described, payment_count, count_unread, amount,
      sum(CASE WHEN kind = 'total' THEN 1 ELSE 0 END) OVER running - CASE WHEN kind = 'total' THEN 1 ELSE 0 END AS sec,
      coalesce(max(CASE WHEN kind IN ('header', 'code') THEN g END) OVER running, -1) > coalesce(max(CASE WHEN kind = 'total' THEN g END) OVER running, -1) AS in_body,
      lag(kind) OVER (ORDER BY g) AS before_kind
    FROM placed
    WINDOW running AS (ORDER BY g ROWS UNBOUNDED PRECEDING)`);
  await db.run('DROP TABLE sebra_json_rows');

  // Per section (and the summary): sums and totals, its printed name (one or two name rows here, more
  // left to JavaScript), and whether a row in it would stop the walk: a text row with an amount, a line
  // without amount, readable count or description, a section not opened by an organisation row, a
  // period other than the title's.
  await db.run(`CREATE TEMP TABLE sebra_json_sections AS
    WITH groups AS (
      SELECT file_id, region, sec, sum(amount) FILTER (WHERE kind = 'code') AS lines_sum, count(*) FILTER (WHERE kind = 'code') AS lines,
        max(amount) FILTER (WHERE kind = 'total') AS total, bool_or(kind = 'total') AS closed,
        count(*) FILTER (WHERE kind = 'text' AND NOT in_body) AS parts, arg_min(a, n) FILTER (WHERE kind = 'text' AND NOT in_body) AS first_part,
        arg_max(a, n) FILTER (WHERE kind = 'text' AND NOT in_body) AS last_part,
        bool_or(text_with_amount
          OR (kind = 'code' AND (amount IS NULL OR count_unread OR described IS NULL OR described = ''))
          OR (kind = 'total' AND amount IS NULL)
          OR (region = 'sections' AND before_kind = 'total' AND kind <> 'text')
          OR (region = 'sections' AND kind = 'text' AND period_text IS NOT NULL AND period_text <> period_cell)) AS stops
      FROM sebra_json_placed GROUP BY file_id, region, sec
    ),
    named AS (
      SELECT *, trim(regexp_replace(CASE WHEN parts = 1 THEN first_part ELSE first_part || ' ' || last_part END, ' +', ' ', 'g')) AS printed FROM groups
    )
    SELECT file_id, region, sec, lines_sum, lines, total, closed, parts, stops,
      trim(regexp_replace(regexp_replace(coalesce(printed, ''), '${MASKED_ID}', ' '), ' +', ' ', 'g')) AS programme,
      nullif(regexp_extract(coalesce(printed, ''), '${MASKED_ID}', 1), '') AS programme_code
    FROM named`);

  // A file is read here when nothing in it would stop the walk: no such row, every section closed by
  // its "Общо:" with the sum of its lines, the summary's sums (per code too) those of the sections.
  await db.run(`DELETE FROM sebra_json_reports WHERE file_id IN (
      SELECT file_id FROM sebra_json_sections
      WHERE stops OR (region = 'sections' AND (NOT closed OR coalesce(lines_sum, 0) <> total OR parts > 2))
      UNION ALL
      SELECT file_id FROM (
        SELECT file_id, max(total) FILTER (WHERE region = 'summary_total') AS summary_total, sum(lines_sum) FILTER (WHERE region = 'summary') AS summary_sum,
          sum(lines) FILTER (WHERE region = 'summary') AS summary_lines, coalesce(sum(total) FILTER (WHERE region = 'sections'), 0) AS sections_sum
        FROM sebra_json_sections GROUP BY file_id
      ) WHERE (summary_lines > 0 AND summary_sum <> summary_total) OR sections_sum <> summary_total
      UNION ALL
      SELECT file_id FROM (
        SELECT file_id, account_code, sum(amount) FILTER (WHERE region = 'summary') AS in_summary, sum(amount) FILTER (WHERE region = 'sections') AS in_sections
        FROM sebra_json_placed WHERE kind = 'code' GROUP BY file_id, account_code
      ) WHERE coalesce(in_summary, 0) <> coalesce(in_sections, 0)
        AND file_id IN (SELECT file_id FROM sebra_json_placed WHERE region = 'summary' AND kind = 'code')
    )`);

  // The report of each file read here, and its payment lines (none for a day without payments), `line` their sheet row.
  await db.run(`CREATE TEMP TABLE sebra_json_days AS
    SELECT file_id, max(total) FILTER (WHERE region = 'summary_total') = 0 OR coalesce(sum(lines) FILTER (WHERE region = 'sections'), 0) = 0 AS no_payments
    FROM sebra_json_sections WHERE file_id IN (SELECT file_id FROM sebra_json_reports) GROUP BY file_id`);
  const names = `(VALUES ${[...files].map(([id, path]) => `(${id}, ${sqlStringLiteral(basename(path))})`).join(', ')}) AS f(file_id, source_file)`;
  await db.run(`INSERT INTO ${stage}
    SELECT CAST(r.start_date AS VARCHAR), r.currency, s.programme, s.programme_code, p.account_code, p.described,
      CAST(p.amount AS VARCHAR), p.payment_count, f.source_file, p.file_id, p.n
    FROM sebra_json_placed p
    JOIN sebra_json_reports r USING (file_id)
    JOIN sebra_json_days d USING (file_id)
    JOIN sebra_json_sections s USING (file_id, region, sec)
    JOIN ${names} USING (file_id)
    WHERE p.region = 'sections' AND p.kind = 'code' AND NOT d.no_payments`);
  await db.run(`CREATE OR REPLACE TEMP TABLE sebra_json_reports AS
    SELECT r.file_id, r.start_date, r.currency, CASE WHEN d.no_payments THEN 'NO_PAYMENTS' ELSE 'HAS_PAYMENTS' END AS status,
      CAST(CASE WHEN d.no_payments THEN 0 ELSE (SELECT count(*) FROM sebra_json_placed p WHERE p.file_id = r.file_id AND p.region = 'sections' AND p.kind = 'code') END AS INTEGER) AS row_count
    FROM sebra_json_reports r JOIN sebra_json_days d USING (file_id)`);
  for (const table of ['sebra_json_placed', 'sebra_json_sections', 'sebra_json_days']) await db.run(`DROP TABLE ${table}`);
}
