// Paid-route test rig: the in-process chain, the local facilitator over HTTP on loopback, and the
// app with payments configured from environment-style settings (as `npm start` reads them).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import path from 'node:path';
import { x402Client, wrapFetchWithPayment } from '@x402/fetch';
import { x402HTTPClient } from '@x402/core/client';
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';
import { createWalletClient, custom, toHex, type Hex, type PrivateKeyAccount } from 'viem';
import { createApp } from '../../http/app.ts';
import { eventLogOf } from '../../http/log.ts';
import type { ServerMetrics } from '../../http/metrics.ts';
import type { ObserveOptions } from '../../http/observe.ts';
import { readPaymentSettings } from '../../http/payments/config.ts';
import { createPayments, type Payments } from '../../http/payments/index.ts';
import { openSnapshot } from '../../http/openSnapshot.ts';
import type { Route } from '../../queries/catalog.ts';
import { DEV_KEYS, DEV_NETWORK, devChain, startDevChain, type DevChain } from '../../devchain/chain.ts';
import { compileTestToken } from '../../devchain/token.ts';
import { appendPaymentIdentifierToExtensions } from '@x402/extensions/payment-identifier';
import { startLocalFacilitator, type LocalFacilitator } from '../../devchain/facilitator.ts';
import type { Database } from '../../engine/database.ts';
import { FIXED_NOW } from './app.ts';
import { tempDirUntilExit } from './tmp.ts';

export interface PaidApp {
  base: string;
  payments: Payments;
  ledgerPath: string;
  request(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** The environment of a server paid on the local chain; loopback is not exempt, so tests pay. */
export function devPaymentEnv(chain: DevChain, facilitatorUrl: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'development',
    X402_PAY_TO: chain.addresses.payTo,
    X402_FACILITATOR_URL: facilitatorUrl,
    X402_NETWORKS: DEV_NETWORK,
    X402_ASSETS: JSON.stringify({ [DEV_NETWORK]: { address: chain.token, name: 'USD Coin', version: '2' } }),
    X402_EXEMPT_LOOPBACK: 'false',
    ...extra,
  };
}

export async function startPaidApp(options: {
  db: Database;
  routes: readonly Route[];
  env: NodeJS.ProcessEnv;
  /** The payments' clock (default FIXED_NOW, the data's "today"); authorization validity is read against it. */
  now?: () => Date;
  /** The request log and metrics (default none); `metrics` also counts the payments. */
  observe?: ObserveOptions & { metrics?: ServerMetrics };
}): Promise<PaidApp> {
  const ledgerPath = path.join(await tempDirUntilExit('ledger-'), 'revenue.jsonl');
  const settings = readPaymentSettings({ REVENUE_LEDGER: ledgerPath, ...options.env });
  // Listen first: the challenge's resource URL needs the base address, known once a port is bound.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const payments = createPayments({ routes: options.routes, settings, baseUrl: base, now: options.now ?? (() => FIXED_NOW), log: options.observe?.logger ? eventLogOf(options.observe.logger) : () => undefined, metrics: options.observe?.metrics });
  await payments.start().catch(async (error: unknown) => {
    await payments.close();
    await new Promise((resolve) => server.close(resolve));
    throw error;
  });
  const app = await createApp({
    db: options.db,
    routes: options.routes,
    now: () => FIXED_NOW,
    beforeHandler: [payments.middleware],
    logError: () => undefined,
    observe: options.observe,
  });
  // Koa's handler answers its own errors: its promise never rejects.
  const handle = app.callback();
  server.on('request', (request, response) => void handle(request, response));
  return {
    base,
    payments,
    ledgerPath,
    request: (requestPath, init) => fetch(base + requestPath, init),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await payments.close();
    },
  };
}

/** The official client: @x402/fetch with a viem account; spend controls off for the test token. */
export function payingFetch(privateKey: Hex): typeof fetch {
  const client = new x402Client();
  client.register('eip155:*', new ExactEvmScheme(privateKeyToAccount(privateKey)));
  client.setSpendControls(false);
  return wrapFetchWithPayment(fetch, client) as typeof fetch;
}

export function officialClient(privateKey: Hex): x402Client {
  const client = new x402Client();
  client.register('eip155:*', new ExactEvmScheme(privateKeyToAccount(privateKey)));
  client.setSpendControls(false);
  return client;
}

/** The official client, sending `id` as its payment identifier on every payment it signs (as the x402 examples do). */
export function clientWithId(privateKey: Hex, id: string): x402Client {
  const client = officialClient(privateKey);
  client.onBeforePaymentCreation(async ({ paymentRequired }) => {
    paymentRequired.extensions ??= {};
    appendPaymentIdentifierToExtensions(paymentRequired.extensions, id);
  });
  return client;
}

export function fetchWithId(privateKey: Hex, id: string, base: typeof fetch = fetch): typeof fetch {
  return wrapFetchWithPayment(base, clientWithId(privateKey, id)) as typeof fetch;
}

/** Mints test USDC to `to` (the facilitator's account deployed the token and may mint). */
export async function mintTestUsdc(chain: DevChain, to: Hex, value: bigint): Promise<void> {
  const { abi } = await compileTestToken();
  const wallet = createWalletClient({ chain: devChain, transport: custom(chain.provider), account: chain.addresses.facilitator });
  await wallet.writeContract({ address: chain.token, abi, functionName: 'mint', args: [to, value] });
}

/** `account` signs a transfer of `value` to `to`, submitted at once by the facilitator's account (funds leaving a payer). */
export async function transferAway(chain: DevChain, account: PrivateKeyAccount, to: Hex, value: bigint): Promise<void> {
  const authorization = {
    from: account.address, to, value, validAfter: 0n,
    validBefore: BigInt(Math.floor(Date.now() / 1000) + 300), nonce: toHex(randomBytes(32)),
  };
  const signature = await account.signTypedData({
    domain: { name: 'USD Coin', version: '2', chainId: 31337, verifyingContract: chain.token },
    types: { TransferWithAuthorization: TRANSFER_WITH_AUTHORIZATION },
    primaryType: 'TransferWithAuthorization',
    message: authorization,
  });
  const { abi } = await compileTestToken();
  const wallet = createWalletClient({ chain: devChain, transport: custom(chain.provider), account: chain.addresses.facilitator });
  await wallet.writeContract({
    address: chain.token, abi, functionName: 'transferWithAuthorization',
    args: [authorization.from, authorization.to, authorization.value, authorization.validAfter, authorization.validBefore, authorization.nonce, signature],
  });
}

export interface PaymentRig {
  chain: DevChain;
  facilitator: LocalFacilitator;
  db: Database;
}

export async function startPaymentRig(dataDir: string, facilitatorAuthorization?: string): Promise<PaymentRig> {
  const chain = await startDevChain();
  const facilitator = await startLocalFacilitator({ chain, authorization: facilitatorAuthorization });
  const db = await openSnapshot(dataDir);
  return { chain, facilitator, db };
}

export const TRANSFER_WITH_AUTHORIZATION = [
  { name: 'from', type: 'address' }, { name: 'to', type: 'address' }, { name: 'value', type: 'uint256' },
  { name: 'validAfter', type: 'uint256' }, { name: 'validBefore', type: 'uint256' }, { name: 'nonce', type: 'bytes32' },
] as const;

export async function challengeFor(paidApp: PaidApp, path: string): Promise<PaymentRequired> {
  const response = await paidApp.request(path);
  assert.equal(response.status, 402);
  return decodePaymentRequiredHeader(response.headers.get('payment-required')!);
}

/** A payment signed by the official client for the server's own challenge. */
export async function officialPaymentHeader(paidApp: PaidApp, path: string, key: Hex = DEV_KEYS.payer): Promise<string> {
  const client = new x402HTTPClient(officialClient(key));
  const payload = await client.createPaymentPayload(await challengeFor(paidApp, path));
  return client.encodePaymentSignatureHeader(payload)['PAYMENT-SIGNATURE']!;
}

/**
 * A hand-signed EIP-3009 authorization for tampering: `accepted` is the server's own requirement,
 * the authorization and signature are what an attacker or a broken client would send.
 */
export async function forgedPaymentHeader(
  challenge: PaymentRequired,
  changes: { to?: string; value?: string; validBefore?: string; signerKey?: Hex; accepted?: Partial<PaymentRequirements> },
): Promise<string> {
  const requirement = challenge.accepts[0]!;
  const from = privateKeyToAccount(DEV_KEYS.payer).address;
  const signer = privateKeyToAccount(changes.signerKey ?? DEV_KEYS.payer);
  const authorization = {
    from,
    to: (changes.to ?? requirement.payTo) as Hex,
    value: changes.value ?? requirement.amount,
    validAfter: '0',
    validBefore: changes.validBefore ?? String(Math.floor(Date.now() / 1000) + 300),
    nonce: toHex(randomBytes(32)),
  };
  const signature = await signer.signTypedData({
    domain: { name: 'USD Coin', version: '2', chainId: 31337, verifyingContract: requirement.asset as Hex },
    types: { TransferWithAuthorization: TRANSFER_WITH_AUTHORIZATION },
    primaryType: 'TransferWithAuthorization',
    message: {
      ...authorization,
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
    },
  });
  const payload: PaymentPayload = {
    x402Version: 2,
    resource: challenge.resource,
    accepted: { ...requirement, ...changes.accepted },
    payload: { signature, authorization },
  };
  return encodePaymentSignatureHeader(payload);
}

