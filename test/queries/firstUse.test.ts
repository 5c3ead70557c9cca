// loadOnFirstUse (queries/shared/firstUse.ts): a module declared for first use loads once, when first
// asked for, again after a failure; loadDeclaredModules loads every declared one and leaves a failure
// to the caller that needs the module.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadDeclaredModules, loadOnFirstUse } from '../../queries/shared/firstUse.ts';

test('loads once on first use, again after a failure; the server\'s loadDeclaredModules loads the declared ones', async () => {
  let loads = 0;
  const module = loadOnFirstUse(async () => ({ n: ++loads }));
  assert.equal(loads, 0, 'not loaded when declared');
  const [first, second] = await Promise.all([module(), module()]);
  assert.equal(loads, 1);
  assert.equal(first, second);

  let failures = 1;
  const flaky = loadOnFirstUse(async () => {
    if (failures-- > 0) throw new Error('not now');
    return 'loaded';
  });
  await assert.rejects(flaky(), /not now/);
  assert.equal(await flaky(), 'loaded', 'a failed load is tried again');

  let declaredLoads = 0;
  const declared = loadOnFirstUse(async () => ++declaredLoads);
  const failing = loadOnFirstUse(() => Promise.reject(new Error('broken')));
  await loadDeclaredModules();
  assert.equal(declaredLoads, 1, 'loaded in the background');
  assert.equal(await declared(), 1, 'and not again');
  await assert.rejects(failing(), /broken/, 'a failure is reported to the caller');
});
