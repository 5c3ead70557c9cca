// Streaming parser of the Comext SDMX-CSV extract (dataset DS-045409):
//   DATAFLOW,LAST UPDATE,freq,reporter,partner,product,flow,indicators,TIME_PERIOD,OBS_VALUE[,OBS_FLAG]
// Columns are found by header name (their set and order vary between API versions: OBS_FLAG or
// CONF_STATUS may be present, SDMX-CSV 2.0 writes STRUCTURE,STRUCTURE_ID instead of DATAFLOW), and
// every field is trimmed. One row is one indicator; the pivot to value + quantity happens at load.
import { basename } from 'node:path';
import { ColumnError, csvRecords, readRow, UniqueKeys } from '../../../ingest/csvRecords.ts';
import { MalformedSourceError } from '../../../ingest/errors.ts';
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

const key = (o: TradeObservation) => [o.reporter, o.partner, o.product, o.flow, o.period, o.indicator].join('|');

/**
 * Reads one extract. Any problem rejects the whole file with its line (the header is line 1) and
 * column; a (reporter, partner, product, flow, period, indicator) given twice is a problem too.
 */
export async function parseTradeFile(path: string): Promise<TradeFile> {
  const file = basename(path);
  let index: Map<Column, number> | null = null;
  const observations: TradeObservation[] = [];
  const keys = new UniqueKeys(file);
  let skippedRows = 0;
  for await (const { record, line } of csvRecords(path, { trim: true, relax_column_count: false })) {
    if (index === null) {
      index = headerIndex(record, file);
      continue;
    }
    const fields = new Map<Column, string>();
    for (const [column, at] of index) fields.set(column, (record[at] ?? '').trim());
    const observation = readRow(file, line, () => toObservation(fields, line));
    if (observation === 'skipped') {
      skippedRows++;
      continue;
    }
    const id = key(observation);
    keys.add(id, line, id.replaceAll('|', ' '));
    observations.push(observation);
  }
  if (index === null) throw new MalformedSourceError(file, null, 'the file is empty (no header line)');
  if (observations.length === 0) throw new MalformedSourceError(file, null, 'the file holds no VALUE_IN_EUROS or QUANTITY_IN_100KG observations');
  return { observations, skippedRows };
}
