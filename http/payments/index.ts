// Payments for the app: the x402 resource server over the catalog, its startup check against the
// facilitator, and the middleware the request pipeline runs on paid routes (with the revenue ledger and the
// store of settled answers for safe retries beside it).
import { x402HTTPResourceServer, x402ResourceServer, type FacilitatorClient } from '@x402/core/server';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { bazaarResourceServerExtension } from '@x402/extensions/bazaar';
import { paymentIdentifierResourceServerExtension } from '@x402/extensions/payment-identifier';
import type Koa from 'koa';
import type { Route } from '../../queries/catalog.ts';
import { paymentRoutesConfig } from './challenge.ts';
import { PaymentConfigError, type PaymentSettings } from './config.ts';
import { exemption, type ClientRequest } from './exemption.ts';
import { createFacilitatorClient } from './facilitatorClient.ts';
import { RevenueLedger } from './ledger.ts';
import { paymentMiddleware } from './middleware.ts';
import { PaidAnswerStore } from './paidAnswers.ts';

export interface PaymentsOptions {
  routes: readonly Route[];
  settings: PaymentSettings;
  baseUrl: string;
  now?: () => Date;
  log?: (message: string, error?: unknown) => void;
  /** The facilitator client; default the HTTP client of `settings.facilitator` (the benchmark passes one answering in-process). */
  facilitatorClient?: FacilitatorClient;
}

export interface Payments {
  settings: PaymentSettings;
  /** The pipeline's payment stage (createApp's `beforeHandler`). */
  middleware: Koa.Middleware;
  /** Whether the middleware would ask this request for a payment (a paid route, a client not exempt). */
  needsPayment(route: Route, request: ClientRequest): boolean;
  /**
   * Asks the facilitator's /supported and logs which configured networks are live; throws
   * PaymentConfigError when one is not supported or the facilitator cannot be asked.
   */
  start(): Promise<void>;
}

function supports(kinds: ReadonlyArray<{ x402Version: number; scheme: string; network: string }>, network: string): boolean {
  return kinds.some(
    (kind) => kind.x402Version === 2 && kind.scheme === 'exact' &&
      (kind.network === network || (kind.network.endsWith(':*') && network.startsWith(kind.network.slice(0, -1)))),
  );
}

export function createPayments(options: PaymentsOptions): Payments {
  const { settings } = options;
  const log = options.log ?? ((message: string, error?: unknown) => console.error(message, error ?? ''));
  const facilitator: FacilitatorClient | null = settings.facilitator ? options.facilitatorClient ?? createFacilitatorClient(settings.facilitator) : null;
  let server: x402HTTPResourceServer | null = null;
  if (facilitator && settings.payTo) {
    const resourceServer = new x402ResourceServer(facilitator);
    for (const network of settings.networks) resourceServer.register(network as `${string}:${string}`, new ExactEvmScheme());
    resourceServer.registerExtension(bazaarResourceServerExtension);
    resourceServer.registerExtension(paymentIdentifierResourceServerExtension);
    server = new x402HTTPResourceServer(resourceServer, paymentRoutesConfig(options.routes, settings));
  }
  const isExempt = exemption(settings);
  return {
    settings,
    needsPayment: (route, request) => route.paid && !isExempt(request),
    middleware: paymentMiddleware({
      server,
      isExempt,
      baseUrl: options.baseUrl,
      ledger: server ? new RevenueLedger(settings.ledgerPath) : null,
      answers: server ? new PaidAnswerStore({ ...settings.paidAnswers, now: options.now, log }) : null,
      now: options.now ?? (() => new Date()),
      log,
    }),
    async start() {
      if (!facilitator || !server) return;
      const url = settings.facilitator!.urls.join(' or ');
      let supported;
      try {
        supported = await facilitator.getSupported();
      } catch (error) {
        throw new PaymentConfigError(`the facilitator at ${url} could not be asked what it supports: ${error instanceof Error ? error.message : String(error)}`);
      }
      const live = settings.networks.filter((network) => supports(supported.kinds, network));
      const missing = settings.networks.filter((network) => !live.includes(network));
      if (missing.length > 0) {
        const offered = supported.kinds.map((kind) => `${kind.scheme}@${kind.network} v${kind.x402Version}`).join(', ') || 'nothing';
        throw new PaymentConfigError(`the facilitator at ${url} does not support exact x402 v2 payments on ${missing.join(', ')} (it offers: ${offered}); fix X402_NETWORKS or X402_FACILITATOR_URL`);
      }
      await server.initialize();
      log(`payments: live on ${live.join(', ')} through ${url}`);
    },
  };
}
