// `npm run mcp` as a child process over stdio, driven by the SDK's own stdio client: the command
// starts on a snapshot, lists the tools and answers a call; bad options are exit code 2.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { routes } from '../../domains/index.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { projectRoot, runCli, scriptArgs } from '../helpers/cli.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';

let dataDir: string;
let client: Client | undefined;
before(async () => {
  dataDir = await writeSebraSnapshot(fixturePayments, fixtureDays);
});
after(async () => {
  await client?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

test('npm run mcp serves the catalog over stdio from DATA_DIR', async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: scriptArgs('bin/mcp.ts'),
    cwd: projectRoot,
    env: { ...getDefaultEnvironment(), DATA_DIR: dataDir },
    stderr: 'pipe',
  });
  client = new Client({ name: 'stdio-test', version: '1.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  assert.equal(tools.length, routes.length);
  const result = await client.callTool({ name: 'getTaxonomyForYear', arguments: { year: 2024 } });
  assert.ok(!result.isError);
  const answer = JSON.parse((result.content as Array<{ text: string }>)[0].text);
  assert.ok(Array.isArray(answer.items) && answer.items.length > 0);
  const error = await client.callTool({ name: 'getTaxonomyForYear', arguments: { year: 'abc' } });
  assert.equal(error.isError, true);
  assert.equal(JSON.parse((error.content as Array<{ text: string }>)[0].text).error.param, 'year');
  await client.close();
  client = undefined;
});

test('usage errors are exit code 2 with a message', async () => {
  for (const [args, env, pattern] of [
    [['--remote', 'not a url'], {}, /--remote must be/],
    [['--remote', 'http://127.0.0.1:1', '--max-usd', 'lots'], { X402_PAYER_KEY: `0x${'1'.repeat(64)}` }, /--max-usd must be/],
    [['--remote', 'http://127.0.0.1:1'], { X402_PAYER_KEY: '' }, /X402_PAYER_KEY/],
    [['--nope'], {}, /Unknown option/],
    [[], { DATA_DIR: path.join(dataDir, 'missing') }, /no snapshot at/],
  ] as Array<[string[], NodeJS.ProcessEnv, RegExp]>) {
    const result = await runCli('bin/mcp.ts', args, env);
    assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, pattern);
    assert.equal(result.stdout, '');
  }
});
