// The shrink rule, shared by every source whose new file replaces what it covers (a day, a series, a
// dataset, a language set): before the commit, the rows held per key are compared with the rows that
// replace them; a key that would lose rows is reported (rows before and after) and the ingest is
// refused unless shrinking is allowed (the CLI's --allow-shrink). The counts go into each file's
// import record either way (replaced_rows, shrunk_keys).
import type { Database, SqlParams } from '../engine/database.ts';
import type { ImportRecord } from './commit.ts';

export interface ShrunkKey {
  /** The key's values joined by ' / ' (for example '2024-03-15'). */
  key: string;
  before: number;
  after: number;
}

export interface KeyComparison extends ShrunkKey {
  /** Base name of the file that republishes the key. */
  file: string;
}

export interface ShrinkCheck {
  /** The dataset (table) name, for messages. */
  dataset: string;
  /** Key column names, present in the three queries below. */
  key: readonly string[];
  /** A SELECT of the keys the batch republishes and the file republishing each: the key columns and `file`. */
  covered: string;
  /** A FROM-able query (a table, or a parenthesised SELECT) of the rows held now, with the key columns. */
  held: string;
  /** A FROM-able query of the rows replacing them, with the key columns. */
  replacement: string;
  params?: SqlParams;
}

/** A republished key would lose rows and shrinking was not allowed: nothing was written. */
export class ShrinkRefusedError extends Error {
  constructor(readonly shrunk: ReadonlyArray<{ dataset: string } & KeyComparison>) {
    super(
      `${shrunk.length} republished key(s) would lose rows, snapshot unchanged (rerun with --allow-shrink to accept):\n` +
        shrunk.map((s) => `  ${s.dataset} ${s.key} (${s.file}): ${s.before} row(s) held, ${s.after} in the new file`).join('\n'),
    );
    this.name = 'ShrinkRefusedError';
  }
}

/** Rows before and after of every republished key (a key the new file leaves empty counts 0 after), in key order. */
export async function compareKeyCounts(db: Database, check: ShrinkCheck): Promise<KeyComparison[]> {
  const keys = check.key.join(', ');
  const label = check.key.map((k) => `coalesce(CAST(${k} AS VARCHAR), '(none)')`).join(`, ' / ', `);
  const rows = await db.all(
    `WITH covered AS (SELECT DISTINCT ${keys}, file FROM (${check.covered})),
          held AS (SELECT ${keys}, count(*) AS n FROM ${check.held} GROUP BY ALL),
          replacement AS (SELECT ${keys}, count(*) AS n FROM ${check.replacement} GROUP BY ALL)
     SELECT covered.file, concat(${label}) AS key, coalesce(held.n, 0)::BIGINT AS before, coalesce(replacement.n, 0)::BIGINT AS after
       FROM covered LEFT JOIN held USING (${keys}) LEFT JOIN replacement USING (${keys})
      ORDER BY ${keys}, covered.file`,
    check.params ?? {},
  );
  return rows.map((row) => ({ file: String(row.file), key: String(row.key), before: Number(row.before), after: Number(row.after) }));
}

export interface ShrinkRule {
  /** Accept shrinking keys (logged); otherwise they refuse the ingest. */
  allow: boolean;
  log?: (line: string) => void;
}

/**
 * Applies the rule to the comparisons of one dataset: throws ShrinkRefusedError listing every key
 * that loses rows unless allowed (then each is logged). Returns the shrunk ones.
 */
export function enforceShrinkRule(dataset: string, comparisons: readonly KeyComparison[], rule: ShrinkRule): KeyComparison[] {
  const shrunk = comparisons.filter((c) => c.after < c.before);
  if (shrunk.length === 0) return shrunk;
  if (!rule.allow) throw new ShrinkRefusedError(shrunk.map((s) => ({ dataset, ...s })));
  for (const s of shrunk) rule.log?.(`ingest: --allow-shrink: ${dataset} ${s.key} (${s.file}) shrinks from ${s.before} to ${s.after} row(s)`);
  return shrunk;
}

/** compareKeyCounts then enforceShrinkRule, and the counts written into each file's import record. */
export async function checkShrink(db: Database, check: ShrinkCheck, rule: ShrinkRule, records: ImportRecord[]): Promise<KeyComparison[]> {
  const comparisons = await compareKeyCounts(db, check);
  const shrunk = enforceShrinkRule(check.dataset, comparisons, rule);
  recordCounts(records, comparisons);
  return shrunk;
}

/**
 * Sets replacedRows (rows held before for the keys a file republished; left absent when it replaced
 * nothing, as for a first import) and shrunkKeys on each record of a file compared.
 */
export function recordCounts(records: ImportRecord[], comparisons: readonly KeyComparison[]): void {
  for (const record of records) {
    const mine = comparisons.filter((c) => c.file === record.sourceFile);
    const replaced = mine.reduce((sum, c) => sum + c.before, 0);
    if (replaced > 0) record.replacedRows = (record.replacedRows ?? 0) + replaced;
    const shrunk = mine.filter((c) => c.after < c.before).map(({ key, before, after }) => ({ key, before, after }));
    if (shrunk.length > 0) record.shrunkKeys = [...(record.shrunkKeys ?? []), ...shrunk];
  }
}
