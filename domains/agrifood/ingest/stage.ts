// Reads one agri-food export through DuckDB (ingest/duckdbJson.ts): one read_json statement takes the
// array's objects and converts, in SQL, every record whose values are in the forms the portal writes
// ("€524.00" or "€524,00", d/m/yyyy dates, week numbers, "2026/2027", text) into a table of the fact
// columns; a record with any other form goes to the JavaScript checks of parse.ts (recordOfElement),
// which accept it or name its problem. A file DuckDB's reader refuses is read by the streaming reader
// with the same checks. Either way the rows, the row count and the first problem (by row) are those
// of parseAgrifoodJson.
import { basename } from 'node:path';
import type { Database } from '../../../engine/database.ts';
import { columnNames, createTableSql, omitColumns, stagedSelectSql, stagingTableSql, type Dataset } from '../../../engine/dataset.ts';
import { sqlStringLiteral } from '../../../engine/parquet.ts';
import { MalformedSourceError } from '../../../ingest/errors.ts';
import {
  firstJsonArrayElement, jsonArrayElement, jsonArraySource, jsonKeyColumn, JsonSyntaxError, NOT_PLAINLY_TEXT, NOT_TIDY, objectOfJsonColumns, type JsonFileRead,
  pagesByOrdinal, runJsonRead, sqlFieldList, sqlJsTrimCollapse, streamJsonArray,
} from '../../../ingest/duckdbJson.ts';
import { findMemberState } from '../../../reference/countries.ts';
import { AGRIFOOD_PRICES } from '../datasets.ts';
import { chooseDataset, NO_PRODUCT_TYPE, NO_RECORDS, NOT_AN_ARRAY, recordOfElement, sectorField } from './parse.ts';
import type { AgrifoodDataset, AgriPriceRecord } from './types.ts';

/** Every key any sector's records carry (read as JSON columns). */
const KEYS = [
  'memberStateCode', 'memberStateName', 'beginDate', 'endDate', 'weekNumber', 'marketingYear', 'referencePeriod', 'unit', 'price',
  'productName', 'productCode', 'marketName', 'marketCode', 'stageName', 'stageCode',
  'product', 'productType', 'market', 'marketStage', 'pigClass',
] as const;
type Key = (typeof KEYS)[number];

/** The keys each sector reads (the others are ignored, as parse.ts ignores them). */
const SECTOR_KEYS: Record<AgrifoodDataset, readonly Key[]> = {
  cereals_prices: ['productName', 'productCode', 'marketName', 'marketCode', 'stageName', 'stageCode'],
  oilseeds_prices: ['product', 'productCode', 'productType', 'market', 'marketCode', 'marketStage'],
  pigmeat_prices: ['pigClass'],
};
/** Text values (optionalText) besides the sector's: its other keys are texts too. */
const COMMON_TEXTS: readonly Key[] = ['memberStateName', 'referencePeriod', 'unit'];

/** Per sector, the fact columns product_code .. stage_code from the converted texts (t_<key>). */
const SECTOR_COLUMNS: Record<AgrifoodDataset, Record<'product_code' | 'product_type' | 'pig_class' | 'market_name' | 'market_code' | 'stage_name' | 'stage_code', string>> = {
  cereals_prices: {
    product_code: 't_productCode', product_type: 'NULL', pig_class: 'NULL',
    market_name: 't_marketName', market_code: 't_marketCode', stage_name: 't_stageName', stage_code: 't_stageCode',
  },
  oilseeds_prices: {
    product_code: 't_productCode', product_type: `coalesce(t_productType, ${sqlStringLiteral(NO_PRODUCT_TYPE)})`, pig_class: 'NULL',
    market_name: 't_market', market_code: 't_marketCode', stage_name: 't_marketStage', stage_code: 'NULL',
  },
  pigmeat_prices: {
    product_code: 'NULL', product_type: 'NULL', pig_class: 't_pigClass',
    market_name: 'NULL', market_code: 'NULL', stage_name: 'NULL', stage_code: 'NULL',
  },
};

/** The fact columns an export's table holds: all but file_hash, which becomes known with the file's hash (setFileHash). */
function rowsDataset(dataset: AgrifoodDataset): Dataset {
  return omitColumns(AGRIFOOD_PRICES[dataset], ['file_hash']);
}

/** One export read into the scratch database. */
export interface StagedExport {
  dataset: AgrifoodDataset;
  detectedBy: 'option' | 'fields';
  rowCount: number;
  /** The table of its fact rows: the dataset's columns but file_hash (plus working columns). */
  table: string;
}

/**
 * Reads one export into `table` (and working tables `<table>_*`, dropped) as parseAgrifoodJson would
 * parse it, or throws its MalformedSourceError.
 */
export async function stageAgrifoodExport(
  db: Database,
  { file, table, dataset, check }: { file: string; table: string; dataset?: AgrifoodDataset; check: JsonFileRead },
): Promise<StagedExport> {
  const name = basename(file);
  // The sector is told by the first record as written (a key present with null counts), read from the file's first bytes.
  const first = await firstJsonArrayElement(file);
  let chosen: AgrifoodDataset;
  try {
    if (first === null) throw new MalformedSourceError(name, null, 'no first record in its first bytes');
    chosen = chooseDataset(first.value, name, dataset);
  } catch (error) {
    // The streamed reading names the problem, after any syntax error further on (which comes first).
    if (!(error instanceof MalformedSourceError)) throw error;
    return stageStreamed(db, { file, table, dataset });
  }
  const refused = await runJsonRead(db, `CREATE TABLE ${table} AS ${conversionSql(jsonArraySource(file, KEYS, 'VARCHAR'), chosen, name)}`);
  if (refused !== null) return stageStreamed(db, { file, table, dataset });
  if (!(await check.strict)) {
    // DuckDB read what JSON.parse refuses (a trailing comma, NaN, a cut file): JavaScript decides.
    await db.run(`DROP TABLE ${table}`);
    return stageStreamed(db, { file, table, dataset });
  }
  try {
    const [{ rows, left }] = await db.all(`SELECT count(*)::INTEGER AS rows, count(*) FILTER (WHERE NOT converted)::INTEGER AS left FROM ${table}`);
    if (Number(rows) === 0) throw new MalformedSourceError(name, null, NO_RECORDS);
    await resolveMemberStates(db, table);
    if (Number(left) > 0 && !(await convertLeftInJavaScript(db, { file, table, chosen }))) {
      // A value DuckDB reads and JSON.parse refuses (NaN, Infinity): the file is not JSON to JavaScript.
      await db.run(`DROP TABLE ${table}`);
      return stageStreamed(db, { file, table, dataset });
    }
    return { dataset: chosen, detectedBy: dataset ? 'option' : 'fields', rowCount: Number(rows), table };
  } catch (error) {
    await db.run(`DROP TABLE IF EXISTS ${table}`);
    throw error;
  }
}

/**
 * Makes an export's table the dataset's fact table: renamed `factsTable`, with file_hash (the file's
 * hash on every row) as its last column, every NOT NULL column checked.
 */
export async function makeFactTable(db: Database, staged: StagedExport, factsTable: string, hash: string): Promise<void> {
  const facts = AGRIFOOD_PRICES[staged.dataset];
  await db.run(`ALTER TABLE ${staged.table} RENAME TO ${factsTable}`);
  await db.run(`ALTER TABLE ${factsTable} ADD COLUMN file_hash VARCHAR DEFAULT ${sqlStringLiteral(hash)}`);
  const required = facts.columns.filter((column) => column.notNull).map((column) => `${column.name} IS NULL`).join(' OR ');
  const [{ n }] = await db.all(`SELECT count(*)::INTEGER AS n FROM ${factsTable} WHERE ${required}`);
  if (Number(n) > 0) throw new Error(`${factsTable}: ${n} row(s) miss a required value (an ingest bug)`);
}

// The forms SQL converts (anything else goes to JavaScript): d/m/yyyy; a week 1..53 (a JSON number or
// its text); "2026/2027" or "2026/27"; "€524.00" or "€524,00" (not "€1,234": a thousands separator).
const DATE = '\\d{1,2}/\\d{1,2}/\\d{4}';
const WEEK = '[1-9]|[1-4]\\d|5[0-3]|0[1-9]';
const MARKETING_YEAR = '[1-9]\\d{3}/\\d{2}(?:\\d{2})?';
const PRICE = '€\\d{1,14}(?:\\.\\d{1,4})?|€\\d{1,14},(?:\\d{1,2}|\\d{4})|€0\\d{0,13},\\d{3}|€\\d{4,14},\\d{3}';
/** Member state code, begin date, end date, week, marketing year, price: each in a form SQL converts or missing where allowed. */
const SHAPE = `[A-Za-z][A-Za-z0-9]{1,9}\\x{01}${DATE}\\x{01}(?:${DATE})?\\x{01}(?:${WEEK})?\\x{01}(?:${MARKETING_YEAR})?\\x{01}(?:${PRICE})?`;

/**
 * The SELECT, over jsonArraySource (VARCHAR), of every record: the fact columns but file_hash, in the
 * declared order and types (member_state_code holding the upper-cased code as written, resolved
 * afterwards; member_state_name the record's own), then `converted` (false: a value is in a form left
 * to JavaScript, or the record is refused) and `ordinal`. One regular expression per row checks the
 * forms, one that every text is a string's, one whether any needs trimming.
 */
function conversionSql(source: string, dataset: AgrifoodDataset, name: string): string {
  const column = (key: Key) => jsonKeyColumn(key);
  const sector = sectorField(dataset) as Key;
  const texts = [...COMMON_TEXTS, ...SECTOR_KEYS[dataset]];
  const textList = sqlFieldList([column('memberStateCode'), ...texts.map(column)]);
  const shapeList = `concat_ws(chr(1), ${['memberStateCode', 'beginDate', 'endDate', 'weekNumber', 'marketingYear', 'price'].map((key) => `coalesce(${column(key as Key)}, '')`).join(', ')})`;
  const sectorColumns = SECTOR_COLUMNS[dataset];
  const date = (key: Key) => `CAST(try_strptime(nullif(${column(key)}, ''), '%d/%m/%Y') AS DATE)`;
  const year = column('marketingYear');
  const values: Record<string, string> = {
    dataset: sqlStringLiteral(dataset),
    commodity_id: dataset === 'oilseeds_prices'
      ? `${sqlStringLiteral(`${dataset}:`)} || t_${sector} || '|' || ${sectorColumns.product_type}`
      : `${sqlStringLiteral(`${dataset}:`)} || t_${sector}`,
    product_name: `t_${sector}`,
    ...sectorColumns,
    member_state_code: `upper(${column('memberStateCode')})`,
    member_state_name: 't_memberStateName',
    begin_date: 'begin_date',
    end_date: 'end_date',
    week_number: `nullif(${column('weekNumber')}, '')`,
    marketing_year: `CASE WHEN strlen(${year}) = 9 THEN ${year} WHEN ${year} <> '' THEN ${year}[1:4] || '/' || (CAST(${year}[1:4] AS INTEGER) + 1) END`,
    reference_period: 't_referencePeriod',
    unit: 't_unit',
    price: `replace(nullif(${column('price')}, '')[2:], ',', '.')`,
    source_file: sqlStringLiteral(name),
    source_row: 'ordinal',
  };
  const select = rowsDataset(dataset).columns.map((c) => {
    if (values[c.name] === undefined) throw new Error(`agrifood conversion: no value for ${c.name}`);
    return `CAST(${values[c.name]} AS ${c.type}) AS ${c.name}`;
  }).join(',\n      ');
  return `
    WITH flagged AS (
      SELECT *, regexp_full_match(${shapeList}, '${SHAPE}') AS shaped, regexp_matches(${textList}, '${NOT_PLAINLY_TEXT}') AS not_text,
        regexp_matches(${textList}, '${NOT_TIDY}') AS untidy
      FROM ${source}
    ),
    valued AS (
      SELECT *, ${texts.map((key) => `CASE WHEN untidy THEN ${sqlJsTrimCollapse(column(key))} ELSE nullif(${column(key)}, '') END AS t_${key}`).join(', ')},
        ${date('beginDate')} AS begin_date, ${date('endDate')} AS end_date
      FROM flagged
    ),
    checked AS (
      SELECT *, coalesce(shaped AND NOT not_text AND t_${sector} IS NOT NULL
        AND begin_date >= DATE '1900-01-01' AND (${column('endDate')} IS NULL OR ${column('endDate')} = '' OR end_date >= begin_date)
        AND (${year} IS NULL OR ${year} = ''
          OR CAST(CASE WHEN strlen(${year}) = 9 THEN ${year}[6:9] ELSE ${year}[1:2] || ${year}[6:7] END AS INTEGER) = CAST(${year}[1:4] AS INTEGER) + 1), false) AS converted
      FROM valued
    )
    SELECT ${select},
      converted, ordinal
    FROM checked`;
}

/**
 * The converted rows' member states, as parse.ts resolves them: each distinct upper-cased code through
 * findMemberState (Greece's GR folded to EL; the known name when a record gives none). Only the rows
 * that change are updated.
 */
async function resolveMemberStates(db: Database, table: string): Promise<void> {
  const raws = await db.all(`SELECT DISTINCT member_state_code FROM ${table} WHERE converted ORDER BY 1`);
  await db.run(`CREATE TEMP TABLE ${table}_states (raw VARCHAR, code VARCHAR, name VARCHAR)`);
  try {
    await db.appendRows(`${table}_states`, raws.map((row) => {
      const raw = String(row.member_state_code);
      const known = findMemberState(raw);
      const code = known && raw === 'GR' ? known.code : raw;
      return [raw, code, known?.name ?? code];
    }));
    await db.run(`UPDATE ${table} t SET member_state_code = s.code, member_state_name = coalesce(t.member_state_name, s.name)
      FROM ${table}_states s WHERE t.converted AND t.member_state_code = s.raw AND (s.code <> s.raw OR t.member_state_name IS NULL)`);
  } finally {
    await db.run(`DROP TABLE ${table}_states`);
  }
}

/**
 * The rows SQL did not convert, each through recordOfElement in file order (the first problem is the
 * file's), replacing them in the table. Their values are read again from the file as JSON text (only
 * those rows are kept). False when a value DuckDB read is one JSON.parse refuses.
 */
async function convertLeftInJavaScript(db: Database, { file, table, chosen }: { file: string; table: string; chosen: AgrifoodDataset }): Promise<boolean> {
  const name = basename(file);
  const raw = `${table}_raw`;
  const left = `${table}_left`;
  const rows = rowsDataset(chosen);
  try {
    await db.run(`CREATE TEMP TABLE ${raw} AS SELECT * FROM ${jsonArraySource(file, KEYS, 'JSON')} WHERE ordinal IN (SELECT ordinal FROM ${table} WHERE NOT converted)`);
    await db.run(stagingTableSql(rows, left));
    const sector = sectorField(chosen);
    const columns = KEYS.map((key) => `CAST(${jsonKeyColumn(key)} AS VARCHAR) AS ${jsonKeyColumn(key)}`).join(', ');
    let records: AgriPriceRecord[] = [];
    for await (const row of pagesByOrdinal(db, `SELECT ordinal, ${columns} FROM ${raw} WHERE ordinal > $after ORDER BY ordinal LIMIT $limit`)) {
      const ordinal = Number(row.ordinal);
      let object: unknown;
      try {
        // Without its sector field (absent or null: the columns cannot tell) a record is refused either
        // way, with a message that depends on which: it is read as written.
        object = row[sector] === null ? await jsonArrayElement(db, file, ordinal) : objectOfJsonColumns(row, KEYS);
      } catch (error) {
        if (error instanceof SyntaxError) return false;
        throw error;
      }
      records.push(recordOfElement(object, ordinal, chosen, name));
      if (records.length >= 10_000) records = await appendRecords(db, left, records, { chosen, name });
    }
    await appendRecords(db, left, records, { chosen, name });
    await db.run(`DELETE FROM ${table} WHERE NOT converted`);
    await db.run(`INSERT INTO ${table} (${columnNames(rows).join(', ')}) SELECT ${stagedSelectSql(rows)} FROM ${left}`);
    return true;
  } finally {
    await db.run(`DROP TABLE IF EXISTS ${raw}`);
    await db.run(`DROP TABLE IF EXISTS ${left}`);
  }
}

/** The staged row of a record, in the staging table's column order (rowsDataset: no file_hash). */
function stageRow(dataset: AgrifoodDataset, name: string, r: AgriPriceRecord): Array<string | number | null> {
  return [
    dataset, r.commodityId, r.productName, r.productCode, r.productType, r.pigClass, r.memberStateCode, r.memberStateName,
    r.marketName, r.marketCode, r.stageName, r.stageCode, r.beginDate, r.endDate, r.weekNumber, r.marketingYear,
    r.referencePeriod, r.unit, r.price, name, r.sourceRow,
  ];
}

/** Appends records to a staging table; returns a fresh batch. */
async function appendRecords(db: Database, table: string, records: readonly AgriPriceRecord[], { chosen, name }: { chosen: AgrifoodDataset; name: string }): Promise<AgriPriceRecord[]> {
  if (records.length > 0) await db.appendRows(table, records.map((r) => stageRow(chosen, name, r)));
  return [];
}

/**
 * A file DuckDB's reader refuses (or whose first record cannot be read from its first bytes), read
 * element by element in JavaScript with parseAgrifoodJson's checks and messages. A syntax error
 * anywhere comes before any record's problem: JSON.parse of the whole text would have failed first.
 */
async function stageStreamed(db: Database, { file, table, dataset }: { file: string; table: string; dataset?: AgrifoodDataset }): Promise<StagedExport> {
  const name = basename(file);
  const left = `${table}_left`;
  let chosen: AgrifoodDataset | null = null;
  // The first record's problem; reading goes on, for a syntax error further on comes first.
  const found: { problem: MalformedSourceError | null } = { problem: null };
  let records: AgriPriceRecord[] = [];
  let result;
  try {
    try {
      result = await streamJsonArray(file, async (item, ordinal) => {
        if (found.problem) return;
        try {
          if (ordinal === 1) {
            chosen = chooseDataset(item, name, dataset);
            await db.run(stagingTableSql(rowsDataset(chosen), left));
          }
          records.push(recordOfElement(item, ordinal, chosen!, name));
        } catch (error) {
          if (!(error instanceof MalformedSourceError)) throw error;
          found.problem = error;
        }
        if (records.length >= 10_000) records = await appendRecords(db, left, records, { chosen: chosen!, name });
      });
    } catch (error) {
      if (error instanceof JsonSyntaxError) throw new MalformedSourceError(name, null, `not valid JSON (${error.message})`);
      throw error;
    }
    if (result.kind !== 'array') throw new MalformedSourceError(name, null, NOT_AN_ARRAY);
    if (result.elements === 0) throw new MalformedSourceError(name, null, NO_RECORDS);
    if (found.problem) throw found.problem;
    await appendRecords(db, left, records, { chosen: chosen!, name });
    const rows = rowsDataset(chosen!);
    await db.run(createTableSql(rows, table));
    await db.run(`INSERT INTO ${table} SELECT ${stagedSelectSql(rows)} FROM ${left}`);
    return { dataset: chosen!, detectedBy: dataset ? 'option' : 'fields', rowCount: result.elements, table };
  } finally {
    await db.run(`DROP TABLE IF EXISTS ${left}`);
  }
}
