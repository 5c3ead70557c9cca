// Sample data is never passed off as real over MCP: `npm run mcp` (a child process over stdio, driven
// by the SDK's own client) on the generated sample gives each answer `_meta.data_source` as the HTTP
// API's X-Data-Source header says it for the same request, and a text note that the figures are
// invented; an error carries no data origin (the API sends no header on it).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { projectRoot, scriptArgs } from '../helpers/cli.ts';
import type { TestApp } from '../helpers/app.ts';
import { startSampleApp } from '../http/sample-app.ts';

let app: TestApp & { dataDir: string };
let client: Client | undefined;
before(async () => {
  app = await startSampleApp('mcp-sample-label-');
});
after(async () => {
  await client?.close();
  await app?.close();
});

test('npm run mcp on the sample: every answer says sample in _meta and in its text', async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: scriptArgs('bin/mcp.ts'),
    cwd: projectRoot,
    env: { ...getDefaultEnvironment(), DATA_DIR: app.dataDir },
    stderr: 'pipe',
  });
  client = new Client({ name: 'sample-label-test', version: '1.0.0' });
  await client.connect(transport);

  const http = await app.request('/api/sebra/getTaxonomyForYear/2024');
  assert.equal(http.status, 200);
  assert.equal(http.headers.get('X-Data-Source'), 'sample');

  const result = await client.callTool({ name: 'getTaxonomyForYear', arguments: { year: 2024 } });
  assert.ok(!result.isError);
  assert.deepEqual(result._meta, { data_source: 'sample' });
  const texts = (result.content as Array<{ text: string }>).map((item) => item.text);
  assert.equal(texts[0], await http.text());
  assert.equal(texts.length, 2);
  assert.match(texts[1], /^Note: sample data: invented by the project's sample generator, not published figures \(data_source: sample\)\.$/);

  const error = await client.callTool({ name: 'getTaxonomyForYear', arguments: { year: 'abc' } });
  assert.equal(error.isError, true);
  assert.equal(error._meta, undefined);
  assert.equal((error.content as unknown[]).length, 1);
  await client.close();
  client = undefined;
});
