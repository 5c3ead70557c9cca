// Payments that never charge without answering, end to end on loopback, against both payment stores
// (the embedded files and PostgreSQL). The local facilitator settles on the in-process chain and then
// loses its answer (a reset connection, a proxy's 504) or never answers; balances are read from the
// token, so "charged once" is a fact on the chain, not what the server says.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { decodePaymentResponseHeader, decodePaymentSignatureHeader } from '@x402/core/http';
import { generatePaymentId } from '@x402/extensions/payment-identifier';
import { createWalletClient, custom, parseAbi, toHex, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { DEV_KEYS, devChain } from '../../devchain/chain.ts';
import { routes } from '../../domains/index.ts';
import { authorizationOf } from '../../http/payments/authorization.ts';
import { runPayments } from '../../bin/payments.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';
import { postgresSkipReason, scratchPostgres, type ScratchPostgres } from '../helpers/postgres.ts';
import {
  devPaymentEnv, fetchWithId, mintTestUsdc, officialPaymentHeader, startPaidApp, startPaymentRig, transferAway, type PaidApp, type PaymentRig,
} from '../helpers/payments.ts';

const PRICE = 10_000n;
const POSTGRES_SKIP = await postgresSkipReason();
const TAXONOMY = '/api/sebra/getTaxonomyForYear?year=2024';

let rig: PaymentRig;
before(async () => {
  rig = await startPaymentRig(await writeSebraSnapshot(fixturePayments, fixtureDays));
});
after(async () => {
  await rig?.facilitator.stop();
  await rig?.db.close();
});

const calls = (path: '/verify' | '/settle') => rig.facilitator.requests.filter((r) => r.path === path).length;
const balanceOf = (address: Hex) => rig.chain.balanceOf(address);

async function errorOf(response: Response): Promise<{ status: number; code: string; reason?: string; message: string }> {
  const body = await response.json();
  return { status: body.error.status, code: body.error.code, reason: body.reason, message: body.error.message };
}

/** A fresh payer holding `amount` test USDC, and a way to empty its account (it signs its whole balance away). */
async function freshPayer(amount: bigint): Promise<{ key: Hex; address: Hex; mint(value: bigint): Promise<void>; drain(): Promise<void> }> {
  const key = toHex(randomBytes(32));
  const account = privateKeyToAccount(key);
  const mint = (value: bigint) => mintTestUsdc(rig.chain, account.address, value);
  await mint(amount);
  return {
    key,
    address: account.address,
    mint,
    drain: async () => transferAway(rig.chain, account, rig.chain.addresses.otherPayer, await balanceOf(account.address)),
  };
}

/** `npm run payments` in this process, with this process's environment and `env` over it: its exit code, stdout and stderr. */
async function paymentsCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runPayments(args, { env: { ...process.env, ...env }, out: (line) => (stdout += `${line}\n`), err: (line) => (stderr += `${line}\n`) });
  return { code, stdout, stderr };
}

const AUTHORIZATION_STATE = parseAbi(['function authorizationState(address authorizer, bytes32 nonce) view returns (bool)']);

/** Whether the token recorded this PAYMENT-SIGNATURE's authorization as used. */
async function authorizationUsed(header: string): Promise<boolean> {
  const { authorization } = decodePaymentSignatureHeader(header).payload as { authorization: { from: Hex; nonce: Hex } };
  const wallet = createWalletClient({ chain: devChain, transport: custom(rig.chain.provider) });
  const { readContract } = await import('viem/actions');
  return readContract(wallet, { address: rig.chain.token, abi: AUTHORIZATION_STATE, functionName: 'authorizationState', args: [authorization.from, authorization.nonce] });
}

for (const kind of ['file', 'postgres'] as const) {
  describe(`settlement outcomes (${kind} store)`, { skip: kind === 'postgres' ? POSTGRES_SKIP : undefined }, () => {
    let database: ScratchPostgres | null = null;
    let app: PaidApp;
    const started: PaidApp[] = [];
    const storeEnv = (): Record<string, string> => (database ? { DATABASE_URL: database.url } : {});
    async function startApp(extra: Record<string, string> = {}): Promise<PaidApp> {
      const paid = await startPaidApp({ db: rig.db, routes, env: devPaymentEnv(rig.chain, rig.facilitator.url, { ...storeEnv(), ...extra }) });
      started.push(paid);
      return paid;
    }
    const settlementOf = async (paid: PaidApp, header: string) => paid.payments.store()!.byKey(authorizationOf(decodePaymentSignatureHeader(header)).key);

    before(async () => {
      if (kind === 'postgres') database = await scratchPostgres();
      app = await startApp();
    });
    after(async () => {
      for (const paid of started) await paid.close();
      rig.facilitator.faults.loseSettleAnswers = 0;
      rig.facilitator.faults.stallSettles = 0;
      rig.facilitator.faults.repeatFirstSettleResult = false;
      await database?.drop();
    });

    test('the settle answer is lost after the transfer: 502 settlement_unknown, never "nothing was charged"; the same signature then gets the kept answer, charged once', async () => {
      const header = await officialPaymentHeader(app, TAXONOMY);
      const start = await balanceOf(rig.chain.addresses.payer);
      rig.facilitator.faults.loseSettleAnswers = 1;
      rig.facilitator.faults.loseAs = 'reset';
      const lost = await app.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': header } });
      assert.equal(lost.status, 502);
      const error = await errorOf(lost);
      assert.equal(error.code, 'settlement_unknown');
      assert.match(error.message, /may have been taken/);
      assert.doesNotMatch(error.message, /nothing was charged/);
      assert.equal(start - (await balanceOf(rig.chain.addresses.payer)), PRICE, 'the transfer happened on chain');
      assert.equal((await settlementOf(app, header))?.state, 'unknown');
      const ledger = await app.payments.store()!.ledger();
      assert.equal(ledger.find((record) => record.key === (authorizationOf(decodePaymentSignatureHeader(header)).key))?.state, 'unknown');

      const settles = calls('/settle');
      const retry = await app.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': header } });
      assert.equal(retry.status, 200);
      assert.equal((await retry.json()).endpoint, 'getTaxonomyForYear');
      assert.equal(calls('/settle'), settles + 1, 'resolved by settling the kept authorization again (reported used)');
      assert.equal(start - (await balanceOf(rig.chain.addresses.payer)), PRICE, 'charged exactly once');
      assert.equal((await settlementOf(app, header))?.state, 'settled');

      // Replays of a used signature are answered without the facilitator.
      const [verifies, settlesAfter] = [calls('/verify'), calls('/settle')];
      for (let i = 0; i < 20; i += 1) assert.equal((await app.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': header } })).status, 200);
      const other = await app.request('/api/sebra/getTaxonomyForYear?year=2025', { headers: { 'PAYMENT-SIGNATURE': header } });
      assert.equal(other.status, 409, 'the authorization bought another request');
      assert.deepEqual([calls('/verify'), calls('/settle')], [verifies, settlesAfter]);
    });

    test('a proxy 504 after settlement with a payment id: the retry with a freshly signed authorization gets the kept answer, the new authorization is never used', async () => {
      const id = generatePaymentId();
      const start = await balanceOf(rig.chain.addresses.payer);
      rig.facilitator.faults.loseSettleAnswers = 1;
      rig.facilitator.faults.loseAs = 'gateway-timeout';
      const lost = await fetchWithId(DEV_KEYS.payer, id)(`${app.base}${TAXONOMY}`);
      assert.equal(lost.status, 502);
      assert.equal((await errorOf(lost)).code, 'settlement_unknown');
      assert.equal(start - (await balanceOf(rig.chain.addresses.payer)), PRICE);

      const verifies = calls('/verify');
      const signed: string[] = [];
      const recording: typeof fetch = async (input, init) => {
        const header = (input instanceof Request ? input.headers : new Headers(init?.headers)).get('PAYMENT-SIGNATURE');
        if (header) signed.push(header);
        return fetch(input, init);
      };
      const retry = await fetchWithId(DEV_KEYS.payer, id, recording)(`${app.base}${TAXONOMY}`);
      assert.equal(retry.status, 200);
      assert.equal((await retry.json()).endpoint, 'getTaxonomyForYear');
      assert.equal(start - (await balanceOf(rig.chain.addresses.payer)), PRICE, 'charged once');
      assert.equal(calls('/verify'), verifies, 'the new authorization was not even verified');
      assert.equal(signed.length, 1);
      assert.equal(await authorizationUsed(signed[0]!), false, 'the new authorization is unused on chain');
    });

    test('with X402_RPC_URLS the token itself says the lost settlement was paid: no second /settle, and the receipt names the transaction', async () => {
      const withRpc = await startApp({ X402_RPC_URLS: `eip155:31337=${rig.facilitator.rpcUrl}` });
      const header = await officialPaymentHeader(withRpc, TAXONOMY);
      rig.facilitator.faults.loseSettleAnswers = 1;
      rig.facilitator.faults.loseAs = 'reset';
      const settles = calls('/settle');
      assert.equal((await withRpc.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': header } })).status, 502);
      const transaction = (rig.facilitator.requests.filter((r) => r.path === '/settle').at(-1)!.result as { transaction: string }).transaction;
      const retry = await withRpc.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': header } });
      assert.equal(retry.status, 200);
      assert.equal(calls('/settle'), settles + 1, 'only the lost one');
      assert.equal(decodePaymentResponseHeader(retry.headers.get('payment-response')!).transaction, transaction);
      assert.equal((await settlementOf(withRpc, header))?.transaction, transaction);
    });

    test('a facilitator that answers a duplicate /settle with the first result: paid, with the original receipt', async () => {
      const header = await officialPaymentHeader(app, TAXONOMY);
      const start = await balanceOf(rig.chain.addresses.payer);
      rig.facilitator.faults.repeatFirstSettleResult = true;
      rig.facilitator.faults.loseSettleAnswers = 1;
      try {
        assert.equal((await app.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': header } })).status, 502);
        const transaction = (rig.facilitator.requests.filter((r) => r.path === '/settle').at(-1)!.result as { transaction: string }).transaction;
        const retry = await app.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': header } });
        assert.equal(retry.status, 200);
        assert.equal(decodePaymentResponseHeader(retry.headers.get('payment-response')!).transaction, transaction);
        assert.equal(start - (await balanceOf(rig.chain.addresses.payer)), PRICE);
      } finally {
        rig.facilitator.faults.repeatFirstSettleResult = false;
      }
    });

    test('a settle that never answered and moved nothing: the retry resolves it; one that can no longer settle is unpaid and the id pays afresh', async () => {
      const slow = await startApp({ X402_FACILITATOR_TIMEOUT_MS: '1500' });
      // 1. Stalled, nothing moved: the retry settles the kept authorization once, now.
      const payer = await freshPayer(3n * PRICE);
      const header = await officialPaymentHeader(slow, TAXONOMY, payer.key);
      rig.facilitator.faults.stallSettles = 1;
      const stalled = await slow.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': header } });
      assert.equal(stalled.status, 502);
      assert.equal((await errorOf(stalled)).code, 'settlement_unknown');
      assert.equal(await balanceOf(payer.address), 3n * PRICE, 'nothing moved');
      const resolved = await slow.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': header } });
      assert.equal(resolved.status, 200);
      assert.equal(await balanceOf(payer.address), 2n * PRICE, 'paid once, at resolution');

      // 2. Stalled, then the payer's funds leave: the kept authorization cannot settle (unpaid), the id is free again.
      const id = generatePaymentId();
      rig.facilitator.faults.stallSettles = 1;
      assert.equal((await fetchWithId(payer.key, id)(`${slow.base}${TAXONOMY}`)).status, 502);
      await payer.drain();
      const refused = await fetchWithId(payer.key, id)(`${slow.base}${TAXONOMY}`);
      assert.equal(refused.status, 402, 'the fresh authorization is refused too: the account is empty');
      assert.match((await errorOf(refused)).reason ?? '', /insufficient|balance|simulation/i);
      const ledger = await slow.payments.store()!.unresolved();
      assert.equal(ledger.filter((settlement) => settlement.paymentId === id).length, 0, 'the earlier settlement is resolved');
      await payer.mint(PRICE);
      const paid = await fetchWithId(payer.key, id)(`${slow.base}${TAXONOMY}`);
      assert.equal(paid.status, 200);
      assert.equal(await balanceOf(payer.address), 0n, 'charged once for the id');
    });

    test('an authorization about to expire is refused before verification (402 authorization_expiring), and so is a replayed refusal', async () => {
      const realClock = await startPaidApp({ db: rig.db, routes, now: () => new Date(), env: devPaymentEnv(rig.chain, rig.facilitator.url, storeEnv()) });
      started.push(realClock);
      const { forgedPaymentHeader, challengeFor } = await import('../helpers/payments.ts');
      const challenge = await challengeFor(realClock, TAXONOMY);
      const verifies = calls('/verify');
      const expiring = await realClock.request(TAXONOMY, {
        headers: { 'PAYMENT-SIGNATURE': await forgedPaymentHeader(challenge, { validBefore: String(Math.floor(Date.now() / 1000) + 10) }) },
      });
      assert.equal(expiring.status, 402);
      assert.equal((await errorOf(expiring)).reason, 'authorization_expiring');
      assert.ok(expiring.headers.get('payment-required'), 'a fresh challenge to sign again');
      assert.equal(calls('/verify'), verifies, 'no facilitator call');

      const tampered = await forgedPaymentHeader(challenge, { value: '1' });
      const first = await realClock.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': tampered } });
      assert.equal(first.status, 402);
      const afterFirst = calls('/verify');
      for (let i = 0; i < 50; i += 1) {
        const replay = await realClock.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': tampered } });
        assert.equal(replay.status, 402);
        await replay.arrayBuffer();
      }
      assert.equal(calls('/verify'), afterFirst, '50 replays, no facilitator call');
    });

    test('a payment store that cannot be reached fails closed: 503 payment_store_unavailable, nothing verified, charged or served', { skip: kind === 'file' ? 'the file store is in this process' : undefined }, async () => {
      const doomed = await scratchPostgres();
      let dropped = false;
      try {
        const paid = await startPaidApp({ db: rig.db, routes, env: devPaymentEnv(rig.chain, rig.facilitator.url, { DATABASE_URL: doomed.url }) });
        started.push(paid);
        const header = await officialPaymentHeader(paid, TAXONOMY);
        await doomed.drop();
        dropped = true;
        const [verifies, balance] = [calls('/verify'), await balanceOf(rig.chain.addresses.payer)];
        const refused = await paid.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': header } });
        assert.equal(refused.status, 503);
        const body = await refused.json();
        assert.equal(body.error.code, 'payment_store_unavailable');
        assert.equal(body.items, undefined);
        assert.equal(refused.headers.get('payment-response'), null);
        assert.equal(calls('/verify'), verifies);
        assert.equal(await balanceOf(rig.chain.addresses.payer), balance);
      } finally {
        if (!dropped) await doomed.drop();
      }
    });

    test('npm run payments -- reconcile resolves what no client came back for', async () => {
      const header = await officialPaymentHeader(app, TAXONOMY);
      rig.facilitator.faults.loseSettleAnswers = 1;
      assert.equal((await app.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': header } })).status, 502);
      const env = { ...devPaymentEnv(rig.chain, rig.facilitator.url, storeEnv()), REVENUE_LEDGER: app.ledgerPath };
      // As the command (npm's child process) once, for its exit code and stdout; then in this process (runPayments).
      const listed = kind === 'file' ? await runCli('bin/payments.ts', ['list'], env) : await paymentsCli(['list'], env);
      assert.equal(listed.code, 3, listed.stderr);
      assert.match(listed.stdout, /1 settlement\(s\) with an outcome not known yet/);
      assert.ok(listed.stdout.includes(authorizationOf(decodePaymentSignatureHeader(header)).key));
      const reconciled = await paymentsCli(['reconcile'], env);
      assert.equal(reconciled.code, 0, reconciled.stdout + reconciled.stderr);
      assert.match(reconciled.stdout, /settled/);
      const again = await paymentsCli(['list'], env);
      assert.equal(again.code, 0);
      assert.match(again.stdout, /^0 settlement\(s\)/);
    });
  });
}
