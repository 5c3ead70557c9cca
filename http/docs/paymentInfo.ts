// The payment facts the documents state (price, networks, recipient), injected so the docs say
// exactly what the running server's x402 challenge asks for. The challenge itself stays authoritative.
import type { Route } from '../../queries/catalog.ts';
import { DEFAULT_NETWORKS, NETWORK_NAMES, PRICE_ATOMIC, PRICE_USD, USDC, type PaymentSettings } from '../payments/config.ts';

export interface PaymentNetwork {
  /** CAIP-2 id, e.g. eip155:8453. */
  network: string;
  /** Human name, e.g. Base. */
  name: string;
  /** USDC contract address on that network. */
  asset: string;
  /** EIP-712 domain of the token (the `extra` of the exact scheme). */
  assetName?: string;
  assetVersion?: string;
}

export interface PaymentInfo {
  /** amount: atomic units (USDC has 6 decimals); usd: the same as a decimal dollar string. */
  price: { amount: string; currency: 'USD'; usd: string; asset: 'USDC' };
  networks: PaymentNetwork[];
  /** The receiving address, the same on every network; null when payments are not configured. */
  payTo: string | null;
  scheme: 'exact';
  x402Version: 2;
  maxTimeoutSeconds?: number;
}

/** What a paid route's challenge offers, per path form (the lead's x402 route table can supply it). */
export interface PaymentRequirementsForResult {
  accepts: object[];
  extensions?: Record<string, unknown>;
}

export type PaymentRequirementsFor = (route: Route, resourceUrl: string, path: string) => PaymentRequirementsForResult;

function networksOf(networks: readonly string[], assets: PaymentSettings['assets']): PaymentNetwork[] {
  return networks.map((network) => ({
    network,
    name: NETWORK_NAMES[network] ?? network,
    asset: assets[network]?.address ?? '',
    assetName: assets[network]?.name ?? 'USD Coin',
    assetVersion: assets[network]?.version ?? '2',
  }));
}

/** The specification's defaults: USD 0.01 in USDC on Base, Polygon and Arbitrum One. */
export function defaultPaymentInfo(): PaymentInfo {
  return {
    price: { amount: PRICE_ATOMIC, currency: 'USD', usd: PRICE_USD, asset: 'USDC' },
    networks: networksOf(DEFAULT_NETWORKS, USDC),
    payTo: null,
    scheme: 'exact',
    x402Version: 2,
    maxTimeoutSeconds: 300,
  };
}

/** The payment facts of a configured server (its networks, assets and receiving address). */
export function paymentInfoFromSettings(settings: PaymentSettings): PaymentInfo {
  return {
    price: { amount: settings.amount, currency: 'USD', usd: PRICE_USD, asset: 'USDC' },
    networks: networksOf(settings.networks, settings.assets),
    payTo: settings.payTo,
    scheme: 'exact',
    x402Version: 2,
    maxTimeoutSeconds: settings.maxTimeoutSeconds,
  };
}
