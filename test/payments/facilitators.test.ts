// The facilitators a seller uses (http/payments/facilitatorClient.ts): a list of them, where /supported
// and /verify move on from one that fails and rest it for a while, /settle is never sent twice, and
// the hosted Coinbase facilitator gets a freshly signed token on every request. Local facilitators on
// loopback over the in-process chain; nothing leaves the machine.
import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync, verify as verifySignature, type KeyObject } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { inspect } from 'node:util';
import { FacilitatorTimeoutError } from '@x402/core/server';
import { VerifyError, type PaymentPayload, type PaymentRequirements } from '@x402/core/types';
import { DEV_KEYS, DEV_NETWORK, startDevChain, type DevChain } from '../../devchain/chain.ts';
import { startLocalFacilitator, type LocalFacilitator } from '../../devchain/facilitator.ts';
import { PaymentConfigError, readPaymentSettings, type FacilitatorSettings } from '../../http/payments/config.ts';
import {
  createFacilitatorClient, FacilitatorUnavailableError, facilitatorFailureStatus, settleWasNotSent,
} from '../../http/payments/facilitatorClient.ts';
import { createPayments } from '../../http/payments/index.ts';
import { devPaymentEnv, officialClient } from '../helpers/payments.ts';

const PAY_TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

let chain: DevChain;
let first: LocalFacilitator;
let second: LocalFacilitator;
const servers: Server[] = [];
const facilitators: LocalFacilitator[] = [];

before(async () => {
  chain = await startDevChain();
  first = await startLocalFacilitator({ chain });
  second = await startLocalFacilitator({ chain });
  facilitators.push(first, second);
});
after(async () => {
  for (const facilitator of facilitators) await facilitator.stop();
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

function facilitatorSettings(urls: string[], env: NodeJS.ProcessEnv = {}): FacilitatorSettings {
  return readPaymentSettings({ X402_PAY_TO: PAY_TO, X402_FACILITATOR_URL: urls.join(','), ...env }).facilitator!;
}

/** A payment of the payer on the local chain, signed with the official client. */
async function signedPayment(): Promise<{ payload: PaymentPayload; requirements: PaymentRequirements }> {
  const requirements: PaymentRequirements = {
    scheme: 'exact', network: DEV_NETWORK, amount: '10000', asset: chain.token, payTo: chain.addresses.payTo,
    maxTimeoutSeconds: 300, extra: { name: 'USD Coin', version: '2' },
  };
  const payload = await officialClient(DEV_KEYS.payer).createPaymentPayload({
    x402Version: 2, resource: { url: 'http://127.0.0.1/api/test' }, accepts: [requirements],
  });
  return { payload, requirements };
}

const count = (facilitator: LocalFacilitator, path: string) => facilitator.requests.filter((r) => r.path === path).length;

/** A loopback server answering every request with `answer` (or never, when it is null). */
async function fakeFacilitator(answer: { status: number; type: string; body: string } | null): Promise<{ url: string; paths: string[] }> {
  const paths: string[] = [];
  const server = createServer((request, response) => {
    paths.push(new URL(request.url ?? '/', 'http://localhost').pathname);
    request.resume();
    if (!answer) return; // holds the request open: only the client's timeout ends it
    response.writeHead(answer.status, { 'Content-Type': answer.type });
    response.end(answer.body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths };
}

/** An address nothing listens on: a connection to it is refused. */
async function refusingUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}`;
}

describe('a list of facilitators', () => {
  test('the first stopped: /supported and /verify go to the second; the first rests 30 s, then is asked again', async () => {
    let clock = 1_000_000;
    const client = createFacilitatorClient(facilitatorSettings([first.url, second.url]), { now: () => clock });
    const { payload, requirements } = await signedPayment();
    await first.stop();
    try {
      assert.ok((await client.getSupported()).kinds.some((kind) => kind.network === DEV_NETWORK));
      assert.equal(count(second, '/supported'), 1);
    } finally {
      await first.start();
    }
    // Back again, but resting: the next calls skip it.
    assert.equal((await client.verify(payload, requirements)).isValid, true);
    clock += 29_999;
    await client.getSupported();
    assert.deepEqual([count(first, '/supported'), count(first, '/verify')], [0, 0]);
    assert.deepEqual([count(second, '/supported'), count(second, '/verify')], [2, 1]);
    // The back-off over, it is the first choice again.
    clock += 1;
    await client.getSupported();
    assert.equal((await client.verify(payload, requirements)).isValid, true);
    assert.deepEqual([count(first, '/supported'), count(first, '/verify')], [1, 1]);
    assert.deepEqual([count(second, '/supported'), count(second, '/verify')], [2, 1]);
  });

  test('a facilitator answering nonsense or timing out on /verify is passed over too; a protocol answer is not', async () => {
    const { payload, requirements } = await signedPayment();
    const broken = await fakeFacilitator({ status: 502, type: 'text/html', body: '<html>bad gateway</html>' });
    const silent = await fakeFacilitator(null);
    const verifiesBefore = count(second, '/verify');
    const client = createFacilitatorClient({ ...facilitatorSettings([broken.url, silent.url, second.url]), timeoutMs: 2_000 });
    assert.equal((await client.verify(payload, requirements)).isValid, true);
    assert.deepEqual([broken.paths, silent.paths], [['/verify'], ['/verify']]);
    assert.equal(count(second, '/verify'), verifiesBefore + 1);

    // An invalid payment is an answer: the next facilitator is not asked.
    const refusing = await fakeFacilitator({ status: 400, type: 'application/json', body: '{"isValid":false,"invalidReason":"invalid_exact_evm_signature"}' });
    const strict = createFacilitatorClient(facilitatorSettings([refusing.url, second.url]));
    await assert.rejects(strict.verify(payload, requirements), (error: unknown) => error instanceof VerifyError && error.invalidReason === 'invalid_exact_evm_signature');
    await assert.rejects(strict.verify(payload, requirements), VerifyError); // and it does not rest
    assert.deepEqual(refusing.paths, ['/verify', '/verify']);
    assert.equal(count(second, '/verify'), verifiesBefore + 1);
  });

  test('every facilitator failing: the last failure, typed as before (503 unreachable, 502 nonsense)', async () => {
    const { payload, requirements } = await signedPayment();
    const broken = await fakeFacilitator({ status: 500, type: 'text/html', body: '<html>oops</html>' });
    const unreachable = createFacilitatorClient(facilitatorSettings([broken.url, await refusingUrl()]));
    await assert.rejects(unreachable.verify(payload, requirements), (error: unknown) =>
      error instanceof FacilitatorUnavailableError && facilitatorFailureStatus(error) === 503 && /^facilitator verify at http:\/\/127\.0\.0\.1:\d+ failed: fetch failed$/.test(error.message));
    const nonsense = createFacilitatorClient(facilitatorSettings([await refusingUrl(), broken.url]));
    await assert.rejects(nonsense.getSupported(), (error: unknown) => error instanceof FacilitatorUnavailableError && facilitatorFailureStatus(error) === 502);
  });

  test('/settle goes to the facilitator in use and is never retried on another', async () => {
    let clock = 0;
    const settlesBefore = [count(first, '/settle'), count(second, '/settle')];
    // The first unreachable: verify moves on to the second, and the settle follows it there.
    const dead = await refusingUrl();
    const failingOver = createFacilitatorClient(facilitatorSettings([dead, second.url]), { now: () => clock });
    const paid = await signedPayment();
    assert.equal((await failingOver.verify(paid.payload, paid.requirements)).isValid, true);
    assert.equal((await failingOver.settle(paid.payload, paid.requirements)).success, true);
    assert.deepEqual([count(first, '/settle'), count(second, '/settle')], [settlesBefore[0], settlesBefore[1]! + 1]);

    // A settle that fails on the first facilitator stays failed: the second receives no /settle.
    const cases: Array<[string, { status: number; type: string; body: string } | null, (error: unknown) => boolean]> = [
      ['a 500', { status: 500, type: 'text/html', body: '<html>oops</html>' }, (e) => e instanceof FacilitatorUnavailableError && facilitatorFailureStatus(e) === 502],
      ['nonsense', { status: 200, type: 'application/json', body: '{"ok":true}' }, (e) => e instanceof Error && /settle returned invalid data/.test(e.message)],
      ['a timeout', null, (e) => e instanceof FacilitatorTimeoutError],
    ];
    for (const [label, answer, expected] of cases) {
      const fake = await fakeFacilitator(answer);
      const client = createFacilitatorClient({ ...facilitatorSettings([fake.url, second.url]), timeoutMs: 2_000 });
      const payment = await signedPayment();
      const error = await client.settle(payment.payload, payment.requirements).then(() => null, (e: unknown) => e);
      assert.ok(expected(error), `${label}: ${inspect(error)}`);
      assert.equal(settleWasNotSent(error), false, label);
      assert.deepEqual(fake.paths, ['/settle'], label);
      assert.equal(count(second, '/settle'), settlesBefore[1]! + 1, label);
    }
    const refused = createFacilitatorClient(facilitatorSettings([await refusingUrl(), second.url]), { now: () => clock });
    const payment = await signedPayment();
    const error = await refused.settle(payment.payload, payment.requirements).then(() => null, (e: unknown) => e);
    assert.ok(error instanceof FacilitatorUnavailableError && facilitatorFailureStatus(error) === 503, inspect(error));
    assert.equal(settleWasNotSent(error), true);
    assert.equal(count(second, '/settle'), settlesBefore[1]! + 1);
    // The refused one rests: the next payment is verified and settled by the second.
    assert.equal((await refused.verify(payment.payload, payment.requirements)).isValid, true);
    assert.equal((await refused.settle(payment.payload, payment.requirements)).success, true);
    assert.equal(count(second, '/settle'), settlesBefore[1]! + 2);
  });
});

describe('settleWasNotSent', () => {
  const coded = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:9`), { code });
  const fetchFailed = (cause: unknown) => new TypeError('fetch failed', { cause });

  test('true only when the connection was never made (refused, name not found)', () => {
    assert.equal(settleWasNotSent(fetchFailed(coded('ECONNREFUSED'))), true);
    assert.equal(settleWasNotSent(fetchFailed(coded('ENOTFOUND'))), true);
    assert.equal(settleWasNotSent(new FacilitatorUnavailableError('settle', fetchFailed(coded('ECONNREFUSED')))), true);
    assert.equal(settleWasNotSent(fetchFailed(new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')]))), true);
    // One address reached, or the connection lost after it was made: the facilitator may have it.
    assert.equal(settleWasNotSent(fetchFailed(new AggregateError([coded('ECONNREFUSED'), coded('ETIMEDOUT')]))), false);
    assert.equal(settleWasNotSent(fetchFailed(coded('ECONNRESET'))), false);
    assert.equal(settleWasNotSent(fetchFailed(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET', cause: coded('ECONNREFUSED') }))), false);
    assert.equal(settleWasNotSent(new FacilitatorTimeoutError('settle', 300)), false);
    assert.equal(settleWasNotSent(new FacilitatorUnavailableError('settle', new Error('Facilitator settle failed (500): oops'))), false);
    assert.equal(settleWasNotSent(coded('ECONNREFUSED')), false); // not a fetch failure
    assert.equal(settleWasNotSent(undefined), false);
  });
});

/** The claims of an ES256 JWT signed by `key`, or null when its signature does not hold. */
function verifiedClaims(token: string, key: KeyObject): { header: Record<string, unknown>; claims: Record<string, unknown> } | null {
  const [header, claims, signature] = token.split('.');
  if (!header || !claims || !signature) return null;
  const holds = verifySignature('sha256', Buffer.from(`${header}.${claims}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!holds) return null;
  return { header: JSON.parse(Buffer.from(header, 'base64url').toString()), claims: JSON.parse(Buffer.from(claims, 'base64url').toString()) };
}

describe('the Coinbase (CDP) facilitator', () => {
  const KEY_ID = 'organizations/loopback/apiKeys/test';
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const secret = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const publicKey = createPublicKey(privateKey);

  test('the server\'s client signs a new token for each request (@coinbase/x402), each for its own method and path', async () => {
    const tokens = new Set<string>();
    let host = '';
    let refused = 0;
    /** Accepts a request only with a valid token not seen before, naming this request. */
    const freshToken = (headers: IncomingHttpHeaders, path: string): boolean => {
      const token = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
      const jwt = token && !tokens.has(token) ? verifiedClaims(token, publicKey) : null;
      const uri = `${path === '/supported' ? 'GET' : 'POST'} ${host}${path}`;
      const accepted = jwt !== null && jwt.header.kid === KEY_ID && jwt.claims.sub === KEY_ID &&
        (jwt.claims.uris as string[])[0] === uri && typeof headers['correlation-context'] === 'string';
      if (accepted) tokens.add(token!);
      else refused++;
      return accepted;
    };
    const cdp = await startLocalFacilitator({ chain, checkHeaders: freshToken });
    facilitators.push(cdp);
    host = new URL(cdp.url).host;
    const env = devPaymentEnv(chain, cdp.url, { CDP_API_KEY_ID: KEY_ID, CDP_API_KEY_SECRET: secret });
    const settings = readPaymentSettings(env);
    // Loopback stands in for api.cdp.coinbase.com.
    const client = createFacilitatorClient(settings.facilitator!, { isCdp: () => true });
    const payments = createPayments({ routes: [], settings, baseUrl: 'http://127.0.0.1', facilitatorClient: client, log: () => undefined });
    await payments.start();
    const { payload, requirements } = await signedPayment();
    assert.equal((await client.verify(payload, requirements)).isValid, true);
    assert.equal((await client.verify(payload, requirements)).isValid, true);
    await client.getSupported();
    assert.equal((await client.settle(payload, requirements)).success, true);
    assert.ok(count(cdp, '/supported') >= 2);
    assert.equal(count(cdp, '/verify'), 2);
    assert.equal(refused, 0);
    assert.equal(tokens.size, cdp.requests.length);

    // Without the host override the token goes to api.cdp.coinbase.com only, not to another facilitator.
    const plain = await startLocalFacilitator({ chain });
    facilitators.push(plain);
    await createFacilitatorClient(readPaymentSettings(devPaymentEnv(chain, plain.url, { CDP_API_KEY_ID: KEY_ID, CDP_API_KEY_SECRET: secret })).facilitator!).getSupported();
    assert.deepEqual(plain.requests.map((r) => [r.path, r.authorization]), [['/supported', null]]);
  });

  test('the header builder is injectable: called once per request, after the fixed X402_FACILITATOR_HEADERS', async () => {
    let calls = 0;
    const seen: string[] = [];
    const counted = await startLocalFacilitator({
      chain,
      checkHeaders: (headers, path) => {
        const token = String(headers.authorization);
        if (seen.includes(token) || headers['x-fixed'] !== 'kept' || !token.endsWith(` ${path === '/supported' ? 'GET' : 'POST'} ${counted.url}${path}`)) return false;
        seen.push(token);
        return true;
      },
    });
    facilitators.push(counted);
    const fixed = { 'X-Fixed': 'kept', Authorization: 'overridden' };
    const settings = facilitatorSettings([counted.url], { X402_FACILITATOR_HEADERS: JSON.stringify({ verify: fixed, settle: fixed, supported: fixed }) });
    const client = createFacilitatorClient(settings, {
      isCdp: (url) => url === counted.url,
      cdpHeaders: async ({ method, url }) => ({ Authorization: `Token${++calls} ${method} ${url}` }),
    });
    const { payload, requirements } = await signedPayment();
    await client.getSupported();
    await client.verify(payload, requirements);
    await client.getSupported();
    await client.verify(payload, requirements);
    assert.equal(calls, 4);
    assert.deepEqual(seen.map((token) => token.split(' ')[0]), ['Token1', 'Token2', 'Token3', 'Token4']);
  });

  test('CDP_API_KEY_SECRET never appears in a thrown error or in what a failing call logs', async () => {
    const leaks = (text: string, key: string) => [key, ...key.split(/-----[^-]*-----|\s+/).filter((piece) => piece.length >= 8)].some((piece) => text.includes(piece));
    const everything = (error: unknown) => {
      const parts = [String(error), inspect(error, { depth: null, showHidden: true })];
      for (let e: unknown = error; e instanceof Error; e = e.cause) parts.push(e.message, e.stack ?? '');
      return parts.join('\n');
    };
    const printed: string[] = [];
    const original = { log: console.log, error: console.error, warn: console.warn, info: console.info };
    const capture = (...args: unknown[]) => void printed.push(args.map((arg) => (typeof arg === 'string' ? arg : inspect(arg, { depth: null }))).join(' '));
    const fetchCalls: string[] = [];
    const realFetch = globalThis.fetch;
    Object.assign(console, { log: capture, error: capture, warn: capture, info: capture });
    // Nothing below may reach the internet: a request that got as far as fetch is recorded and refused.
    globalThis.fetch = async (input: string | URL | Request) => {
      fetchCalls.push(String(input instanceof Request ? input.url : input));
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    };
    try {
      const { payload, requirements } = await signedPayment();
      // 1. A secret that is no key, with the real CDP address: signing fails before any request.
      const badSecret = `not-a-key-${'s3cr3t'.repeat(6)}`;
      const env = {
        ...devPaymentEnv(chain, 'https://api.cdp.coinbase.com/platform/v2/x402'), CDP_API_KEY_ID: KEY_ID, CDP_API_KEY_SECRET: badSecret,
      };
      const settings = readPaymentSettings(env);
      const logged: string[] = [];
      const payments = createPayments({ routes: [], settings, baseUrl: 'http://127.0.0.1', log: (message, error) => void logged.push(`${message} ${everything(error)}`) });
      const startError = await payments.start().then(() => null, (e: unknown) => e);
      assert.ok(startError instanceof PaymentConfigError, inspect(startError));
      assert.match(startError.message, /could not sign the supported request: Invalid key format/);
      const client = createFacilitatorClient(settings.facilitator!);
      const errors = await Promise.all([
        client.verify(payload, requirements).then(() => null, (e: unknown) => e),
        client.settle(payload, requirements).then(() => null, (e: unknown) => e),
      ]);
      assert.ok(errors.every((e) => e instanceof FacilitatorUnavailableError), inspect(errors));
      assert.equal(settleWasNotSent(errors[1]), true); // nothing was sent
      assert.deepEqual(fetchCalls, []);
      for (const text of [everything(startError), ...errors.map(everything), ...logged, ...printed]) assert.equal(leaks(text, badSecret), false, text);

      // 2. A key library whose error quotes the key: the message is redacted and the cause dropped.
      const quoting = createFacilitatorClient(facilitatorSettings([await refusingUrl()], { CDP_API_KEY_ID: KEY_ID, CDP_API_KEY_SECRET: secret }), {
        isCdp: () => true,
        cdpHeaders: async () => {
          throw new Error(`cannot parse ${secret}`);
        },
      });
      const quoted = await quoting.verify(payload, requirements).then(() => null, (e: unknown) => e);
      assert.match(String((quoted as Error).message), /could not sign the verify request: cannot parse \[redacted\]/);
      assert.equal(leaks(everything(quoted), secret), false, everything(quoted));

      // 3. A good key and a facilitator that cannot be reached.
      const unreachable = createFacilitatorClient(facilitatorSettings([await refusingUrl()], { CDP_API_KEY_ID: KEY_ID, CDP_API_KEY_SECRET: secret }), { isCdp: () => true });
      const failures = await Promise.all([
        unreachable.getSupported().then(() => null, (e: unknown) => e),
        unreachable.verify(payload, requirements).then(() => null, (e: unknown) => e),
        unreachable.settle(payload, requirements).then(() => null, (e: unknown) => e),
      ]);
      assert.equal(fetchCalls.length, 3);
      for (const failure of failures) {
        assert.ok(failure instanceof FacilitatorUnavailableError, inspect(failure));
        assert.equal(leaks(everything(failure), secret), false);
      }
      assert.equal(printed.some((line) => leaks(line, secret) || leaks(line, badSecret)), false, printed.join('\n'));
    } finally {
      globalThis.fetch = realFetch;
      Object.assign(console, original);
    }
  });
});
