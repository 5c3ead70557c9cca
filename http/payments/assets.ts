// What a paying client (npm run pay, npm run mcp --remote) may pay with, and what an amount of it is
// worth in USD. An x402 challenge names an asset by address and an amount in that asset's own units;
// comparing raw units of any token with a cap in USD is meaningless (1 unit of an 18-decimal token
// is 10^-18, not 10^-6). So a client pays only an asset it knows the decimals of:
// - Circle's USDC on the networks of config.ts's USDC table (6 decimals), known without being told;
// - an asset the user names by address (--allow-asset <address>[:decimals], decimals 6 unless said;
//   the local chain's test token through X402_TEST_TOKEN), on any network.
// Every such asset is taken for a USD stablecoin: 1 whole token = USD 1.
// Pure functions, no I/O: the client side imports this, never the server's middleware.
import { NETWORK_NAMES, USDC } from './config.ts';

/** USDC's decimals on every network of the table. */
export const USDC_DECIMALS = 6;
/** The most decimals an allowed asset may have (USD amounts are exact at this scale). */
export const MAX_DECIMALS = 18;
/** USD amounts here are integers of 10^-USD_SCALE USD: exact for any asset of up to MAX_DECIMALS. */
const USD_SCALE = MAX_DECIMALS;

/** An asset named by the user: paid on any network, `decimals` places per whole token (= USD 1). */
export interface AllowedAsset {
  address: string;
  decimals: number;
}

/** An asset a client may pay, as found for a requirement. */
export interface PayableAsset {
  address: string;
  decimals: number;
  /** "USDC", or the address of an allowed asset. */
  name: string;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** `<address>[:decimals]` as given to --allow-asset; an Error naming the problem otherwise. */
export function parseAllowedAsset(text: string): AllowedAsset {
  const [address = '', decimals, ...rest] = text.split(':');
  if (!ADDRESS.test(address) || rest.length > 0) throw new Error(`--allow-asset must be a token address, optionally :decimals, such as 0x…:6 (got ${text})`);
  if (decimals === undefined) return { address, decimals: USDC_DECIMALS };
  if (!/^\d{1,2}$/.test(decimals) || Number(decimals) > MAX_DECIMALS) throw new Error(`--allow-asset ${address}: decimals must be a whole number from 0 to ${MAX_DECIMALS} (got ${decimals})`);
  return { address, decimals: Number(decimals) };
}

/** USDC on `network` from config.ts's table, or null. */
export function knownAsset(network: string, address: string): PayableAsset | null {
  const usdc = Object.hasOwn(USDC, network) ? USDC[network] : undefined;
  if (!usdc || usdc.address.toLowerCase() !== address.toLowerCase()) return null;
  return { address: usdc.address, decimals: USDC_DECIMALS, name: 'USDC' };
}

/** The assets known without being told, for messages and --help: "USDC (6 decimals) on Base (eip155:8453), ...". */
export function knownAssetsText(): string {
  return `USDC (${USDC_DECIMALS} decimals) on ${Object.keys(USDC).map((network) => `${NETWORK_NAMES[network] ?? network} (${network})`).join(', ')}`;
}

/** knownAssetsText() for --help: lines of at most `width` characters, each after `indent`. */
export function knownAssetsLines(indent: string, width = 100): string {
  const lines: string[] = [];
  for (const word of `${knownAssetsText()}.`.split(' ')) {
    const last = lines.length - 1;
    if (last >= 0 && indent.length + lines[last]!.length + 1 + word.length <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines.map((line) => `${indent}${line}`).join('\n');
}

/**
 * The asset of a requirement if this client may pay it: the known table first (USDC's decimals on
 * its own network are a fact), then the assets the user allowed. null: not payable.
 */
export function payableAsset(requirement: { network: string; asset: string }, allowed: readonly AllowedAsset[]): PayableAsset | null {
  if (typeof requirement.network !== 'string' || typeof requirement.asset !== 'string') return null;
  const known = knownAsset(requirement.network, requirement.asset);
  if (known) return known;
  const asset = allowed.find((entry) => entry.address.toLowerCase() === requirement.asset.toLowerCase());
  return asset ? { address: asset.address, decimals: asset.decimals, name: asset.address } : null;
}

/** A USD amount (an integer of 10^-18 USD). */
export type Usd = bigint;

/** `units` of an asset with `decimals` places, in USD; null unless `units` is a whole number of units. */
export function usdOfUnits(units: unknown, decimals: number): Usd | null {
  if (typeof units !== 'string' || !/^\d{1,78}$/.test(units)) return null;
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMALS) return null;
  return BigInt(units) * 10n ** BigInt(USD_SCALE - decimals);
}

/** The USD value of a requirement's amount in its asset, or null when the asset is not payable or the amount no whole number. */
export function usdOfRequirement(requirement: { network: string; asset: string; amount: string }, allowed: readonly AllowedAsset[]): { asset: PayableAsset; usd: Usd } | null {
  const asset = payableAsset(requirement, allowed);
  if (!asset) return null;
  const usd = usdOfUnits(requirement.amount, asset.decimals);
  return usd === null ? null : { asset, usd };
}

/** "0.01" -> USD; null unless a non-negative decimal with at most 6 places (a cent's ten-thousandth). */
export function parseUsd(text: string): Usd | null {
  const match = /^(\d{1,9})(?:\.(\d{1,6}))?$/.exec(text);
  if (!match) return null;
  return BigInt(`${match[1]}${(match[2] ?? '').padEnd(USD_SCALE, '0')}`);
}

/** USD as decimal text, no trailing zeros: 10^16 -> "0.01". */
export function formatUsd(usd: Usd): string {
  const digits = usd.toString().padStart(USD_SCALE + 1, '0');
  const whole = digits.slice(0, -USD_SCALE);
  const fraction = digits.slice(-USD_SCALE).replace(/(?<!0)0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** A USD amount in 6-decimal units (USDC's: 10000 is USD 0.01) as USD. */
export function usdOfMicros(micros: bigint): Usd {
  return micros * 10n ** BigInt(USD_SCALE - USDC_DECIMALS);
}

/** A 6-decimal amount (micro-USD, USDC's units) in USD: 10000 -> "0.01". */
export function usdOf(atomic: bigint): string {
  return formatUsd(usdOfMicros(atomic));
}

/** "0.01" -> 10000n (micro-USD); null unless a non-negative decimal with at most 6 places. */
export function atomicOf(usd: string): bigint | null {
  const value = parseUsd(usd);
  return value === null ? null : value / usdOfMicros(1n);
}
