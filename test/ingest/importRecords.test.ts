// The import ledger's records go into the scratch `imports` table several to a statement
// (appendImportRecords): every record, across the statement boundary, must read back exactly as it
// was given, with the optional fields absent or present as given, and in the ledger's order.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Database } from '../../engine/database.ts';
import { appendImportRecords, commitTables, loadImportLedger, readImportRecords, type ImportRecord } from '../../ingest/commit.ts';

/** Records with every combination of the optional fields, in the ledger's order (one date and dataset, files ascending). */
function records(count: number): ImportRecord[] {
  return Array.from({ length: count }, (_, i): ImportRecord => ({
    dataset: 'd', source: i % 2 === 0 ? 'csv' : 'json', sourceFile: `file-${String(i).padStart(4, '0')}.csv`,
    sourceUrl: i % 3 === 0 ? null : `https://example.org/${i}`, fileHash: `h${String(i).padStart(4, '0')}`,
    importDate: '2026-11-28T08:00:00.125Z', rowCount: i * 7,
    ...(i % 4 === 0 ? {} : { replacedRows: i }),
    ...(i % 5 === 0 ? { shrunkKeys: [{ key: `2024-01-${String((i % 28) + 1).padStart(2, '0')}`, before: 3, after: 1 }] } : {}),
  }));
}

for (const count of [0, 1, 100, 101, 250]) {
  test(`${count} import record(s) appended read back as given (through the ledger and its Parquet file)`, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'import-records-'));
    const db = await Database.open({ connections: 1 });
    try {
      assert.deepEqual(await loadImportLedger(db, dir), []);
      const given = records(count);
      await appendImportRecords(db, given);
      const [{ n }] = await db.all('SELECT count(*)::INTEGER AS n FROM imports');
      assert.equal(n, count);
      await commitTables(db, dir, []);
      assert.deepEqual(await readImportRecords(dir), given);
    } finally {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
}
