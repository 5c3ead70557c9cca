// A snapshot table, declared once: its name (the file is `<name>.parquet`), its typed columns and the
// order its file is written in. The ingest writer creates its scratch table and writes the file from
// the descriptor; the loader creates the in-memory table and reads the file from the same descriptor,
// so the two cannot drift apart.
import { existsSync } from 'node:fs';
import type { Database } from './database.ts';
import { insertParquetColumns, snapshotFile, sqlStringLiteral } from './parquet.ts';

export interface DatasetColumn {
  name: string;
  /** A DuckDB SQL type: 'DATE', 'DECIMAL(18,2)', 'VARCHAR', 'VARCHAR[]', ... */
  type: string;
  notNull?: boolean;
  /**
   * Added after files were written without it: a file lacking the column loads it as NULL (so it
   * must be nullable). Other columns must be in the file.
   */
  optional?: boolean;
}

export interface Dataset {
  /** Snapshot file `<name>.parquet`, and the table's name unless told otherwise. */
  name: string;
  /** In file order: the Parquet file's columns are these, in this order. */
  columns: readonly DatasetColumn[];
  /**
   * The order the file is written in: column names, each optionally followed by ASC/DESC and
   * NULLS FIRST/LAST. It must be total, so the same data always gives the same file.
   */
  orderBy: readonly string[];
  /** Declared on the table wherever it is created (not stored in the Parquet file). */
  primaryKey?: readonly string[];
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const ORDER_TERM = /^([a-z_][a-z0-9_]*)(?: (?:ASC|DESC))?(?: NULLS (?:FIRST|LAST))?$/;

/**
 * Declares a dataset, checking it at module load: identifiers only, no repeated column, and
 * every orderBy / primaryKey entry names one of the columns. A mistake here is a programming error.
 */
export function defineDataset<const D extends Dataset>(dataset: D): D {
  const problem = (text: string) => new Error(`dataset ${dataset.name}: ${text}`);
  if (!IDENTIFIER.test(dataset.name)) throw problem('the name must be a lower-case SQL identifier');
  if (dataset.columns.length === 0) throw problem('no columns');
  const names = new Set<string>();
  for (const column of dataset.columns) {
    if (!IDENTIFIER.test(column.name)) throw problem(`column "${column.name}" is not a lower-case SQL identifier`);
    if (names.has(column.name)) throw problem(`column ${column.name} is declared twice`);
    if (column.type.trim() === '' || /[;'"]/.test(column.type)) throw problem(`column ${column.name} has no usable type`);
    names.add(column.name);
  }
  if (dataset.orderBy.length === 0) throw problem('orderBy is empty (the file order must be total)');
  for (const term of dataset.orderBy) {
    const column = ORDER_TERM.exec(term)?.[1];
    if (column === undefined || !names.has(column)) throw problem(`orderBy "${term}" is not "<column> [ASC|DESC] [NULLS FIRST|LAST]"`);
  }
  for (const column of dataset.primaryKey ?? []) {
    if (!names.has(column)) throw problem(`primary key column ${column} is not a column`);
  }
  return dataset;
}

export function columnNames(dataset: Dataset): string[] {
  return dataset.columns.map((column) => column.name);
}

/** The dataset without some of its columns (same file): for a loader that does not keep them. */
export function omitColumns(dataset: Dataset, omit: readonly string[]): Dataset {
  const known = new Set(columnNames(dataset));
  for (const name of omit) if (!known.has(name)) throw new Error(`dataset ${dataset.name}: cannot omit ${name}, not a column`);
  for (const name of dataset.primaryKey ?? []) {
    if (omit.includes(name)) throw new Error(`dataset ${dataset.name}: cannot omit ${name}, part of the primary key`);
  }
  const columns = dataset.columns.filter((column) => !omit.includes(column.name));
  const orderBy = dataset.orderBy.filter((term) => !omit.includes(ORDER_TERM.exec(term)![1]!));
  return { ...dataset, columns, orderBy };
}

/** `CREATE TABLE <tableName> (...)` with the declared types, NOT NULLs and primary key. */
export function createTableSql(dataset: Dataset, tableName: string = dataset.name): string {
  const parts = dataset.columns.map((c) => `${c.name} ${c.type}${c.notNull ? ' NOT NULL' : ''}`);
  if (dataset.primaryKey && dataset.primaryKey.length > 0) parts.push(`PRIMARY KEY (${dataset.primaryKey.join(', ')})`);
  return `CREATE TABLE ${tableName} (${parts.join(', ')})`;
}

/** The ORDER BY list the file is written in. */
export function orderBySql(dataset: Dataset): string {
  return dataset.orderBy.join(', ');
}

/** `COPY` of the table's declared columns, in the declared order, to a Parquet file. */
export function copyToParquetSql(dataset: Dataset, file: string, tableName: string = dataset.name): string {
  return `COPY (SELECT ${columnNames(dataset).join(', ')} FROM ${tableName} ORDER BY ${orderBySql(dataset)}) ` +
    `TO ${sqlStringLiteral(file)} (FORMAT PARQUET)`;
}

export interface StagingOptions {
  /** Declared columns the staged rows do not carry (set later, for example). */
  omit?: readonly string[];
  /** Working columns of the staging table only (a file's position in the batch, for example). */
  extra?: readonly DatasetColumn[];
}

/**
 * A staging table for Database.appendRows, which writes VARCHAR and INTEGER only: INTEGER columns
 * stay INTEGER, every other column is staged as text (a list as its JSON text), then turned into
 * the declared type by stagedSelectSql on insert.
 */
export function stagingTableSql(dataset: Dataset, tableName: string, options: StagingOptions = {}): string {
  const staged = dataset.columns
    .filter((c) => !options.omit?.includes(c.name))
    .map((c) => ({ name: c.name, type: c.type === 'INTEGER' ? 'INTEGER' : 'VARCHAR' }));
  return createTableSql({ name: tableName, columns: [...staged, ...(options.extra ?? [])], orderBy: [] });
}

/**
 * The SELECT list that turns a staging table's columns into the declared types, in the declared
 * order: the column as is for VARCHAR and INTEGER, `from_json(<column>, '["<element type>"]')` for a
 * list (`<type>[]`, staged as JSON.stringify text), `CAST(<column> AS <type>)` for the rest, NULL for
 * the omitted ones. For `INSERT INTO <dataset> SELECT <this> FROM <staging>`.
 */
export function stagedSelectSql(dataset: Dataset, options: Pick<StagingOptions, 'omit'> = {}): string {
  return dataset.columns
    .map((c) => {
      if (options.omit?.includes(c.name)) return 'NULL';
      if (c.type === 'VARCHAR' || c.type === 'INTEGER') return c.name;
      if (c.type.endsWith('[]')) return `from_json(${c.name}, '["${c.type.slice(0, -2)}"]')`;
      return `CAST(${c.name} AS ${c.type})`;
    })
    .join(', ');
}

/** The dataset's file in a snapshot folder. */
export function datasetFile(dataDir: string, dataset: Dataset): string {
  return snapshotFile(dataDir, dataset.name);
}

/**
 * Fills an existing table from `<dataDir>/<name>.parquet` when that file exists, columns by name,
 * so the table's declared types win. Returns whether a file was read.
 */
export async function insertDataset(db: Database, dataset: Dataset, dataDir: string, tableName: string = dataset.name): Promise<boolean> {
  const file = datasetFile(dataDir, dataset);
  let columns = columnNames(dataset);
  const optional = new Set(dataset.columns.filter((c) => c.optional).map((c) => c.name));
  if (optional.size > 0 && existsSync(file)) {
    const present = new Set((await db.all(`DESCRIBE SELECT * FROM read_parquet(${sqlStringLiteral(file)})`)).map((row) => String(row.column_name)));
    columns = columns.filter((name) => present.has(name) || !optional.has(name));
  }
  return insertParquetColumns(db, tableName, file, columns);
}

export interface LoadDatasetOptions {
  /** Table to create (default: the dataset's name). */
  table?: string;
  /** Columns of the file the table does not keep (ingest provenance, for example). */
  omit?: readonly string[];
}

/**
 * Creates the dataset's table with the declared types and fills it from the snapshot in dataDir
 * (an empty table when the file is absent). Returns whether a file was read.
 */
export async function loadDataset(db: Database, dataset: Dataset, dataDir: string, options: LoadDatasetOptions = {}): Promise<boolean> {
  const kept = options.omit && options.omit.length > 0 ? omitColumns(dataset, options.omit) : dataset;
  const table = options.table ?? dataset.name;
  await db.run(createTableSql(kept, table));
  return insertDataset(db, kept, dataDir, table);
}
