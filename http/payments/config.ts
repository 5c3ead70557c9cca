// Payment settings from the environment (README "Configuration"). Malformed values are refused
// with a message naming the variable; production additionally requires the pay-to address and
// the facilitator. In development without them payments are "not configured": loopback is served
// and every other client of a paid route gets 503.
import { isIPv4, isIPv6 } from 'node:net';
import { dirname, join } from 'node:path';
import { booleanSetting, ConfigError } from '../configError.ts';
import { redactUrl } from '../log.ts';

export interface PaymentAsset {
  /** Token contract address. */
  address: string;
  /** EIP-712 domain name and version of the token. */
  name: string;
  version: string;
}

export type FacilitatorPath = 'verify' | 'settle' | 'supported';

/** A CDP API key (CDP_API_KEY_ID, CDP_API_KEY_SECRET). The secret is not enumerable: JSON and util.inspect leave it out. */
export interface CdpApiKey {
  id: string;
  secret: string;
}

export interface FacilitatorSettings {
  /** X402_FACILITATOR_URL: one or more facilitators, in order of preference (the first healthy one is used). */
  urls: string[];
  /** Extra request headers per facilitator path (authentication), sent to every facilitator. */
  headers: Partial<Record<FacilitatorPath, Record<string, string>>>;
  timeoutMs: number;
  /** The CDP API key that signs each request to the Coinbase facilitator (api.cdp.coinbase.com); null: none. */
  cdp: CdpApiKey | null;
}

export interface PaymentSettings {
  production: boolean;
  /** null when payments are not configured (development only). */
  payTo: string | null;
  facilitator: FacilitatorSettings | null;
  networks: string[];
  assets: Record<string, PaymentAsset>;
  /** Atomic units of USDC (6 decimals): "10000" is USD 0.01. */
  amount: string;
  maxTimeoutSeconds: number;
  exemptLoopback: boolean;
  /** IPs and CIDRs served without payment. */
  allowlist: string[];
  /** TRUST_PROXY given: the client address comes from X-Forwarded-For (proxyHops > 0). */
  trustProxy: boolean;
  /**
   * TRUST_PROXY as a count of reverse proxies in front of the server (false = 0, true = 1): the
   * client is the X-Forwarded-For entry the outermost trusted proxy appended, counted from the right.
   */
  proxyHops: number;
  /** The revenue ledger file (JSON lines). */
  ledgerPath: string;
  /** Settled answers kept for safe retries (payment-identifier): file, bound in bytes, bound in age. */
  paidAnswers: { path: string; maxBytes: number; maxAgeSeconds: number };
  /** DATABASE_URL: the shared PostgreSQL store of every replica; null: the embedded file store. */
  databaseUrl: string | null;
  /** An authorization with less validity left than this is refused before verification (X402_MIN_VALIDITY_SECONDS). */
  minValiditySeconds: number;
  /** X402_RPC_URLS: a JSON-RPC address per network, to read a token's authorization state directly. */
  rpcUrls: Record<string, string>;
}

/** USD 0.01 in USDC's 6-decimal units: the one price of every paid route. */
export const PRICE_ATOMIC = '10000';
export const PRICE_USD = '0.01';
export const DEFAULT_NETWORKS = ['eip155:8453', 'eip155:137', 'eip155:42161'];

/** Circle's USDC per network (FiatToken v2: EIP-712 name "USD Coin", version "2"). */
export const USDC: Record<string, PaymentAsset> = {
  'eip155:8453': { address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', name: 'USD Coin', version: '2' },
  'eip155:137': { address: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', name: 'USD Coin', version: '2' },
  'eip155:42161': { address: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', name: 'USD Coin', version: '2' },
  'eip155:84532': { address: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', name: 'USDC', version: '2' },
  'eip155:421614': { address: '0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d', name: 'USD Coin', version: '2' },
};

export const NETWORK_NAMES: Record<string, string> = {
  'eip155:8453': 'Base',
  'eip155:137': 'Polygon',
  'eip155:42161': 'Arbitrum One',
  'eip155:84532': 'Base Sepolia',
  'eip155:421614': 'Arbitrum Sepolia',
  'eip155:31337': 'Local development chain',
};

/** A bad payment setting (X402_*, TRUST_PROXY, PAID_ANSWERS_*, ...). */
export class PaymentConfigError extends ConfigError {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentConfigError';
  }
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const CAIP2_EVM = /^eip155:[1-9][0-9]*$/;

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  return booleanSetting(env, name, fallback, (message) => new PaymentConfigError(message));
}

/** TRUST_PROXY: false/0 (no proxy: the socket address), true (one proxy) or a hop count up to 16. */
function proxyHops(env: NodeJS.ProcessEnv): number {
  const raw = env.TRUST_PROXY?.trim();
  if (raw === undefined || raw === '') return 0;
  if (/^(true|yes)$/i.test(raw)) return 1;
  if (/^(false|no)$/i.test(raw)) return 0;
  if (/^[0-9]{1,2}$/.test(raw) && Number(raw) <= 16) return Number(raw);
  throw new PaymentConfigError(`TRUST_PROXY must be true or false, or the number of reverse proxies in front of the server (0 to 16) (got "${env.TRUST_PROXY}")`);
}

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[1-9][0-9]*$/.test(raw)) throw new PaymentConfigError(`${name} must be a positive integer (got "${raw}")`);
  return Number(raw);
}

/** Settings whose value holds secrets: a message never quotes it. */
const SECRET_SETTINGS = new Set(['X402_FACILITATOR_HEADERS']);

function parseJson(env: NodeJS.ProcessEnv, name: string): unknown {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch (error) {
    const got = SECRET_SETTINGS.has(name) ? `${raw.length} characters, not shown: ${(error as Error).message.replace(/"[^"]*"/g, '"..."')}` : `"${raw}"`;
    throw new PaymentConfigError(`${name} must be JSON (got ${got})`);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readAssets(env: NodeJS.ProcessEnv): Record<string, PaymentAsset> {
  const overrides = parseJson(env, 'X402_ASSETS');
  if (overrides === undefined) return { ...USDC };
  if (!isPlainObject(overrides)) throw new PaymentConfigError('X402_ASSETS must be a JSON object keyed by network');
  const assets = { ...USDC };
  for (const [network, asset] of Object.entries(overrides)) {
    if (!CAIP2_EVM.test(network)) throw new PaymentConfigError(`X402_ASSETS: "${network}" is not a CAIP-2 EVM network such as eip155:8453`);
    if (!isPlainObject(asset) || typeof asset.address !== 'string' || !ADDRESS.test(asset.address)) {
      throw new PaymentConfigError(`X402_ASSETS["${network}"].address must be a 0x-prefixed 20-byte hex address`);
    }
    assets[network] = {
      address: asset.address,
      name: typeof asset.name === 'string' ? asset.name : 'USD Coin',
      version: typeof asset.version === 'string' ? asset.version : '2',
    };
  }
  return assets;
}

function readNetworks(env: NodeJS.ProcessEnv, assets: Record<string, PaymentAsset>): string[] {
  const raw = env.X402_NETWORKS;
  const networks = raw === undefined || raw.trim() === '' ? DEFAULT_NETWORKS : raw.split(',').map((n) => n.trim()).filter(Boolean);
  for (const network of networks) {
    if (!CAIP2_EVM.test(network)) throw new PaymentConfigError(`X402_NETWORKS: "${network}" is not a CAIP-2 EVM network such as eip155:8453`);
    if (!assets[network]) throw new PaymentConfigError(`X402_NETWORKS: no USDC asset known for ${network}; add it with X402_ASSETS`);
  }
  return [...new Set(networks)];
}

function readAllowlist(env: NodeJS.ProcessEnv): string[] {
  const raw = env.X402_ALLOWLIST ?? '';
  const entries = raw.split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    const [address, prefix, ...rest] = entry.split('/');
    const family = isIPv4(address!) ? 4 : isIPv6(address!) ? 6 : 0;
    const prefixOk = prefix === undefined || (/^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
    if (family === 0 || !prefixOk || rest.length > 0) {
      throw new PaymentConfigError(`X402_ALLOWLIST: "${entry}" is not an IP address or CIDR`);
    }
  }
  return entries;
}

function readFacilitatorHeaders(env: NodeJS.ProcessEnv): FacilitatorSettings['headers'] {
  const parsed = parseJson(env, 'X402_FACILITATOR_HEADERS');
  if (parsed === undefined) return {};
  const problem = 'X402_FACILITATOR_HEADERS must be a JSON object keyed by path (verify, settle, supported), each an object of header strings';
  if (!isPlainObject(parsed)) throw new PaymentConfigError(problem);
  const headers: FacilitatorSettings['headers'] = {};
  for (const [path, values] of Object.entries(parsed)) {
    if (path !== 'verify' && path !== 'settle' && path !== 'supported') throw new PaymentConfigError(`${problem}; unknown path "${path}"`);
    if (!isPlainObject(values) || !Object.values(values).every((v) => typeof v === 'string')) throw new PaymentConfigError(problem);
    headers[path] = values as Record<string, string>;
  }
  return headers;
}

function readDatabaseUrl(env: NodeJS.ProcessEnv): string | null {
  const raw = env.DATABASE_URL?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new PaymentConfigError('DATABASE_URL must be a postgres:// address such as postgres://user@host:5432/database');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new PaymentConfigError(`DATABASE_URL must be a postgres:// address (got a ${url.protocol} address)`);
  }
  return raw;
}

/** X402_RPC_URLS: "eip155:8453=https://...,eip155:137=https://..." (only configured networks). */
function readRpcUrls(env: NodeJS.ProcessEnv, networks: readonly string[]): Record<string, string> {
  const urls: Record<string, string> = {};
  for (const entry of (env.X402_RPC_URLS ?? '').split(',').map((item) => item.trim()).filter(Boolean)) {
    const at = entry.indexOf('=');
    const network = at > 0 ? entry.slice(0, at).trim() : '';
    const address = at > 0 ? entry.slice(at + 1).trim() : '';
    // Never the address itself in a message: an RPC address often carries an API key.
    if (!CAIP2_EVM.test(network)) throw new PaymentConfigError(`X402_RPC_URLS: each entry must be network=url, such as eip155:8453=https://mainnet.base.org (got ${at > 0 ? `the network "${network}"` : 'an entry without "network="'})`);
    if (!networks.includes(network)) throw new PaymentConfigError(`X402_RPC_URLS: ${network} is not one of X402_NETWORKS (${networks.join(', ')})`);
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      throw new PaymentConfigError(`X402_RPC_URLS: the address for ${network} must be an http(s) URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new PaymentConfigError(`X402_RPC_URLS: the address for ${network} must be an http(s) URL`);
    urls[network] = address;
  }
  return urls;
}

/** An address as a message may quote it: without user, password and query; not at all when it may hold one and cannot be read. */
function shownAddress(raw: string): string {
  if (URL.canParse(raw)) return `"${redactUrl(raw)}"`;
  return /[@?#]/.test(raw) ? `${raw.length} characters, not shown` : `"${raw}"`;
}

function readFacilitatorUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new PaymentConfigError(`X402_FACILITATOR_URL must be an http(s) URL (got ${shownAddress(raw)})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PaymentConfigError(`X402_FACILITATOR_URL must be an http(s) URL (got ${shownAddress(raw)})`);
  }
  // fetch refuses such an address (and quotes it, password included, in its error): say so at start.
  if (url.username || url.password) {
    throw new PaymentConfigError(`X402_FACILITATOR_URL must not carry a user or password (got one in ${shownAddress(raw)}); send credentials with X402_FACILITATOR_HEADERS`);
  }
  return raw.replace(/(?<!\/)\/+$/, '');
}

/** X402_FACILITATOR_URL: a comma-separated list of http(s) URLs, each once, in order of preference. */
function readFacilitatorUrls(raw: string): string[] {
  const urls = raw.split(',').map((entry) => entry.trim()).filter(Boolean).map(readFacilitatorUrl);
  if (urls.length === 0) throw new PaymentConfigError('X402_FACILITATOR_URL must be an http(s) URL or a comma-separated list of them (got only commas)');
  const repeated = urls.find((url, i) => urls.indexOf(url) !== i);
  if (repeated !== undefined) throw new PaymentConfigError(`X402_FACILITATOR_URL lists ${redactUrl(repeated)} twice`);
  return urls;
}

/** CDP_API_KEY_ID and CDP_API_KEY_SECRET: both or neither. The secret never appears in a message. */
function readCdpApiKey(env: NodeJS.ProcessEnv): CdpApiKey | null {
  const id = env.CDP_API_KEY_ID?.trim() || null;
  const secret = env.CDP_API_KEY_SECRET?.trim() || null;
  if (!id && !secret) return null;
  if (!id || !secret) {
    throw new PaymentConfigError(`set both CDP_API_KEY_ID and CDP_API_KEY_SECRET, or neither (got only ${id ? 'CDP_API_KEY_ID' : 'CDP_API_KEY_SECRET'})`);
  }
  const key = { id } as CdpApiKey;
  Object.defineProperty(key, 'secret', { value: secret, enumerable: false });
  return key;
}

export function readPaymentSettings(env: NodeJS.ProcessEnv = process.env): PaymentSettings {
  const production = (env.NODE_ENV ?? 'development') === 'production';
  const payToRaw = env.X402_PAY_TO?.trim() || null;
  const facilitatorRaw = env.X402_FACILITATOR_URL?.trim() || null;
  if (production && (!payToRaw || !facilitatorRaw)) {
    const missing = [!payToRaw && 'X402_PAY_TO', !facilitatorRaw && 'X402_FACILITATOR_URL'].filter(Boolean).join(' and ');
    throw new PaymentConfigError(`NODE_ENV=production requires ${missing}: paid routes cannot be served without a pay-to address and a facilitator`);
  }
  if (Boolean(payToRaw) !== Boolean(facilitatorRaw)) {
    throw new PaymentConfigError(`set both X402_PAY_TO and X402_FACILITATOR_URL, or neither (got only ${payToRaw ? 'X402_PAY_TO' : 'X402_FACILITATOR_URL'})`);
  }
  if (payToRaw && !ADDRESS.test(payToRaw)) throw new PaymentConfigError(`X402_PAY_TO must be a 0x-prefixed 20-byte hex address (got "${payToRaw}")`);
  const assets = readAssets(env);
  const hops = proxyHops(env);
  const ledgerPath = env.REVENUE_LEDGER?.trim() || 'data/revenue/ledger.jsonl';
  const networks = readNetworks(env, assets);
  const cdp = readCdpApiKey(env);
  return {
    production,
    payTo: payToRaw,
    facilitator: facilitatorRaw
      ? {
          urls: readFacilitatorUrls(facilitatorRaw),
          headers: readFacilitatorHeaders(env),
          timeoutMs: positiveInteger(env, 'X402_FACILITATOR_TIMEOUT_MS', 15_000),
          cdp,
        }
      : null,
    networks,
    assets,
    amount: PRICE_ATOMIC,
    maxTimeoutSeconds: positiveInteger(env, 'X402_MAX_TIMEOUT_SECONDS', 300),
    exemptLoopback: flag(env, 'X402_EXEMPT_LOOPBACK', !production),
    allowlist: readAllowlist(env),
    trustProxy: hops > 0,
    proxyHops: hops,
    ledgerPath,
    paidAnswers: {
      // Beside the revenue ledger unless PAID_ANSWERS_PATH says otherwise.
      path: env.PAID_ANSWERS_PATH?.trim() || join(dirname(ledgerPath), 'settlements.jsonl'),
      maxBytes: positiveInteger(env, 'PAID_ANSWERS_MAX_BYTES', 64 * 1024 * 1024),
      maxAgeSeconds: positiveInteger(env, 'PAID_ANSWERS_MAX_AGE_SECONDS', 24 * 60 * 60),
    },
    databaseUrl: readDatabaseUrl(env),
    minValiditySeconds: positiveInteger(env, 'X402_MIN_VALIDITY_SECONDS', 20),
    rpcUrls: readRpcUrls(env, networks),
  };
}
