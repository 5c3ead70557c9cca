// A handler that fails unexpectedly answers a 500 JSON without internals, and the error is logged.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { Database } from '../../engine/database.ts';
import { createApp } from '../../http/app.ts';
import { defineRoute } from '../../queries/catalog.ts';
import { loadImports } from '../../queries/imports.ts';

test('an unexpected error is a 500 JSON that reveals nothing', async () => {
  const db = await Database.open({ connections: 1 });
  await loadImports(db, '/nonexistent');
  const failing = defineRoute<Record<string, never>>({
    id: 'failing', method: 'GET', tag: 'test', paths: ['/api/test/failing'], summary: 's', description: 'd', paid: false,
    params: {}, response: {}, examples: ['/api/test/failing'],
    async handle() {
      await db.all('SELECT * FROM no_such_table_secret_name');
      return {};
    },
  });
  const logged: unknown[] = [];
  const app = await createApp({ db, routes: [failing], logError: (error) => logged.push(error) });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/test/failing`);
    assert.equal(response.status, 500);
    const text = await response.text();
    const requestId = response.headers.get('x-request-id');
    assert.match(requestId ?? '', /^[0-9a-f-]{36}$/);
    assert.deepEqual(JSON.parse(text), { error: { status: 500, code: 'internal_error', message: 'internal error', param: null, request_id: requestId } });
    assert.ok(!text.includes('no_such_table_secret_name'));
    assert.equal(logged.length, 1);
  } finally {
    server.close();
    await db.close();
  }
});
