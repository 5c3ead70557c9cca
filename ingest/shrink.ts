// The shrink rule, shared by every source whose new file replaces what it covers (a day, a series, a
// period, a language set): before the commit, the rows held per key are compared with the rows of
// the replacement; a key that would lose rows is reported (rows before and after) and the ingest is
// refused unless --allow-shrink was given. The counts go into the import record either way.
import type { Database } from '../engine/database.ts';

export interface ShrunkKey {
  /** The key's values joined by ' / ' (for example '2024-03-15 / BGN'). */
  key: string;
  before: number;
  after: number;
}

export interface ShrinkCheck {
  /** The dataset (table) name, for messages. */
  dataset: string;
  /** SQL of the rows held now (a table name or a parenthesised SELECT). */
  held: string;
  /** SQL of the rows that replace them (same key columns). */
  replacement: string;
  /** Key expressions valid on both (column names usually). */
  key: readonly string[];
  allowShrink: boolean;
  log?: (line: string) => void;
}

/** A republished key would lose rows and --allow-shrink was not given: nothing was written. */
export class ShrinkRefusedError extends Error {
  constructor(readonly shrunk: ReadonlyArray<{ dataset: string } & ShrunkKey>) {
    super(
      `${shrunk.length} republished key(s) would lose rows, snapshot unchanged (rerun with --allow-shrink to accept):\n` +
        shrunk.map((s) => `  ${s.dataset} ${s.key}: ${s.before} row(s) held, ${s.after} in the new file(s)`).join('\n'),
    );
    this.name = 'ShrinkRefusedError';
  }
}

/**
 * The keys of `replacement` that hold fewer rows there than in `held` (keys only in `held` are not
 * replaced and keys only in `replacement` are new: neither shrinks). Throws ShrinkRefusedError when
 * some key shrinks and shrinking is not allowed; logs them when it is.
 */
export async function checkShrink(db: Database, check: ShrinkCheck): Promise<ShrunkKey[]> {
  const keys = check.key.map((expression, i) => `${expression} AS k${i}`).join(', ');
  const names = check.key.map((_, i) => `k${i}`);
  const label = names.map((k) => `coalesce(CAST(${k} AS VARCHAR), '(null)')`).join(`, ' / ', `);
  const rows = await db.all(
    `WITH held AS (SELECT ${keys}, count(*) AS n FROM ${check.held} GROUP BY ALL),
          replacement AS (SELECT ${keys}, count(*) AS n FROM ${check.replacement} GROUP BY ALL)
     SELECT concat(${label}) AS key, held.n AS before, replacement.n AS after
       FROM held JOIN replacement USING (${names.join(', ')})
      WHERE replacement.n < held.n
      ORDER BY ${names.join(', ')}`,
  );
  const shrunk = rows.map((row) => ({ key: String(row.key), before: Number(row.before), after: Number(row.after) }));
  if (shrunk.length > 0) {
    if (!check.allowShrink) throw new ShrinkRefusedError(shrunk.map((s) => ({ dataset: check.dataset, ...s })));
    for (const s of shrunk) check.log?.(`ingest: --allow-shrink: ${check.dataset} ${s.key} shrinks from ${s.before} to ${s.after} row(s)`);
  }
  return shrunk;
}
