// A scratch in-memory engine for a test: built by the given statements, closed after `use`, also when it throws.
import { Database } from '../../engine/database.ts';

export async function withScratchDatabase<T>(statements: readonly string[], use: (db: Database) => Promise<T>): Promise<T> {
  const db = await Database.open({ connections: 1 });
  try {
    for (const sql of statements) await db.run(sql);
    return await use(db);
  } finally {
    await db.close();
  }
}
