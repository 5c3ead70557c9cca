// Streaming parser of the OECD (coop) files, in the two layouts published:
//
// 1. The OECD Data Explorer's SDMX CSV (`format=csv` or `format=csvfilewithlabels`, where each code
//    column is followed by its label column, "Reference area" after REF_AREA and so on). Columns are
//    found by their exact (upper-case) names, never by position: REF_AREA (ISO3 or an aggregate),
//    TIME_PERIOD, OBS_VALUE, MEASURE, and when present FREQ, ADJUSTMENT, TRANSFORMATION, ACTIVITY,
//    UNIT_MEASURE, SEX, AGE, OBS_STATUS and the dataflow id (DATAFLOW or STRUCTURE_ID).
// 2. The legacy data.oecd.org export: UTF-8 BOM,
//    "LOCATION","INDICATOR","SUBJECT","MEASURE","FREQUENCY","TIME","Value","Flag Codes".
//
// A row whose series is not one of the indicators of the domain (another measure, a growth-rate
// transformation, a breakdown by sex or age) is counted as skipped, not rejected. Any malformed row
// rejects the whole file with its line and column; so does a key (indicator, area, frequency,
// period) given twice.
import { basename } from 'node:path';
import { ColumnError, csvRecords, readRow, UniqueKeys } from '../../../ingest/csvRecords.ts';
import { MalformedSourceError } from '../../../ingest/errors.ts';
import type { CoopIndicator, Frequency } from '../indicators.ts';

export type OecdLayout = 'oecd-sdmx-csv' | 'oecd-legacy-csv';

export interface OecdObservation {
  indicator: CoopIndicator;
  /** REF_AREA / LOCATION as published, upper case: ISO3 or an aggregate (OECD, G-7, EA19, ...). */
  area: string;
  /** The area's label in a csvfilewithlabels file ("Reference area"), else null. */
  areaName: string | null;
  freq: Frequency;
  /** YYYY-MM (monthly), YYYY-Qn (quarterly) or YYYY (annual). */
  period: string;
  /** The published number as text (unchanged), or null when the cell is empty. */
  value: string | null;
  flag: string | null;
  /** The source's own series identification, e.g. `CLI/AMPLITUD/LTRENDIDX` or `DF_CLI:LI`. */
  sourceSeries: string;
  sourceRow: number;
}

export interface OecdFile {
  layout: OecdLayout;
  observations: OecdObservation[];
  /** Rows of series that are not indicators of the domain. */
  skippedRows: number;
}

const AREA = /^[A-Z0-9][A-Z0-9_-]{1,11}$/;
const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const PERIOD: Record<Frequency, RegExp> = {
  M: /^\d{4}-(0[1-9]|1[0-2])$/,
  Q: /^\d{4}-Q[1-4]$/,
  A: /^\d{4}$/,
};

/** The frequency a period label implies. */
export function periodFrequency(period: string): Frequency | null {
  for (const freq of ['M', 'Q', 'A'] as const) if (PERIOD[freq].test(period)) return freq;
  return null;
}

// ---- legacy data.oecd.org export ----------------------------------------------------------------

const LEGACY_COLUMNS = ['LOCATION', 'INDICATOR', 'SUBJECT', 'MEASURE', 'FREQUENCY', 'TIME', 'Value'] as const;

/** (INDICATOR, SUBJECT, MEASURE) of data.oecd.org to the domain's indicator. */
function legacyIndicator(indicator: string, subject: string, measure: string): CoopIndicator | null {
  switch (indicator) {
    case 'CLI':
    case 'BCI':
    case 'CCI':
      return subject === 'AMPLITUD' && measure === 'LTRENDIDX' ? indicator : null;
    case 'INDPROD':
      return subject === 'TOT' && measure.startsWith('IDX') ? 'INDPRO' : null;
    case 'RETAILTRADE':
    case 'RETAIL':
      return subject === 'TOT' && measure.startsWith('IDX') ? 'RETAIL' : null;
    case 'HUR':
      return subject === 'TOT' && measure === 'PC_LF' ? 'UNEMP' : null;
    default:
      return null;
  }
}

// ---- Data Explorer SDMX CSV ----------------------------------------------------------------------

const SDMX_REQUIRED = ['REF_AREA', 'TIME_PERIOD', 'OBS_VALUE', 'MEASURE'] as const;
const SDMX_OPTIONAL = ['FREQ', 'ADJUSTMENT', 'TRANSFORMATION', 'ACTIVITY', 'UNIT_MEASURE', 'SEX', 'AGE', 'OBS_STATUS', 'DATAFLOW', 'STRUCTURE_ID'] as const;
type SdmxColumn = (typeof SDMX_REQUIRED)[number] | (typeof SDMX_OPTIONAL)[number];

interface SdmxRule {
  indicator: CoopIndicator;
  /** Dimension values the row must have when the file has that column (a missing column is no constraint). */
  where: Partial<Record<SdmxColumn, readonly string[]>>;
}

/**
 * MEASURE codes of the Data Explorer to the domain's indicators. DF_CLI: LI (the CLI), BCICP and
 * CCICP (business and consumer confidence), amplitude adjusted index levels. Short-term statistics
 * (DF_INDSERV): PRVM (production volume, industry B-E) and TOVM (turnover volume, retail trade G47),
 * seasonally adjusted levels. Labour force (DF_IALFS_UNE_M): UNE_LF_M, the monthly unemployment rate,
 * total of both sexes aged 15 and over, seasonally adjusted. Growth rates and other breakdowns are skipped.
 */
const SDMX_RULES: ReadonlyMap<string, SdmxRule> = new Map([
  ['LI', { indicator: 'CLI', where: { ADJUSTMENT: ['AA'], TRANSFORMATION: ['IX', '_Z'] } }],
  ['BCICP', { indicator: 'BCI', where: { ADJUSTMENT: ['AA'], TRANSFORMATION: ['IX', '_Z'] } }],
  ['CCICP', { indicator: 'CCI', where: { ADJUSTMENT: ['AA'], TRANSFORMATION: ['IX', '_Z'] } }],
  ['PRVM', { indicator: 'INDPRO', where: { ACTIVITY: ['BTE'], ADJUSTMENT: ['Y'], TRANSFORMATION: ['_Z', 'IX'] } }],
  ['TOVM', { indicator: 'RETAIL', where: { ACTIVITY: ['G47'], ADJUSTMENT: ['Y'], TRANSFORMATION: ['_Z', 'IX'] } }],
  ['UNE_LF_M', { indicator: 'UNEMP', where: { SEX: ['_T'], AGE: ['Y_GE15'], ADJUSTMENT: ['Y'], UNIT_MEASURE: ['PT_LF_SUB'] } }],
] as const);

/** The code part of a dataflow id: `OECD.SDD.STES:DSD_STES@DF_CLI(4.1)` -> `DF_CLI`. */
function dataflowName(id: string): string {
  const match = /@([A-Za-z0-9_]+)/.exec(id) ?? /:([A-Za-z0-9_]+)/.exec(id);
  return match ? match[1] : id;
}

// ---- shared ----------------------------------------------------------------------------------------

function area(value: string, column: string): string {
  const text = value.toUpperCase();
  if (!AREA.test(text)) throw new ColumnError(column, `${JSON.stringify(value)} is not an area code (ISO3 or an aggregate such as OECD, G-7, EA19)`);
  return text;
}

function numberOrNull(raw: string, column: string): string | null {
  if (raw === '' || raw === '..' || raw === 'NaN') return null;
  if (!NUMBER.test(raw)) throw new ColumnError(column, `${JSON.stringify(raw)} is not a number`);
  return raw;
}

function frequency(raw: string, period: string, freqColumn: string, periodColumn: string): Frequency {
  const implied = periodFrequency(period);
  if (!implied) throw new ColumnError(periodColumn, `${JSON.stringify(period)} is neither YYYY-MM, YYYY-Qn nor YYYY`);
  if (raw !== '') {
    const freq = raw.toUpperCase();
    if (freq !== 'M' && freq !== 'Q' && freq !== 'A') throw new ColumnError(freqColumn, `${JSON.stringify(raw)} is not M, Q or A`);
    if (freq !== implied) throw new ColumnError(periodColumn, `${period} does not match frequency ${freq}`);
  }
  return implied;
}

type RowReader = (record: string[], line: number) => OecdObservation | 'skipped';

function legacyReader(names: string[]): RowReader {
  const at = new Map<string, number>();
  for (const column of [...LEGACY_COLUMNS, 'Flag Codes']) {
    const index = names.indexOf(column);
    if (index >= 0) at.set(column, index);
  }
  const get = (record: string[], column: string) => {
    const index = at.get(column);
    return index === undefined ? '' : (record[index] ?? '').trim();
  };
  return (record, line) => {
    const indicator = legacyIndicator(get(record, 'INDICATOR').toUpperCase(), get(record, 'SUBJECT').toUpperCase(), get(record, 'MEASURE').toUpperCase());
    if (!indicator) return 'skipped';
    const period = get(record, 'TIME');
    return {
      indicator,
      area: area(get(record, 'LOCATION'), 'LOCATION'),
      areaName: null,
      freq: frequency(get(record, 'FREQUENCY'), period, 'FREQUENCY', 'TIME'),
      period,
      value: numberOrNull(get(record, 'Value'), 'Value'),
      flag: get(record, 'Flag Codes') || null,
      sourceSeries: [get(record, 'INDICATOR'), get(record, 'SUBJECT'), get(record, 'MEASURE')].join('/').toUpperCase(),
      sourceRow: line,
    };
  };
}

function sdmxReader(names: string[]): RowReader {
  const at = new Map<SdmxColumn, number>();
  // Exact names: in csvfilewithlabels "Time period" and "Observation value" are the label columns.
  for (const column of [...SDMX_REQUIRED, ...SDMX_OPTIONAL]) {
    const index = names.indexOf(column);
    if (index >= 0) at.set(column, index);
  }
  // The label column of REF_AREA directly follows it in csvfilewithlabels.
  const refArea = at.get('REF_AREA')!;
  const labelIndex = names[refArea + 1] !== undefined && !/^[A-Z0-9_]+$/.test(names[refArea + 1]) ? refArea + 1 : null;
  const get = (record: string[], column: SdmxColumn) => {
    const index = at.get(column);
    return index === undefined ? '' : (record[index] ?? '').trim();
  };
  return (record, line) => {
    const measure = get(record, 'MEASURE').toUpperCase();
    const rule = SDMX_RULES.get(measure);
    if (!rule) return 'skipped';
    for (const [column, allowed] of Object.entries(rule.where) as Array<[SdmxColumn, readonly string[]]>) {
      if (at.has(column) && !allowed.includes(get(record, column).toUpperCase())) return 'skipped';
    }
    const period = get(record, 'TIME_PERIOD');
    const flow = get(record, 'DATAFLOW') || get(record, 'STRUCTURE_ID');
    // csvfilewithlabels writes "DATAFLOW" in the STRUCTURE column and the id in STRUCTURE_ID.
    const flowId = flow.toUpperCase() === 'DATAFLOW' ? get(record, 'STRUCTURE_ID') : flow;
    const label = labelIndex === null ? '' : (record[labelIndex] ?? '').trim();
    return {
      indicator: rule.indicator,
      area: area(get(record, 'REF_AREA'), 'REF_AREA'),
      areaName: label || null,
      freq: frequency(get(record, 'FREQ'), period, 'FREQ', 'TIME_PERIOD'),
      period,
      value: numberOrNull(get(record, 'OBS_VALUE'), 'OBS_VALUE'),
      flag: get(record, 'OBS_STATUS') || null,
      sourceSeries: flowId ? `${dataflowName(flowId)}:${measure}` : measure,
      sourceRow: line,
    };
  };
}

/** Which layout a header is; a MalformedSourceError names what is missing. */
function readerFor(header: string[], file: string): { layout: OecdLayout; read: RowReader } {
  const names = header.map((name) => name.replace(/^\uFEFF/, '').trim());
  if (names.includes('LOCATION') || names.includes('INDICATOR')) {
    const missing = LEGACY_COLUMNS.filter((column) => !names.includes(column));
    if (missing.length > 0) throw new MalformedSourceError(file, 1, `not a data.oecd.org export: missing column(s) ${missing.join(', ')} (header: ${names.join(',')})`);
    return { layout: 'oecd-legacy-csv', read: legacyReader(names) };
  }
  const missing = SDMX_REQUIRED.filter((column) => !names.includes(column));
  if (missing.length > 0) {
    throw new MalformedSourceError(file, 1, `neither an OECD Data Explorer SDMX CSV nor a data.oecd.org export: missing column(s) ${missing.join(', ')} (header: ${names.join(',')})`);
  }
  return { layout: 'oecd-sdmx-csv', read: sdmxReader(names) };
}

const key = (o: OecdObservation) => `${o.indicator} ${o.area} ${o.freq} ${o.period}`;

/** Reads one OECD file (either layout). Lines are 1-based, the header is line 1. */
export async function parseOecdFile(path: string): Promise<OecdFile> {
  const file = basename(path);
  let reader: { layout: OecdLayout; read: RowReader } | null = null;
  let width = 0;
  const observations: OecdObservation[] = [];
  const keys = new UniqueKeys(file);
  let skippedRows = 0;
  for await (const { record, line } of csvRecords(path, { relax_column_count: true })) {
    if (reader === null) {
      reader = readerFor(record, file);
      width = record.length;
      continue;
    }
    if (record.length === 1 && record[0].trim() === '') continue;
    // The legacy export's trailing empty "Flag Codes" cell may be absent; more cells than the header is an error.
    if (record.length > width) throw new MalformedSourceError(file, line, `${record.length} fields, the header has ${width}`);
    const rowReader = reader;
    const observation = readRow(file, line, () => rowReader.read(record, line));
    if (observation === 'skipped') {
      skippedRows++;
      continue;
    }
    keys.add(key(observation), line);
    observations.push(observation);
  }
  if (reader === null) throw new MalformedSourceError(file, null, 'the file is empty (no header line)');
  if (observations.length === 0) {
    throw new MalformedSourceError(file, null, `the file holds no observation of the indicators read (${skippedRows} row(s) of other series)`);
  }
  return { layout: reader.layout, observations, skippedRows };
}
