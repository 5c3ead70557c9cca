// Reader of the OECD (coop) files, through DuckDB's read_csv, in the two layouts published:
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
import { Database } from '../../../engine/database.ts';
import { ColumnError } from '../../../ingest/csvRecords.ts';
import { jsTrimSql, readCsvHead, trimCheckedSql, trimmedFieldSql } from '../../../ingest/duckdbCsv.ts';
import { MalformedSourceError } from '../../../ingest/errors.ts';
import { SKIPPED, stageCsv } from '../../../ingest/staging.ts';
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
function layoutOf(header: string[], file: string): OecdLayout {
  const names = headerNames(header);
  if (names.includes('LOCATION') || names.includes('INDICATOR')) {
    const missing = LEGACY_COLUMNS.filter((column) => !names.includes(column));
    if (missing.length > 0) throw new MalformedSourceError(file, 1, `not a data.oecd.org export: missing column(s) ${missing.join(', ')} (header: ${names.join(',')})`);
    return 'oecd-legacy-csv';
  }
  const missing = SDMX_REQUIRED.filter((column) => !names.includes(column));
  if (missing.length > 0) {
    throw new MalformedSourceError(file, 1, `neither an OECD Data Explorer SDMX CSV nor a data.oecd.org export: missing column(s) ${missing.join(', ')} (header: ${names.join(',')})`);
  }
  return 'oecd-sdmx-csv';
}

function headerNames(header: string[]): string[] {
  return header.map((name) => name.replace(/^\uFEFF/, '').trim());
}

function readerFor(layout: OecdLayout, names: string[]): RowReader {
  return layout === 'oecd-legacy-csv' ? legacyReader(names) : sdmxReader(names);
}

// ---- the same readers in SQL ------------------------------------------------------------------------
// Each accepts a subset of what its JavaScript reader accepts (codes in ASCII, so that upper() agrees
// with toUpperCase()) and gives the same values; every other row goes through the JavaScript reader,
// which reads it or names the problem.

const sqlList = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');
const PRINTABLE = "'[ -~]*'";
const AREA_SQL = "'[A-Za-z0-9][A-Za-z0-9_-]{1,11}'";
const NUMBER_SQL = "'-?(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?'";

/** The frequency a period implies, in SQL (NULL when none). */
function impliedFrequencySql(period: string): string {
  return `CASE WHEN regexp_full_match(${period}, '\\d{4}-(0[1-9]|1[0-2])') THEN 'M' WHEN regexp_full_match(${period}, '\\d{4}-Q[1-4]') THEN 'Q'
    WHEN regexp_full_match(${period}, '\\d{4}') THEN 'A' END`;
}

/** The checks frequency(), numberOrNull() and area() make, as one SQL condition over the columns freq, period, value, area. */
const SHARED_CHECKS = `${impliedFrequencySql('period')} IS NOT NULL
  AND (freq = '' OR freq IN ('M', 'm', 'Q', 'q', 'A', 'a') AND upper(freq) = ${impliedFrequencySql('period')})
  AND (value IN ('', '..', 'NaN') OR regexp_full_match(value, ${NUMBER_SQL}))
  AND regexp_full_match(area, ${AREA_SQL})`;

/** The kept columns from the checked ones (see SHARED_CHECKS) and `indicator`, `area_name`, `flag`, `source_series`. */
const OBSERVATION_SQL = `indicator, upper(area) AS area, area_name, ${impliedFrequencySql('period')} AS freq, period,
  CASE WHEN value IN ('', '..', 'NaN') THEN NULL ELSE value END AS value, flag, source_series`;

/** The observation columns of a staged file's table, as text, in the snapshot's order. */
export const STAGED_OECD_COLUMNS = ['indicator', 'area', 'area_name', 'freq', 'period', 'value', 'flag', 'source_series'] as const;

function legacySql(source: string, names: string[], fields: number): string {
  const at = (column: string) => (names.indexOf(column) < 0 ? undefined : names.indexOf(column));
  const field = (column: string) => trimmedFieldSql(at(column));
  return `WITH raw AS (
      SELECT c1 IS NULL AND ${jsTrimSql('coalesce(c0, \'\')')} = '' AS blank,
        upper(${field('INDICATOR')}) AS ind, upper(${field('SUBJECT')}) AS sub, upper(${field('MEASURE')}) AS mea,
        regexp_full_match(${field('INDICATOR')} || ${field('SUBJECT')} || ${field('MEASURE')}, ${PRINTABLE}) AS printable,
        ${field('LOCATION')} AS area, ${field('FREQUENCY')} AS freq, ${field('TIME')} AS period, ${field('Value')} AS value,
        nullif(${field('Flag Codes')}, '') AS flag
      FROM ${trimCheckedSql(source, fields)}
    ),
    mapped AS (
      SELECT *, CASE
          WHEN ind IN ('CLI', 'BCI', 'CCI') AND sub = 'AMPLITUD' AND mea = 'LTRENDIDX' THEN ind
          WHEN ind = 'INDPROD' AND sub = 'TOT' AND starts_with(mea, 'IDX') THEN 'INDPRO'
          WHEN ind IN ('RETAILTRADE', 'RETAIL') AND sub = 'TOT' AND starts_with(mea, 'IDX') THEN 'RETAIL'
          WHEN ind = 'HUR' AND sub = 'TOT' AND mea = 'PC_LF' THEN 'UNEMP'
        END AS indicator,
        NULL::VARCHAR AS area_name, ind || '/' || sub || '/' || mea AS source_series
      FROM raw
    )
    SELECT blank, NOT blank AND printable AND indicator IS NULL AS skip, NOT blank AND printable AND indicator IS NOT NULL AND ${SHARED_CHECKS} AS ok,
      ${OBSERVATION_SQL}
    FROM mapped`;
}

function sdmxSql(source: string, names: string[], fields: number): string {
  const at = (column: string) => (names.indexOf(column) < 0 ? undefined : names.indexOf(column));
  const field = (column: string) => trimmedFieldSql(at(column));
  const refArea = at('REF_AREA')!;
  const labelIndex = names[refArea + 1] !== undefined && !/^[A-Z0-9_]+$/.test(names[refArea + 1]) ? refArea + 1 : undefined;
  // A rule's dimensions that the file has: the row must carry one of the allowed values (a missing column is no constraint).
  const rules = [...SDMX_RULES].map(([measure, rule]) => {
    const conditions = (Object.entries(rule.where) as Array<[SdmxColumn, readonly string[]]>)
      .filter(([column]) => at(column) !== undefined)
      .map(([column, allowed]) => `upper(${field(column)}) IN (${sqlList(allowed)})`);
    return `WHEN measure = '${measure}' THEN CASE WHEN ${conditions.length > 0 ? conditions.join(' AND ') : 'true'} THEN '${rule.indicator}' END`;
  });
  const dimensions = [...new Set([...SDMX_RULES.values()].flatMap((rule) => Object.keys(rule.where) as SdmxColumn[]))].filter((c) => at(c) !== undefined);
  return `WITH raw AS (
      SELECT c1 IS NULL AND ${jsTrimSql('coalesce(c0, \'\')')} = '' AS blank,
        upper(${field('MEASURE')}) AS measure,
        regexp_full_match(${[field('MEASURE'), field('DATAFLOW'), field('STRUCTURE_ID'), ...dimensions.map(field)].join(' || ')}, ${PRINTABLE}) AS printable,
        ${field('REF_AREA')} AS area, ${field('FREQ')} AS freq, ${field('TIME_PERIOD')} AS period,
        ${field('OBS_VALUE')} AS value, nullif(${field('OBS_STATUS')}, '') AS flag,
        nullif(${trimmedFieldSql(labelIndex)}, '') AS area_name,
        coalesce(nullif(${field('DATAFLOW')}, ''), ${field('STRUCTURE_ID')}) AS flow, ${field('STRUCTURE_ID')} AS structure_id,
        CASE ${rules.join(' ')} END AS indicator
      FROM ${trimCheckedSql(source, fields)}
    ),
    flows AS (
      SELECT *, CASE WHEN upper(flow) = 'DATAFLOW' THEN structure_id ELSE flow END AS flow_id FROM raw
    )
    SELECT blank, NOT blank AND printable AND indicator IS NULL AS skip, NOT blank AND printable AND indicator IS NOT NULL AND ${SHARED_CHECKS} AS ok,
      indicator, upper(area) AS area, area_name, ${impliedFrequencySql('period')} AS freq, period,
      CASE WHEN value IN ('', '..', 'NaN') THEN NULL ELSE value END AS value, flag,
      CASE WHEN flow_id = '' THEN measure ELSE CASE
          WHEN regexp_matches(flow_id, '@[A-Za-z0-9_]') THEN regexp_extract(flow_id, '@([A-Za-z0-9_]+)', 1)
          WHEN regexp_matches(flow_id, ':[A-Za-z0-9_]') THEN regexp_extract(flow_id, ':([A-Za-z0-9_]+)', 1)
          ELSE flow_id END || ':' || measure END AS source_series
    FROM flows`;
}

const KEY = ['indicator', 'area', 'freq', 'period'] as const;

export interface StagedOecdFile {
  layout: OecdLayout;
  /**
   * Scratch table of the file's records: `blank`, `skip` (a row of another series), `ok` (an
   * observation kept) and STAGED_OECD_COLUMNS. The observations are its rows WHERE ok.
   */
  table: string;
  /** The table with each record's `line` and `row_index` first. */
  lined: string;
  observations: number;
  /** Rows of series that are not indicators of the domain. */
  skippedRows: number;
}

let fileCounter = 0;

/**
 * Reads one OECD file (either layout) into a scratch table of `db` (DuckDB's read_csv, checked in
 * SQL; the rows in other forms through the layout's JavaScript reader). Lines are 1-based, the header
 * is line 1. Any malformed row rejects the whole file with its line and column, the first in file
 * order; so does a key (indicator, area, frequency, period) given twice.
 */
export async function stageOecdFile(db: Database, path: string): Promise<StagedOecdFile> {
  const file = basename(path);
  const [head] = await readCsvHead(path, 1);
  if (!head) throw new MalformedSourceError(file, null, 'the file is empty (no header line)');
  const layout = layoutOf(head.record, file);
  const names = headerNames(head.record);
  const width = head.record.length;
  const reader = readerFor(layout, names);
  const { read, skippedInJavaScript } = await stageCsv(db, {
    file, path, table: `oecd_file_${++fileCounter}`,
    csv: { skipLines: head.line, fields: width, padShortRecords: true },
    query: (source) => (layout === 'oecd-legacy-csv' ? legacySql(source, names, width) : sdmxSql(source, names, width)),
    badRecord: (bad) => {
      const found = /Found: (\d+)/.exec(bad.message)?.[1];
      // The legacy export's trailing empty "Flag Codes" cell may be absent; more cells than the header is an error.
      return new MalformedSourceError(file, bad.line, bad.kind === 'TOO MANY COLUMNS' && found ? `${found} fields, the header has ${width}` : `not valid CSV: ${bad.message}`);
    },
    merge: { update: STAGED_OECD_COLUMNS, unread: 'NOT (blank OR skip OR ok)' },
    reader: (fields, line) => {
      const o = reader(fields.map((field) => field ?? ''), line);
      return o === 'skipped' ? SKIPPED : [o.indicator, o.area, o.areaName, o.freq, o.period, o.value, o.flag, o.sourceSeries];
    },
    uniqueKey: {
      columns: KEY.map((c) => [c, c] as const),
      problem: (repeated) => new MalformedSourceError(file, repeated.line, `duplicate observation ${KEY.map((c) => String(repeated.key[c])).join(' ')} (also on line ${repeated.firstLine})`),
    },
  });
  try {
    const [{ kept, skipped }] = await db.all(`SELECT count(*) FILTER (WHERE ok)::INTEGER AS kept, count(*) FILTER (WHERE skip)::INTEGER AS skipped FROM ${read.table}`);
    const skippedRows = Number(skipped) + skippedInJavaScript;
    if (Number(kept) === 0) {
      throw new MalformedSourceError(file, null, `the file holds no observation of the indicators read (${skippedRows} row(s) of other series)`);
    }
    return { layout, table: read.table, lined: read.lined, observations: Number(kept), skippedRows };
  } catch (error) {
    await read.drop();
    throw error;
  }
}

/** Reads one OECD file (see stageOecdFile) into observations, in file order. */
export async function parseOecdFile(path: string): Promise<OecdFile> {
  const db = await Database.open({ connections: 1 });
  try {
    const staged = await stageOecdFile(db, path);
    const rows = await db.all(`SELECT * FROM ${staged.lined} WHERE ok ORDER BY line`);
    const observations = rows.map((r): OecdObservation => ({
      indicator: r.indicator as CoopIndicator, area: String(r.area), areaName: r.area_name === null ? null : String(r.area_name),
      freq: r.freq as Frequency, period: String(r.period), value: r.value === null ? null : String(r.value),
      flag: r.flag === null ? null : String(r.flag), sourceSeries: String(r.source_series), sourceRow: Number(r.line),
    }));
    return { layout: staged.layout, observations, skippedRows: staged.skippedRows };
  } finally {
    await db.close();
  }
}
