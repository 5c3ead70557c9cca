// Reader of the Comext SDMX-CSV extract (dataset DS-045409), through DuckDB's read_csv:
//   DATAFLOW,LAST UPDATE,freq,reporter,partner,product,flow,indicators,TIME_PERIOD,OBS_VALUE[,OBS_FLAG]
// Columns are found by header name (their set and order vary between API versions: OBS_FLAG or
// CONF_STATUS may be present, SDMX-CSV 2.0 writes STRUCTURE,STRUCTURE_ID instead of DATAFLOW), and
// every field is trimmed. One row is one indicator; the pivot to value + quantity happens at load.
import { basename } from 'node:path';
import { Database } from '../../../engine/database.ts';
import { ColumnError } from '../../../ingest/csvRecords.ts';
import { csvParseMessage, fieldSql, jsTrimmedTextSql, readCsvHead } from '../../../ingest/duckdbCsv.ts';
import { MalformedSourceError } from '../../../ingest/errors.ts';
import { SKIPPED, stageCsv } from '../../../ingest/staging.ts';
import { TRADE_KEY } from '../datasets.ts';
import {
  SKIPPED_INDICATORS, TRADE_INDICATORS, type TradeFile, type TradeFrequency, type TradeIndicator, type TradeObservation,
} from './types.ts';

/** Columns a file must have; the rest are optional. */
const REQUIRED_COLUMNS = ['freq', 'reporter', 'partner', 'product', 'flow', 'indicators', 'TIME_PERIOD', 'OBS_VALUE'] as const;
const OPTIONAL_COLUMNS = ['DATAFLOW', 'STRUCTURE_ID', 'LAST UPDATE', 'OBS_FLAG'] as const;
type Column = (typeof REQUIRED_COLUMNS)[number] | (typeof OPTIONAL_COLUMNS)[number];

const CODE = /^[A-Z][A-Z0-9_]{1,29}$/;
const PRODUCT = /^[0-9A-Z]{1,12}$/;
const NUMBER = /^-?\d+(\.\d+)?$/;
const ANNUAL = /^(\d{4})$/;
const MONTHLY = /^(\d{4})-(0[1-9]|1[0-2])$/;
/** dd/mm/yy or dd/mm/yyyy, optionally followed by hh:mm[:ss]. */
const LAST_UPDATE = /^(\d{2})\/(\d{2})\/(\d{2}|\d{4})(?:\s+(\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** `dd/mm/yy hh:mm:ss` (or date only, or a four-digit year) -> `YYYY-MM-DD HH:MM:SS`. Two-digit years are 20yy. */
export function parseLastUpdate(text: string): string {
  const match = LAST_UPDATE.exec(text);
  if (!match) throw new ColumnError('LAST UPDATE', `${JSON.stringify(text)} is not a dd/mm/yy hh:mm:ss timestamp`);
  const [, dd, mm, yy, hh = '00', mi = '00', ss = '00'] = match;
  const year = yy.length === 2 ? 2000 + Number(yy) : Number(yy);
  const date = new Date(Date.UTC(year, Number(mm) - 1, Number(dd)));
  if (date.getUTCMonth() !== Number(mm) - 1 || date.getUTCDate() !== Number(dd) || Number(hh) > 23 || Number(mi) > 59 || Number(ss) > 59) {
    throw new ColumnError('LAST UPDATE', `${JSON.stringify(text)} is not a valid date and time`);
  }
  return `${String(year).padStart(4, '0')}-${mm}-${dd} ${hh}:${mi}:${ss}`;
}

/** The frequency a TIME_PERIOD label implies: YYYY annual, YYYY-MM monthly. */
export function periodFrequency(period: string): TradeFrequency | null {
  if (ANNUAL.test(period)) return 'A';
  if (MONTHLY.test(period)) return 'M';
  return null;
}

function code(value: string, column: Column): string {
  const text = value.toUpperCase();
  if (!CODE.test(text)) throw new ColumnError(column, `${JSON.stringify(value)} is not a code`);
  return text;
}

function toObservation(fields: Map<Column, string>, sourceRow: number): TradeObservation | 'skipped' {
  const get = (column: Column) => fields.get(column) ?? '';
  const indicatorText = get('indicators').toUpperCase();
  if ((SKIPPED_INDICATORS as readonly string[]).includes(indicatorText)) return 'skipped';
  if (!(TRADE_INDICATORS as readonly string[]).includes(indicatorText)) {
    throw new ColumnError('indicators', `${JSON.stringify(get('indicators'))} is not one of ${[...TRADE_INDICATORS, ...SKIPPED_INDICATORS].join(', ')}`);
  }
  const period = get('TIME_PERIOD');
  const periodFreq = periodFrequency(period);
  if (!periodFreq) throw new ColumnError('TIME_PERIOD', `${JSON.stringify(period)} is neither YYYY nor YYYY-MM`);
  const freq = get('freq').toUpperCase();
  if (freq !== 'A' && freq !== 'M') throw new ColumnError('freq', `${JSON.stringify(get('freq'))} is neither A (annual) nor M (monthly)`);
  if (freq !== periodFreq) throw new ColumnError('TIME_PERIOD', `${period} does not match freq ${freq}`);
  const flow = get('flow');
  if (flow !== '1' && flow !== '2') throw new ColumnError('flow', `${JSON.stringify(flow)} is neither 1 (import) nor 2 (export)`);
  const product = get('product').toUpperCase();
  if (!PRODUCT.test(product)) throw new ColumnError('product', `${JSON.stringify(get('product'))} is not a product code`);
  const raw = get('OBS_VALUE');
  // Confidential or missing observations come as an empty value (or Eurostat's ":"), usually flagged.
  const value = raw === '' || raw === ':' ? null : raw;
  if (value !== null && !NUMBER.test(value)) throw new ColumnError('OBS_VALUE', `${JSON.stringify(raw)} is not a number`);
  const lastUpdate = fields.has('LAST UPDATE') && get('LAST UPDATE') !== '' ? parseLastUpdate(get('LAST UPDATE')) : null;
  const dataflow = get('DATAFLOW') || get('STRUCTURE_ID') || null;
  return {
    reporter: code(get('reporter'), 'reporter'),
    partner: code(get('partner'), 'partner'),
    product,
    flow: flow === '1' ? 1 : 2,
    freq,
    period,
    indicator: indicatorText as TradeIndicator,
    value,
    flag: get('OBS_FLAG') || null,
    lastUpdate,
    dataflow,
    sourceRow,
  };
}

function headerIndex(header: string[], file: string): Map<Column, number> {
  const index = new Map<Column, number>();
  const names = header.map((name) => name.replace(/^\uFEFF/, '').trim());
  for (const column of [...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS]) {
    const at = names.findIndex((name) => name.toLowerCase() === column.toLowerCase());
    if (at >= 0) index.set(column, at);
  }
  const missing = REQUIRED_COLUMNS.filter((column) => !index.has(column));
  if (missing.length > 0) {
    throw new MalformedSourceError(file, 1, `not a Comext SDMX-CSV extract: missing column(s) ${missing.join(', ')} (header: ${names.join(',')})`);
  }
  return index;
}

// The forms the SQL reads itself, each a subset of what toObservation accepts (ASCII only, so that
// upper() agrees with toUpperCase(); no surrounding whitespace, which fails every pattern below, so
// only the free-text columns are trimmed in SQL); any other row goes through toObservation, which
// accepts it or names the problem. LAST UPDATE is read by parseLastUpdate itself, once per distinct
// text (lastUpdateTexts).
const ASCII_CODE = "'[A-Za-z][A-Za-z0-9_]{1,29}'";
const ASCII_PRODUCT = "'[0-9A-Za-z]{1,12}'";

/**
 * The query that reads a file's records (readCsvInto): one row per record with `skip` (an indicator
 * read and not kept), `ok` (every field but LAST UPDATE in a form the SQL reads) and the observation's
 * columns, as text (the value as published; last_update still the cell's text).
 */
function normaliseSql(source: string, index: Map<Column, number>): string {
  const t = (column: Column) => fieldSql(index.get(column));
  const text = (column: Column) => jsTrimmedTextSql(index.get(column));
  return `SELECT skip,
      NOT skip
        AND regexp_full_match(indicators, '[A-Za-z0-9_]+') AND upper(indicators) IN (${TRADE_INDICATORS.map((i) => `'${i}'`).join(', ')})
        AND (regexp_full_match(period, '\\d{4}') AND freq IN ('A', 'a') OR regexp_full_match(period, '\\d{4}-(0[1-9]|1[0-2])') AND freq IN ('M', 'm'))
        AND flow IN ('1', '2')
        AND regexp_full_match(product, ${ASCII_PRODUCT})
        AND (obs_value IN ('', ':') OR regexp_full_match(obs_value, '-?\\d+(\\.\\d+)?'))
        AND regexp_full_match(reporter, ${ASCII_CODE}) AND regexp_full_match(partner, ${ASCII_CODE}) AS ok,
      upper(reporter) AS reporter, upper(partner) AS partner, upper(product) AS product, CASE flow WHEN '1' THEN 1 WHEN '2' THEN 2 END AS flow,
      upper(freq) AS freq, period, upper(indicators) AS indicator, CASE WHEN obs_value IN ('', ':') THEN NULL ELSE obs_value END AS value,
      nullif(flag, '') AS flag, last_update, coalesce(nullif(dataflow, ''), nullif(structure_id, '')) AS dataflow
    FROM (
      SELECT *, regexp_full_match(indicators, '[A-Za-z0-9_]+') AND upper(indicators) IN (${SKIPPED_INDICATORS.map((i) => `'${i}'`).join(', ')}) AS skip
      FROM (
        SELECT ${t('indicators')} AS indicators, ${t('TIME_PERIOD')} AS period, ${t('freq')} AS freq, ${t('flow')} AS flow,
          ${t('product')} AS product, ${t('OBS_VALUE')} AS obs_value, ${index.has('LAST UPDATE') ? t('LAST UPDATE') : 'NULL::VARCHAR'} AS last_update,
          ${text('DATAFLOW')} AS dataflow, ${text('STRUCTURE_ID')} AS structure_id, ${t('reporter')} AS reporter, ${t('partner')} AS partner,
          ${text('OBS_FLAG')} AS flag
        FROM ${source}
      )
    )`;
}

/**
 * LAST UPDATE of a file's rows, read by parseLastUpdate once per distinct cell text: a valid text
 * becomes YYYY-MM-DD HH:MM:SS (a blank one NULL), a row with another leaves the SQL's reading.
 */
async function lastUpdateTexts(db: Database, table: string): Promise<void> {
  const texts = (await db.all(`SELECT DISTINCT last_update FROM ${table} WHERE last_update IS NOT NULL`)).map((r) => String(r.last_update));
  const read = texts.map((cell) => {
    const trimmed = cell.trim();
    if (trimmed === '') return [cell, null, 'true'];
    try {
      return [cell, parseLastUpdate(trimmed), 'true'];
    } catch {
      return [cell, null, 'false'];
    }
  });
  await db.run(`CREATE TABLE ${table}_lu (cell VARCHAR, text VARCHAR, valid VARCHAR)`);
  await db.appendRows(`${table}_lu`, read);
  await db.run(`UPDATE ${table} SET last_update = lu.text, ok = ok AND lu.valid = 'true' FROM ${table}_lu lu WHERE ${table}.last_update = lu.cell;
    DROP TABLE ${table}_lu`);
}

/** The observation columns of a staged trade file's table, as text (value and last_update too), in the snapshot's order. */
export const STAGED_TRADE_COLUMNS = ['reporter', 'partner', 'product', 'flow', 'freq', 'period', 'indicator', 'value', 'flag', 'last_update', 'dataflow'] as const;

export interface StagedTradeFile {
  /**
   * Scratch table of the file's records: `skip` (an indicator read and not kept), `ok` (an observation
   * kept) and STAGED_TRADE_COLUMNS. The observations are its rows WHERE ok.
   */
  table: string;
  /** The table with each record's `line` first. */
  lined: string;
  observations: number;
  /** Rows of indicators read and not kept (SUPPLEMENTARY_QUANTITY). */
  skippedRows: number;
  /** The first and last period of its observations (as text: YYYY sorts before YYYY-MM of the same year). */
  periods: [string, string];
}

let fileCounter = 0;

/**
 * Reads one extract into a scratch table of `db` (DuckDB's read_csv, checked in SQL). Any problem
 * rejects the whole file with its line (the header is line 1) and column, the first in file order;
 * a (reporter, partner, product, flow, period, indicator) given twice is a problem too.
 */
export async function stageTradeFile(db: Database, path: string): Promise<StagedTradeFile> {
  const file = basename(path);
  const [head] = await readCsvHead(path, 1, { trim: true });
  if (!head) throw new MalformedSourceError(file, null, 'the file is empty (no header line)');
  const index = headerIndex(head.record, file);
  const { read, skippedInJavaScript } = await stageCsv(db, {
    file, path, table: `trade_file_${++fileCounter}`,
    csv: { skipLines: head.line, fields: head.record.length },
    query: (source) => normaliseSql(source, index),
    badRecord: (bad) => new MalformedSourceError(file, bad.line, `not valid CSV: ${csvParseMessage(bad, head.record.length)}`),
    afterRead: async ({ table }) => {
      if (index.has('LAST UPDATE')) await lastUpdateTexts(db, table);
    },
    merge: { update: STAGED_TRADE_COLUMNS, unread: 'NOT ok AND NOT skip' },
    reader: (record, line) => {
      const fields = new Map<Column, string>();
      for (const [column, at] of index) fields.set(column, (record[at] ?? '').trim());
      const o = toObservation(fields, line);
      return o === 'skipped' ? SKIPPED : [o.reporter, o.partner, o.product, o.flow, o.freq, o.period, o.indicator, o.value, o.flag, o.lastUpdate, o.dataflow];
    },
    uniqueKey: {
      columns: TRADE_KEY.map((c) => [c, c] as const),
      problem: (repeated) => new MalformedSourceError(file, repeated.line,
        `duplicate observation ${TRADE_KEY.map((c) => String(repeated.key[c])).join(' ')} (also on line ${repeated.firstLine})`),
    },
  });
  try {
    const [{ kept, skipped, first: firstPeriod, last: lastPeriod }] = await db.all(`SELECT count(*) FILTER (WHERE ok)::INTEGER AS kept,
      count(*) FILTER (WHERE skip)::INTEGER AS skipped, min(period) FILTER (WHERE ok) AS first, max(period) FILTER (WHERE ok) AS last FROM ${read.table}`);
    if (Number(kept) === 0) throw new MalformedSourceError(file, null, 'the file holds no VALUE_IN_EUROS or QUANTITY_IN_100KG observations');
    return {
      table: read.table, lined: read.lined, observations: Number(kept), skippedRows: Number(skipped) + skippedInJavaScript,
      periods: [String(firstPeriod), String(lastPeriod)],
    };
  } catch (error) {
    await read.drop();
    throw error;
  }
}

/** Reads one extract (see stageTradeFile) into observations, in file order. */
export async function parseTradeFile(path: string): Promise<TradeFile> {
  const db = await Database.open({ connections: 1 });
  try {
    const staged = await stageTradeFile(db, path);
    const rows = await db.all(`SELECT *, line AS source_row FROM ${staged.lined} WHERE ok ORDER BY line`);
    const observations = rows.map((r): TradeObservation => ({
      reporter: String(r.reporter), partner: String(r.partner), product: String(r.product), flow: Number(r.flow) as 1 | 2,
      freq: r.freq as TradeFrequency, period: String(r.period), indicator: r.indicator as TradeIndicator, value: r.value === null ? null : String(r.value),
      flag: r.flag === null ? null : String(r.flag), lastUpdate: r.last_update === null ? null : String(r.last_update),
      dataflow: r.dataflow === null ? null : String(r.dataflow), sourceRow: Number(r.source_row),
    }));
    return { observations, skippedRows: staged.skippedRows };
  } finally {
    await db.close();
  }
}
