// Held per-database state (engine/perDatabase.ts): read once per database and shared; a failed read
// is retried; warmHeldState reads every holder ahead of the first request, failures left for later.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Database } from '../../engine/database.ts';
import { perDatabase, warmHeldState } from '../../engine/perDatabase.ts';

let db: Database;
let other: Database;
before(async () => {
  db = await Database.open({ connections: 1 });
  other = await Database.open({ connections: 1 });
});
after(async () => {
  await db.close();
  await other.close();
});

let answerReads = 0;
const answer = perDatabase(async (database) => {
  answerReads++;
  return Number((await database.all('SELECT 6 * 7 AS n'))[0].n);
});
let failures = 0;
let failing = true;
const flaky = perDatabase(async () => {
  if (failing) {
    failures++;
    throw new Error('no such table');
  }
  return 'read';
});

test('warmHeldState reads every holder once per database; a failed read is retried on demand', async () => {
  const warm = await warmHeldState(db);
  assert.ok(warm.holders >= 2, 'both holders of this file are listed');
  assert.equal(warm.failed, 1, 'the failing holder is counted, not thrown');
  assert.equal(answerReads, 1);
  assert.equal(failures, 1);

  // Held: the request path gets the warmed value without reading again.
  assert.equal(await answer(db), 42);
  assert.equal(answerReads, 1);
  // Another database has its own state.
  assert.equal(await answer(other), 42);
  assert.equal(answerReads, 2);

  // The failed holder reads again when asked, and holds what it then reads.
  failing = false;
  assert.equal(await flaky(db), 'read');
  assert.equal(await flaky(db), 'read');
  assert.equal(failures, 1);

  // A second warm reads nothing new for db.
  await warmHeldState(db);
  assert.equal(answerReads, 2);
});
