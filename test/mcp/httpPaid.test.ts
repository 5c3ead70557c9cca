// x402 over MCP on the Streamable HTTP endpoint, with payments configured on the in-process chain
// through the local facilitator (loopback not exempt): the official SDK client calls the tools, and
// the payment is made as the x402 MCP transport (transports-v2 mcp.md) says, by hand: the
// PaymentRequired of the unpaid call's structuredContent is signed with the official x402 client
// (ExactEvmScheme) and sent in `_meta["x402/payment"]`. Charges are read from the token contract and
// settlements counted at the facilitator.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { PaymentPayload, PaymentRequired, SettleResponse } from '@x402/core/types';
import { privateKeyToAccount } from 'viem/accounts';
import { DEV_KEYS, DEV_NETWORK } from '../../devchain/chain.ts';
import { routes } from '../../domains/index.ts';
import { createMcpServer, localCaller } from '../../bin/mcpServer.ts';
import { FIXED_NOW, withoutRequestId } from '../helpers/app.ts';
import { devPaymentEnv, officialClient, startPaidApp, startPaymentRig, type PaidApp, type PaymentRig } from '../helpers/payments.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { eventually } from '../helpers/eventually.ts';
import { createLogger } from '../../http/log.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';

const PRICE = 10_000n;

/** The request log's JSON lines, as the logger writes them. */
const log = {
  lines: [] as Array<Record<string, unknown>>,
  write(text: string) {
    for (const line of text.split('\n')) if (line.trim()) this.lines.push(JSON.parse(line) as Record<string, unknown>);
  },
};

let rig: PaymentRig;
let app: PaidApp;
let exemptApp: PaidApp;
let dataDir: string;
const clients: Client[] = [];

before(async () => {
  dataDir = await writeSebraSnapshot(fixturePayments, fixtureDays);
  rig = await startPaymentRig(dataDir);
  app = await startPaidApp({ db: rig.db, routes, env: devPaymentEnv(rig.chain, rig.facilitator.url), observe: { logger: createLogger({ level: 'info', destination: log }) } });
  exemptApp = await startPaidApp({ db: rig.db, routes, env: devPaymentEnv(rig.chain, rig.facilitator.url, { X402_EXEMPT_LOOPBACK: 'true' }) });
});
after(async () => {
  for (const client of clients) await client.close();
  await app?.close();
  await exemptApp?.close();
  await rig?.facilitator.stop();
  await rig?.db.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function connect(paidApp: PaidApp): Promise<Client> {
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${paidApp.base}/mcp`)));
  clients.push(client);
  return client;
}

/** The same call answered from the snapshot by the stdio server's local mode (no HTTP, no payment). */
async function localAnswer(name: string, args: Record<string, unknown>) {
  const server = createMcpServer({ routes, call: localCaller({ db: rig.db, routes, now: () => FIXED_NOW }), remote: false });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'local', version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return client.callTool({ name, arguments: args });
}

type Result = Awaited<ReturnType<Client['callTool']>>;
const texts = (result: Result) => (result.content as Array<{ text: string }>).map((item) => item.text);
const payerBalance = () => rig.chain.balanceOf(rig.chain.addresses.payer);
const facilitatorCalls = (path: string) => rig.facilitator.requests.filter((request) => request.path === path).length;
const YEAR = { year: 2024 };

/** The client side of the transport: the challenge of an unpaid call, signed by the official x402 client. */
async function paymentFor(client: Client, name: string, args: Record<string, unknown>): Promise<{ challenge: PaymentRequired; payload: PaymentPayload }> {
  const unpaid = await client.callTool({ name, arguments: args });
  assert.equal(unpaid.isError, true);
  const challenge = unpaid.structuredContent as unknown as PaymentRequired;
  return { challenge, payload: await officialClient(DEV_KEYS.payer).createPaymentPayload(challenge) };
}

describe('x402 over MCP', () => {
  test('an unpaid call of a paid tool is a tool error carrying the x402 PaymentRequired, as structured content and as text', async () => {
    const client = await connect(app);
    const before = await payerBalance();
    const result = await client.callTool({ name: 'getTaxonomyForYear', arguments: YEAR });
    assert.equal(result.isError, true);
    const challenge = result.structuredContent as unknown as PaymentRequired;
    assert.equal(challenge.x402Version, 2);
    assert.equal(challenge.accepts.length, 1);
    const [offer] = challenge.accepts;
    assert.deepEqual(
      [offer!.scheme, offer!.network, offer!.amount, offer!.asset.toLowerCase(), offer!.payTo.toLowerCase()],
      ['exact', DEV_NETWORK, String(PRICE), rig.chain.token.toLowerCase(), rig.chain.addresses.payTo.toLowerCase()],
    );
    assert.match(challenge.resource.url, new RegExp(`^${app.base}/api/sebra/getTaxonomyForYear`));
    assert.equal(typeof challenge.error, 'string');
    assert.deepEqual(JSON.parse(texts(result)[0]!), challenge);
    // The Bazaar extension describes the MCP tool.
    const info = (challenge.extensions!.bazaar as { info: { input: Record<string, unknown> } }).info.input;
    assert.deepEqual([info.type, info.toolName, info.transport], ['mcp', 'getTaxonomyForYear', 'streamable-http']);
    assert.equal(await payerBalance(), before);
  });

  test('a paid call answers, settles once and returns the settlement; the same payment again is answered from the kept answer', async () => {
    const client = await connect(app);
    const { payload } = await paymentFor(client, 'getTaxonomyForYear', YEAR);
    const before = await payerBalance();
    const settled = facilitatorCalls('/settle');
    const paid = await client.callTool({ name: 'getTaxonomyForYear', arguments: YEAR, _meta: { 'x402/payment': payload } });
    assert.equal(paid.isError, undefined, texts(paid).join('\n'));
    const expected = await localAnswer('getTaxonomyForYear', YEAR);
    assert.deepEqual(paid.structuredContent, expected.structuredContent);
    assert.equal(texts(paid)[0], texts(expected)[0]);
    const receipt = (paid._meta as Record<string, unknown>)['x402/payment-response'] as SettleResponse;
    assert.equal(receipt.success, true);
    assert.match(receipt.transaction, /^0x[0-9a-f]{64}$/);
    assert.equal(receipt.network, DEV_NETWORK);
    assert.equal(receipt.payer?.toLowerCase(), privateKeyToAccount(DEV_KEYS.payer).address.toLowerCase());
    assert.equal((paid._meta as Record<string, unknown>).data_source, (expected._meta as Record<string, unknown>).data_source);
    assert.equal(await payerBalance(), before - PRICE);
    assert.equal(facilitatorCalls('/settle'), settled + 1);
    // Logged twice: the POST /mcp (route label mcp) and the tool call's own request, with its payment.
    await eventually(() => {
      const paidLine = log.lines.find((line) => line.transaction === receipt.transaction);
      assert.ok(paidLine, 'the tool call\'s request line');
      assert.deepEqual([paidLine.route, paidLine.payment, paidLine.status], ['getTaxonomyForYear', 'settled', 200]);
      assert.equal(paidLine.aborted, undefined, 'the in-process answer was written whole, not aborted');
      // (The SDK's client also tries GET /mcp for a stream: 405, route label mcp too.)
      const outer = log.lines.filter((line) => line.route === 'mcp');
      assert.ok(outer.some((line) => line.path === '/mcp' && line.method === 'POST' && line.status === 200));
      assert.ok(outer.every((line) => line.path === '/mcp' && line.request_id !== paidLine.request_id));
    });

    // One payment, one answer: the retry is the kept answer, with the same settlement, charged nothing more.
    const again = await client.callTool({ name: 'getTaxonomyForYear', arguments: YEAR, _meta: { 'x402/payment': payload } });
    assert.equal(again.isError, undefined, texts(again).join('\n'));
    assert.deepEqual(again.structuredContent, paid.structuredContent);
    assert.equal(((again._meta as Record<string, unknown>)['x402/payment-response'] as SettleResponse).transaction, receipt.transaction);
    assert.equal(await payerBalance(), before - PRICE);
    assert.equal(facilitatorCalls('/settle'), settled + 1);
  });

  test('an invalid argument is refused before any payment: the API\'s 400, nothing verified or charged', async () => {
    const client = await connect(app);
    const { payload } = await paymentFor(client, 'getTaxonomyForYear', YEAR);
    const before = await payerBalance();
    const verified = facilitatorCalls('/verify');
    const result = await client.callTool({ name: 'getTaxonomyForYear', arguments: { year: 1800 }, _meta: { 'x402/payment': payload } });
    assert.equal(result.isError, true);
    const http = await (await app.request('/api/sebra/getTaxonomyForYear?year=1800')).json();
    assert.deepEqual(withoutRequestId(result.structuredContent), withoutRequestId(http));
    assert.equal((http as { error: { code: string } }).error.code, 'invalid_parameter');
    assert.equal(facilitatorCalls('/verify'), verified);
    assert.equal(await payerBalance(), before);
  });

  test('a payment that is not an object is refused without reaching the payment check', async () => {
    const client = await connect(app);
    const result = await client.callTool({ name: 'getTaxonomyForYear', arguments: YEAR, _meta: { 'x402/payment': 'not a payload' } });
    assert.equal(result.isError, true);
    assert.equal((result.structuredContent as { error: { code: string } }).error.code, 'invalid_payment');
  });

  test('tools/list and the resources are free', async () => {
    const client = await connect(app);
    const verified = facilitatorCalls('/verify');
    const { tools } = await client.listTools();
    assert.equal(tools.length, routes.length);
    const { resources } = await client.listResources();
    assert.ok(resources.length > 2);
    await client.readResource({ uri: 'docs://catalog.json' });
    assert.equal(facilitatorCalls('/verify'), verified);
  });

  test('the exemption decides as for the request to /mcp: a loopback client of an exempting server is served without payment', async () => {
    const client = await connect(exemptApp);
    const before = await payerBalance();
    const result = await client.callTool({ name: 'getTaxonomyForYear', arguments: YEAR });
    assert.equal(result.isError, undefined, texts(result).join('\n'));
    assert.deepEqual(result.structuredContent, (await localAnswer('getTaxonomyForYear', YEAR)).structuredContent);
    assert.equal((result._meta as Record<string, unknown>)['x402/payment-response'], undefined);
    assert.equal(await payerBalance(), before);
  });

  test('/.well-known/x402 lists each paid tool as an MCP item, described as its MCP challenge describes it', async () => {
    const discovery = await (await app.request('/.well-known/x402')).json() as { resources: string[]; items: Array<Record<string, any>> };
    const tools = discovery.items.filter((item) => item.type === 'mcp');
    assert.deepEqual(tools.map((item) => item.toolName), routes.filter((route) => route.paid).map((route) => route.id));
    // The documents' base address (BASE_URL, not this test server's port), the one the HTTP items name.
    const documentsBase = new URL(discovery.resources[0]!).origin;
    assert.ok(!discovery.resources.includes(`${documentsBase}/mcp`));
    for (const item of tools) {
      assert.equal(item.resource, `${documentsBase}/mcp`);
      const input = item.extensions.bazaar.info.input;
      assert.deepEqual([input.type, input.toolName, input.transport], ['mcp', item.toolName, 'streamable-http']);
    }
    const client = await connect(app);
    const unpaid = await client.callTool({ name: 'getTaxonomyForYear', arguments: YEAR });
    const challenge = unpaid.structuredContent as unknown as PaymentRequired;
    const item = tools.find((candidate) => candidate.toolName === 'getTaxonomyForYear')!;
    assert.deepEqual(item.extensions.bazaar, challenge.extensions!.bazaar);
    // The terms are the HTTP items' (this rig's documents state the environment's payment facts, not the rig's).
    const http = discovery.items.find((candidate) => candidate.type === 'http' && String(candidate.resource).includes('/getTaxonomyForYear'))!;
    assert.deepEqual(item.accepts, http.accepts);
  });
});
