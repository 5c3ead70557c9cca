// Writes World Bank WDI files into the Parquet snapshot, all or nothing (ingest/commit.ts).
// - A file whose bytes were imported before is skipped: a re-run is a no-op.
// - The data files of one run (bulk CSV, JSON API pages) are grouped by indicator; an indicator in
//   the run REPLACES every observation that indicator had (a new vintage; a JSON extract limited to
//   some years therefore drops the other years). Other indicators are kept. An (indicator, country,
//   year) given twice in the run rejects it.
// - wdi_countries keeps every code seen (data or Metadata_Country); a Metadata_Country file sets
//   region and income group, and blank Region marks an aggregate (aggregate_basis 'metadata'); codes
//   never seen in such a file are flagged by the built-in WDI aggregate list (aggregate_basis 'builtin-list').
//   Names come from the latest data file, else the metadata's TableName.
// - A Metadata_Indicator file sets the source note and organisation (kept when the data is re-ingested).
import { mkdir, readdir, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Database } from '../../engine/database.ts';
import { loadParquetInto } from '../../engine/parquet.ts';
import {
  appendImportRecords, commitTables, importRecordsOf, IngestRejectedError, loadImportLedger, MalformedSourceError, parseNewFiles, type ImportRecord, type SnapshotWriteOptions } from '../commit.ts';
import { rejectRepeatedObservations } from '../errors.ts';
import { checkShrink } from '../shrink.ts';
import { insideFolder } from '../sourceFiles.ts';
import { WDI_AGGREGATE_CODES } from './aggregates.ts';
import { stageWdiFile, type WdiDataSummary, type WdiFileSummary, type WdiObservation } from './parse.ts';
import {
  CREATE_WDI_TABLES, WDI_COUNTRIES, WDI_COUNTRY_COLUMNS, WDI_INDICATOR_COLUMNS, WDI_INDICATORS, WDI_OBSERVATION_COLUMNS, WDI_OBSERVATIONS, WDI_ORDER,
} from './tables.ts';

export { IngestRejectedError, type ImportRecord };

export interface WorldBankIngestOptions extends SnapshotWriteOptions {
  /** A file or a folder (its .csv and .json files, not recursive). A batch replaces each indicator it holds. */
  path: string;
  log?: (line: string) => void;
}

export interface WorldBankIngestResult {
  imported: ImportRecord[];
  skipped: string[];
  /** Indicators whose observations were replaced. */
  indicators: string[];
}

const SOURCE_FILE = /\.(csv|json)$/i;

/** The .csv and .json files of a folder sorted by name, or the file itself. */
export async function worldBankSourceFiles(path: string): Promise<string[]> {
  if (!(await stat(path)).isDirectory()) return [path];
  return insideFolder(path, (await readdir(path)).filter((name) => SOURCE_FILE.test(name) && !name.startsWith('.')).sort());
}

function ledgerDataset(summary: WdiFileSummary): string {
  if (summary.kind === 'country-metadata') return 'worldbank/countries';
  if (summary.kind === 'indicator-metadata') return 'worldbank/indicator-metadata';
  const codes = [...summary.indicators.keys()];
  return codes.length === 1 ? `worldbank/${codes[0]}` : `worldbank/${codes.length} indicators`;
}

function defaultUrl(summary: WdiFileSummary): string | null {
  if (summary.kind !== 'data' || summary.indicators.size !== 1) return null;
  const code = [...summary.indicators.keys()][0]!;
  return summary.format === 'wdi-api-json'
    ? `https://api.worldbank.org/v2/country/all/indicator/${code}?format=json`
    : `https://api.worldbank.org/v2/en/indicator/${code}?downloadformat=csv`;
}

function rowCount(summary: WdiFileSummary): number {
  if (summary.kind === 'data') return summary.observationCount;
  return summary.kind === 'country-metadata' ? summary.countries.length : summary.indicators.length;
}

const CREATE_STAGE = [
  `CREATE TABLE stage_obs (indicator_code VARCHAR, country_code VARCHAR, year INTEGER, value VARCHAR, vintage VARCHAR,
     source_file VARCHAR, source_line INTEGER)`,
  `CREATE TABLE stage_countries (code VARCHAR, name VARCHAR, is_aggregate INTEGER, region VARCHAR, income_group VARCHAR, aggregate_basis VARCHAR)`,
];

const text = (v: unknown) => (v === null || v === undefined ? null : String(v));

/** Imports WDI files into the snapshot in options.dataDir; nothing is written when any file is malformed or none is new. */
export async function ingestWorldBankFiles(options: WorldBankIngestOptions): Promise<WorldBankIngestResult> {
  const files = await worldBankSourceFiles(options.path);
  await mkdir(options.dataDir, { recursive: true });
  // Ingest statements may run long on big files: no per-query timeout here.
  const db = await Database.open({ connections: 1, queryTimeoutMs: 24 * 3600_000 });
  try {
    for (const sql of [...CREATE_WDI_TABLES, ...CREATE_STAGE]) await db.run(sql);
    const ledger = await loadImportLedger(db, options.dataDir);
    const known = new Set(ledger.filter((r) => r.dataset.startsWith('worldbank/')).map((r) => r.fileHash));
    const { parsed, skipped } = await parseNewFiles<WdiFileSummary>(files, known, async (file) => {
      const name = basename(file);
      const stage = (batch: WdiObservation[]) =>
        db.appendRows('stage_obs', batch.map((o) => [o.indicator_code, o.country_code, o.year, String(o.value), o.vintage, name, o.line]));
      // A CSV is read by DuckDB: its observations go to stage_obs in SQL; a JSON page's through the appender.
      const staged = await stageWdiFile(db, file, stage);
      const summary = staged.summary;
      if (staged.observations !== null) {
        await db.run(`INSERT INTO stage_obs SELECT indicator_code, country_code, year, value, $vintage, $file, line FROM (${staged.observations})`, {
          vintage: summary.kind === 'data' ? summary.vintage : null, file: name,
        });
      }
      await staged.drop();
      options.log?.(`worldbank: ${name}: ${summary.kind === 'data' ? `${summary.format}, ${[...summary.indicators.keys()].join(', ')}, ${summary.observationCount} observation(s)` : `${summary.kind}, ${rowCount(summary)} row(s)`}`);
      return summary;
    });
    if (parsed.length === 0) return { imported: [], skipped, indicators: [] };
    rejectIncompletePages(parsed.map((p) => p.parsed));
    await rejectDuplicates(db);

    const imported = importRecordsOf(parsed, options, (s) => ({
      dataset: ledgerDataset(s), source: s.kind === 'data' ? s.format : `wdi-${s.kind}`, defaultUrl: defaultUrl(s), rowCount: rowCount(s),
    }));

    await loadParquetInto(db, WDI_OBSERVATIONS, options.dataDir, WDI_OBSERVATIONS, WDI_OBSERVATION_COLUMNS);
    await loadParquetInto(db, WDI_INDICATORS, options.dataDir, WDI_INDICATORS, WDI_INDICATOR_COLUMNS);
    await loadParquetInto(db, WDI_COUNTRIES, options.dataDir, WDI_COUNTRIES, WDI_COUNTRY_COLUMNS);

    const summaries = parsed.map((p) => p.parsed);
    const data = summaries.filter((s): s is WdiDataSummary => s.kind === 'data');
    const replaced = [...new Set(data.flatMap((s) => [...s.indicators.keys()]))].sort();
    await db.run(`CREATE TEMP TABLE replaced AS SELECT unnest(from_json($codes, '["VARCHAR"]')) AS code`, { codes: JSON.stringify(replaced) });
    // Per indicator: the observations held against the batch's; the first file carrying it has the counts.
    await checkShrink(db, {
      dataset: WDI_OBSERVATIONS,
      key: ['indicator_code'],
      covered: 'SELECT indicator_code, min(source_file) AS file FROM stage_obs GROUP BY indicator_code',
      held: `(SELECT indicator_code FROM ${WDI_OBSERVATIONS})`,
      replacement: '(SELECT indicator_code FROM stage_obs)',
    }, options.shrink ?? { allow: true }, imported);
    await db.run(`DELETE FROM ${WDI_OBSERVATIONS} WHERE indicator_code IN (SELECT code FROM replaced)`);
    await db.run(`INSERT INTO ${WDI_OBSERVATIONS} (${WDI_OBSERVATION_COLUMNS.join(', ')})
      SELECT indicator_code, country_code, year, CAST(value AS DOUBLE), CAST(vintage AS DATE) FROM stage_obs`);
    await mergeIndicators(db, summaries, data, replaced);
    await mergeCountries(db, summaries);
    await appendImportRecords(db, imported);
    await commitTables(db, options.dataDir, [
      { table: WDI_OBSERVATIONS, orderBy: WDI_ORDER[WDI_OBSERVATIONS] },
      { table: WDI_INDICATORS, orderBy: WDI_ORDER[WDI_INDICATORS] },
      { table: WDI_COUNTRIES, orderBy: WDI_ORDER[WDI_COUNTRIES] },
    ]);
    return { imported, skipped, indicators: replaced };
  } finally {
    await db.close();
  }
}

interface IndicatorRow {
  name: string;
  vintage: string | null;
  source_note: string | null;
  source_organization: string | null;
  format: string | null;
  source_files: string[];
}

/** Rewrites the indicator rows touched by the run; counts and year range come from wdi_observations. */
async function mergeIndicators(db: Database, summaries: WdiFileSummary[], data: WdiDataSummary[], replaced: string[]): Promise<void> {
  const rows = new Map<string, IndicatorRow>();
  for (const row of await db.all(`SELECT code, name, CAST(vintage AS VARCHAR) AS vintage, source_note, source_organization, format, source_files FROM ${WDI_INDICATORS}`)) {
    rows.set(String(row.code), {
      name: String(row.name), vintage: text(row.vintage), source_note: text(row.source_note), source_organization: text(row.source_organization),
      format: text(row.format), source_files: (row.source_files as string[] | null) ?? [],
    });
  }
  const touched = new Set<string>(replaced);
  for (const code of replaced) {
    const old = rows.get(code);
    const files = data.filter((s) => s.indicators.has(code));
    const vintages = files.map((s) => s.vintage).filter((v): v is string => v !== null).sort();
    rows.set(code, {
      name: files.at(-1)!.indicators.get(code)!, vintage: vintages.at(-1) ?? null,
      source_note: old?.source_note ?? null, source_organization: old?.source_organization ?? null,
      format: [...new Set(files.map((s) => s.format))].sort().join('+'), source_files: files.map((s) => s.file),
    });
  }
  for (const s of summaries) {
    if (s.kind !== 'indicator-metadata') continue;
    for (const m of s.indicators) {
      const old = rows.get(m.code);
      rows.set(m.code, {
        name: old?.name ?? m.name, vintage: old?.vintage ?? null, source_note: m.source_note, source_organization: m.source_organization,
        format: old?.format ?? null, source_files: old?.source_files ?? [],
      });
      touched.add(m.code);
    }
  }
  for (const code of touched) {
    const r = rows.get(code)!;
    await db.run(`DELETE FROM ${WDI_INDICATORS} WHERE code = $code`, { code });
    await db.run(
      `INSERT INTO ${WDI_INDICATORS} (${WDI_INDICATOR_COLUMNS.join(', ')})
       SELECT $code, $name, CAST($vintage AS DATE), $note, $org, $format, from_json($files, '["VARCHAR"]'), count(*), min(year), max(year)
         FROM ${WDI_OBSERVATIONS} WHERE indicator_code = $code`,
      { code, name: r.name, vintage: r.vintage, note: r.source_note, org: r.source_organization, format: r.format, files: JSON.stringify(r.source_files) },
    );
  }
}

interface CountryRow {
  name: string | null;
  region: string | null;
  income_group: string | null;
  basis: 'metadata' | 'builtin-list';
}

/** Rewrites wdi_countries: previous rows, then names from the run's data files, then its Metadata_Country files. */
async function mergeCountries(db: Database, summaries: WdiFileSummary[]): Promise<void> {
  const rows = new Map<string, CountryRow>();
  for (const row of await db.all(`SELECT code, name, region, income_group, aggregate_basis FROM ${WDI_COUNTRIES}`)) {
    rows.set(String(row.code), {
      name: text(row.name), region: text(row.region), income_group: text(row.income_group),
      basis: row.aggregate_basis === 'metadata' ? 'metadata' : 'builtin-list',
    });
  }
  for (const s of summaries) {
    if (s.kind !== 'data') continue;
    for (const [code, name] of s.countries) rows.set(code, { ...(rows.get(code) ?? { region: null, income_group: null, basis: 'builtin-list' }), name });
  }
  for (const s of summaries) {
    if (s.kind !== 'country-metadata') continue;
    for (const m of s.countries) {
      const old = rows.get(m.code);
      rows.set(m.code, { name: old?.name ?? m.name, region: m.region, income_group: m.income_group, basis: 'metadata' });
    }
  }
  await db.run(`DELETE FROM ${WDI_COUNTRIES}`);
  await db.appendRows(
    'stage_countries',
    [...rows].map(([code, r]) => [
      code, r.name ?? code, (r.basis === 'metadata' ? r.region === null : WDI_AGGREGATE_CODES.has(code)) ? 1 : 0, r.region, r.income_group, r.basis,
    ]),
  );
  await db.run(`INSERT INTO ${WDI_COUNTRIES} (${WDI_COUNTRY_COLUMNS.join(', ')})
    SELECT code, name, is_aggregate = 1, region, income_group, aggregate_basis FROM stage_countries`);
}

/**
 * A JSON answer of several pages must come whole in one run: its indicators' rows are replaced by
 * the run, so page 2 alone would drop the rows of page 1.
 */
function rejectIncompletePages(summaries: WdiFileSummary[]): void {
  const groups = new Map<string, WdiDataSummary[]>();
  for (const s of summaries) {
    if (s.kind !== 'data' || s.format !== 'wdi-api-json' || s.pages === null || s.pages <= 1) continue;
    const key = `${[...s.indicators.keys()].sort().join(';')} (${s.pages} pages)`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  const problems: MalformedSourceError[] = [];
  for (const [key, group] of groups) {
    const have = new Set(group.map((s) => s.page));
    const missing = Array.from({ length: group[0]!.pages! }, (_, i) => i + 1).filter((p) => !have.has(p));
    if (missing.length > 0) {
      problems.push(new MalformedSourceError(group[0]!.file, null, `${key}: page(s) ${missing.join(', ')} missing from this run; ingest every page of an answer together (a run replaces the indicator's rows)`));
    }
  }
  if (problems.length > 0) throw new IngestRejectedError(problems);
}

/** An (indicator, country, year) staged twice rejects the run, naming both places. */
async function rejectDuplicates(db: Database): Promise<void> {
  const rows = await db.all(
    `SELECT indicator_code, country_code, year, list(source_file ORDER BY source_file, source_line) AS files,
            list(source_line ORDER BY source_file, source_line) AS lines
       FROM stage_obs GROUP BY indicator_code, country_code, year HAVING count(*) > 1
      ORDER BY indicator_code, country_code, year LIMIT 20`,
  );
  rejectRepeatedObservations(rows.map((row) => ({ key: `${row.indicator_code} ${row.country_code} ${row.year}`, files: row.files as string[], lines: row.lines as number[] })));
}
