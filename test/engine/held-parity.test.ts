// Generated parity: every held view declared in the registry (engine/held.ts), over the full generated
// sample, answers each of its probes as its own keyed SQL statement does, row for row and value for
// value. A new view is checked here without a test of its own; a view that cannot be checked this way
// says why (parity.exempt) and is listed. Every checkable view must be held on the sample and answer
// at least one probe in JavaScript (and one with rows), so a check cannot pass by skipping everything.
// SAMPLE_SNAPSHOT_DIR=<folder> keeps the built sample between runs.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SqlParams } from '../../engine/database.ts';
import { heldStateStats, heldViews, type HeldParity } from '../../engine/held.ts';
import type { TestApp } from '../helpers/app.ts';
import { startSampleApp } from '../http/sample-app.ts';

let app: TestApp;
before(async () => {
  app = await startSampleApp('held-parity-');
}, { timeout: 600_000 });
after(() => app?.close());

const views = [...heldViews().values()].filter((view) => !view.spec.name.startsWith('test.'));

test('the registry lists the views of every loaded domain', () => {
  assert.ok(views.length > 0);
});

for (const view of views) {
  const { spec } = view;
  if ('exempt' in spec.parity) {
    const { exempt } = spec.parity;
    test(`${spec.name}: exempt from generated parity (${exempt})`, () => {
      assert.ok(exempt.length > 10, 'an exemption says why');
    });
    continue;
  }
  const checks = (Array.isArray(spec.parity) ? spec.parity : [spec.parity]) as readonly HeldParity<unknown>[];
  for (const parity of checks) {
    test(`${spec.name}${parity.part ? ` (${parity.part})` : ''}: the held answer is its keyed statement's for every probe`, async () => {
      const value = await view(app.db);
      const stats = heldStateStats(app.db).views.find((entry) => entry.name === spec.name)!;
      assert.notEqual(value, null, `${spec.name} is held on the sample (state ${stats.state})`);
      const probes = await app.db.all(parity.probes);
      assert.ok(probes.length > 0, 'the probes SQL finds keys');
      let answered = 0;
      let nonEmpty = 0;
      for (const probe of probes) {
        const held = await parity.answer(value, probe);
        if (held === null) continue;
        answered++;
        // The statement is given the probe's columns it names (DuckDB refuses unused parameters).
        const params = Object.fromEntries(Object.entries(probe).filter(([name]) => new RegExp(`\\$${name}\\b`).test(parity.keyed)));
        const expected = await app.db.all(parity.keyed, params as SqlParams);
        assert.deepEqual(held, expected, `${spec.name} at ${JSON.stringify(probe)}`);
        if (expected.length > 0) nonEmpty++;
      }
      assert.ok(answered > 0, 'at least one probe is answered in JavaScript');
      assert.ok(nonEmpty > 0, 'at least one probe has rows (empty answers alone prove little)');
    });
  }
}
