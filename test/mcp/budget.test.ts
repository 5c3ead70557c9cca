// `npm run mcp -- --remote ... --budget-usd 0.02` against a hostile deployment (test/helpers/
// hostileServer.ts): it asks 0.01 test USDC per call and, paid, answers 200 without a receipt, with a
// fake receipt claiming 0 units, or 500. Whatever it answers, every authorization it received can be
// settled until it expires, so the session must never sign more than the budget: 2 authorizations
// over 5 calls, counted as the PAYMENT-SIGNATURE headers the deployment receives.
// The first deployment is served by the command as the child process npm starts (the flags read from
// its command line); the others by the same server and caller (bin/mcpServer.ts) in this process.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { Hex } from 'viem';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer, remoteCaller } from '../../bin/mcpServer.ts';
import { routes } from '../../domains/index.ts';
import { atomicOf } from '../../http/payments/assets.ts';
import { projectRoot, scriptArgs } from '../helpers/cli.ts';
import { BASE_SEPOLIA_USDC, startHostileServer, type HostileAnswer, type HostileServer } from '../helpers/hostileServer.ts';

// Any key: nothing is ever settled (the hostile deployment only collects signatures).
const PAYER_KEY = `0x${'1'.repeat(64)}`;

const servers: HostileServer[] = [];
const clients: Client[] = [];
after(async () => {
  for (const client of clients) await client.close();
  for (const server of servers) await server.close();
});

/** `npm run mcp -- --remote <base> ...` as a child process over stdio, with the SDK's client. */
async function mcp(base: string, args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...scriptArgs('bin/mcp.ts'), '--remote', base, ...args],
    cwd: projectRoot,
    env: { ...getDefaultEnvironment(), X402_PAYER_KEY: PAYER_KEY },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'budget-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** What `npm run mcp -- --remote <base> --max-usd 0.01 --budget-usd 0.02` runs, in this process. */
async function mcpInProcess(base: string): Promise<Client> {
  const call = remoteCaller({ baseUrl: base, payerKey: PAYER_KEY as Hex, maxAtomic: atomicOf('0.01')!, budgetAtomic: atomicOf('0.02')! });
  const server = createMcpServer({ routes, call, remote: true, baseUrl: base });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'budget-test', version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

type Result = Awaited<ReturnType<Client['callTool']>>;
const texts = (result: Result) => (result.content as Array<{ text: string }>).map((item) => item.text);

describe('--budget-usd counts what was signed, not what the deployment reports', () => {
  for (const answer of ['no-receipt', 'zero-receipt', 'error'] as HostileAnswer[]) {
    test(`a deployment that answers a paid call with ${answer}: 2 authorizations over 5 calls under --budget-usd 0.02`, async () => {
      const hostile = await startHostileServer({ answer });
      servers.push(hostile);
      const client = answer === 'no-receipt' ? await mcp(hostile.base, ['--max-usd', '0.01', '--budget-usd', '0.02']) : await mcpInProcess(hostile.base);
      const results: Result[] = [];
      for (let call = 0; call < 5; call++) results.push(await client.callTool({ name: 'getTaxonomyForYear', arguments: { year: 2024 } }));

      assert.equal(hostile.payments.length, 2, 'exactly floor(0.02 / 0.01) authorizations signed');
      for (const payment of hostile.payments) {
        assert.equal(payment.accepted.asset, BASE_SEPOLIA_USDC);
        assert.equal((payment.payload as { authorization: { value: string } }).authorization.value, '10000');
      }
      // The two signed calls say what was signed and that it counts, whatever the receipt claimed.
      for (const [index, result] of results.slice(0, 2).entries()) {
        const meta = (result._meta as { payment: { usd: string; atomic: string; settled: boolean; session_usd: string } }).payment;
        assert.deepEqual([meta.usd, meta.atomic, meta.session_usd], ['0.01', '10000', index === 0 ? '0.01' : '0.02']);
        if (answer === 'no-receipt' || answer === 'error') {
          assert.equal(meta.settled, false);
          assert.match(texts(result)[1]!, /^signed: 0\.01 USD \(10000 atomic units of 0x[0-9a-fA-F]{40}\) on eip155:84532, without a receipt of settlement from the deployment; counted as spent/);
        }
        assert.equal(result.isError === true, answer === 'error');
      }
      // The other three are refused before signing: a tool error naming the budget and what was signed.
      for (const result of results.slice(2)) {
        assert.equal(result.isError, true);
        const error = JSON.parse(texts(result)[0]!).error;
        assert.equal(error.code, 'payment_refused');
        assert.match(error.message, /^the session budget is exhausted: 0\.02 of --budget-usd 0\.02 spent, this call costs 0\.01 USD; nothing was paid \(spent is every authorization signed in this session/);
        assert.equal(texts(result)[1], 'paid: nothing');
      }
      assert.equal(hostile.requests, 5 + 2, 'five challenges and two paid retries');
    });
  }
});
