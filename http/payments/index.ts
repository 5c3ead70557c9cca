// Payments for the app: the x402 resource server over the catalog, its startup check against the
// facilitator, the payment store (settlements and the revenue ledger, locks, refusals), the resolver
// of settlements whose outcome is unknown, and the middleware the request pipeline runs on paid routes.
import { x402HTTPResourceServer, x402ResourceServer, type FacilitatorClient } from '@x402/core/server';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { bazaarResourceServerExtension } from '@x402/extensions/bazaar';
import { paymentIdentifierResourceServerExtension } from '@x402/extensions/payment-identifier';
import type Koa from 'koa';
import type { Route } from '../../queries/catalog.ts';
import { redactUrl, redactUrlsIn, type EventLog } from '../log.ts';
import type { FacilitatorCall, PaymentMetrics } from '../metrics.ts';
import { paymentRoutesConfig } from './challenge.ts';
import { PaymentConfigError, type PaymentSettings } from './config.ts';
import { exemption, type ClientRequest } from './exemption.ts';
import { createFacilitatorClient } from './facilitatorClient.ts';
import { createChainReader, type ChainReader } from './chainReader.ts';
import { paymentMiddleware } from './middleware.ts';
import { createSettlementResolver, type Resolution } from './resolve.ts';
import { createPaymentStore } from './store/index.ts';
import type { PaymentStore, Settlement } from './store/types.ts';
import { cachedCheck, type ReadinessCheck } from '../readiness.ts';

export interface PaymentsOptions {
  routes: readonly Route[];
  settings: PaymentSettings;
  baseUrl: string;
  now?: () => Date;
  /** Server events (facilitator errors, refusals, the start line); default a line on stderr. */
  log?: EventLog;
  /** Payments by outcome and facilitator latency by call (http/metrics.ts); none: not measured. */
  metrics?: PaymentMetrics;
  /** The facilitator client; default the HTTP client of `settings.facilitator` (the benchmark passes one answering in-process). */
  facilitatorClient?: FacilitatorClient;
  /** The payment store; default the one the settings name (DATABASE_URL, or the files beside the ledger), opened by start(). */
  store?: PaymentStore;
  /** Chain readers per network; default one per X402_RPC_URLS entry. */
  chains?: ReadonlyMap<string, ChainReader>;
}

export interface Payments {
  settings: PaymentSettings;
  /** The pipeline's payment stage (createApp's `beforeHandler`). */
  middleware: Koa.Middleware;
  /** Whether the middleware would ask this request for a payment (a paid route, a client not exempt). */
  needsPayment(route: Route, request: ClientRequest): boolean;
  /**
   * Asks the facilitator's /supported and logs which configured networks are live; throws
   * PaymentConfigError when one is not supported or the facilitator cannot be asked; opens the payment store.
   */
  start(): Promise<void>;
  /** The payment store (after start()); null when payments are not configured. */
  store(): PaymentStore | null;
  /**
   * What /readyz checks when payments are configured: the payment store answers (ping, cached 2 s)
   * and a facilitator answers /supported (cached 15 s after a success, 5 s after a failure). None otherwise.
   */
  readinessChecks(): ReadinessCheck[];
  /** Resolves a settlement whose outcome is unknown (`npm run payments -- reconcile`). */
  resolve(settlement: Settlement): Promise<Resolution>;
  close(): Promise<void>;
}

function supports(kinds: ReadonlyArray<{ x402Version: number; scheme: string; network: string }>, network: string): boolean {
  return kinds.some(
    (kind) => kind.x402Version === 2 && kind.scheme === 'exact' &&
      (kind.network === network || (kind.network.endsWith(':*') && network.startsWith(kind.network.slice(0, -1)))),
  );
}

/** The facilitator client with each call's time measured (failed calls included). */
function timedFacilitator(client: FacilitatorClient, metrics: PaymentMetrics): FacilitatorClient {
  const timed = async <T>(call: FacilitatorCall, run: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await run();
    } finally {
      metrics.facilitatorCall(call, (performance.now() - started) / 1000);
    }
  };
  return {
    verify: (payload, requirements) => timed('verify', () => client.verify(payload, requirements)),
    settle: (payload, requirements) => timed('settle', () => client.settle(payload, requirements)),
    getSupported: () => timed('supported', () => client.getSupported()),
  };
}

export function createPayments(options: PaymentsOptions): Payments {
  const { settings } = options;
  const log: EventLog = options.log ?? ((message, error) => console.error(message, error ?? ''));
  const client: FacilitatorClient | null = settings.facilitator ? options.facilitatorClient ?? createFacilitatorClient(settings.facilitator) : null;
  const facilitator = client && options.metrics ? timedFacilitator(client, options.metrics) : client;
  let server: x402HTTPResourceServer | null = null;
  if (facilitator && settings.payTo) {
    const resourceServer = new x402ResourceServer(facilitator);
    for (const network of settings.networks) resourceServer.register(network as `${string}:${string}`, new ExactEvmScheme());
    resourceServer.registerExtension(bazaarResourceServerExtension);
    resourceServer.registerExtension(paymentIdentifierResourceServerExtension);
    server = new x402HTTPResourceServer(resourceServer, paymentRoutesConfig(options.routes, settings));
  }
  // Opened by start(); the same store object serves every request.
  const store: PaymentStore | null = server ? options.store ?? createPaymentStore(settings, { now: options.now, log }) : null;
  const isExempt = exemption(settings);
  const now = options.now ?? (() => new Date());
  const chains = options.chains ?? new Map(Object.entries(settings.rpcUrls).map(([network, url]) => [network, createChainReader(url)]));
  const resolve = createSettlementResolver({
    chains,
    nowSeconds: () => Math.floor(now().getTime() / 1000),
    async settle(payload, requirements) {
      const result = await server!.processSettlement(payload, requirements, undefined, undefined);
      return result.success ? { success: true, transaction: result.transaction, headers: result.headers } : { success: false, errorReason: result.errorReason };
    },
  });
  return {
    settings,
    needsPayment: (route, request) => route.paid && !isExempt(request),
    middleware: paymentMiddleware({
      server,
      isExempt,
      baseUrl: options.baseUrl,
      store,
      resolve,
      minValiditySeconds: settings.minValiditySeconds,
      maxTimeoutSeconds: settings.maxTimeoutSeconds,
      // verify and settle each within the facilitator timeout, the handler well within a minute
      lockTtlMs: 2 * (settings.facilitator?.timeoutMs ?? 15_000) + 60_000,
      now,
      log,
      metrics: options.metrics,
    }),
    store: () => store,
    readinessChecks() {
      if (!facilitator || !server || !store) return [];
      return [
        { name: 'payment_store', check: cachedCheck(() => store.ping(), { okMs: 2_000, failedMs: 2_000 }) },
        { name: 'facilitator', check: cachedCheck(async () => { await facilitator.getSupported(); }, { okMs: 15_000, failedMs: 5_000 }) },
      ];
    },
    resolve,
    async close() {
      await store?.close();
    },
    async start() {
      if (!facilitator || !server || !store) return;
      await store.open();
      // Never a facilitator's user, password or query (a token) in a message.
      const url = settings.facilitator!.urls.map(redactUrl).join(' or ');
      let supported;
      try {
        supported = await facilitator.getSupported();
      } catch (error) {
        throw new PaymentConfigError(`the facilitator at ${url} could not be asked what it supports: ${redactUrlsIn(error instanceof Error ? error.message : String(error))}`);
      }
      const live = settings.networks.filter((network) => supports(supported.kinds, network));
      const missing = settings.networks.filter((network) => !live.includes(network));
      if (missing.length > 0) {
        const offered = supported.kinds.map((kind) => `${kind.scheme}@${kind.network} v${kind.x402Version}`).join(', ') || 'nothing';
        throw new PaymentConfigError(`the facilitator at ${url} does not support exact x402 v2 payments on ${missing.join(', ')} (it offers: ${offered}); fix X402_NETWORKS or X402_FACILITATOR_URL`);
      }
      await server.initialize();
      log(`payments: live on ${live.join(', ')} through ${url}; payment records in ${store.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : 'local files'}`, undefined, { event: 'payments_live', networks: live });
    },
  };
}
