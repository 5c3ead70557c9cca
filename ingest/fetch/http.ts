// The polite HTTP client of `npm run fetch` (Node's fetch): a User-Agent naming the service, conditional
// requests from the validators of the last version ingested, a timeout per request, bounded retries with
// exponential backoff on connection errors, timeouts, 429 and 5xx (Retry-After honoured), a bound on the
// bytes downloaded, a minimum interval between requests to one host, and FETCH_MIRROR (every
// https://<host>/<path>?<query> fetched as <FETCH_MIRROR>/<host>/<path>?<query>). Bodies stream to a file,
// hashed on the way; nothing is held in memory whole.
import { createHash } from 'node:crypto';
import { open, rm } from 'node:fs/promises';
import { UsageError } from '../command.ts';

/** Names the service to the publishers (they see who asks, and how to tell it apart from a browser). */
export const USER_AGENT = 'public-data-service/0.1.0 (open-data fetch; conditional requests, backoff on 429/5xx)';

export interface HttpSettings {
  /** Milliseconds one request (headers and body) may take. */
  timeoutMs: number;
  /** Retries after the first attempt. */
  retries: number;
  /** First backoff, doubled each retry. */
  backoffMs: number;
  /** The longest wait between attempts (also caps a Retry-After). */
  maxBackoffMs: number;
  /** Bytes one download may have. */
  maxBytes: number;
  /** Prefix that replaces `https://` (FETCH_MIRROR); null: the publishers themselves. */
  mirror: string | null;
}

const MiB = 1024 * 1024;

/** Each setting's variable and default. */
export const HTTP_VARIABLES: ReadonlyArray<{ key: Exclude<keyof HttpSettings, 'mirror'>; variable: string; fallback: number }> = [
  { key: 'timeoutMs', variable: 'FETCH_TIMEOUT_MS', fallback: 300_000 },
  { key: 'retries', variable: 'FETCH_RETRIES', fallback: 4 },
  { key: 'backoffMs', variable: 'FETCH_BACKOFF_MS', fallback: 2_000 },
  { key: 'maxBackoffMs', variable: 'FETCH_MAX_BACKOFF_MS', fallback: 120_000 },
  { key: 'maxBytes', variable: 'FETCH_MAX_BYTES', fallback: 1024 * MiB },
];

/** The settings in force: each variable when set (a whole number >= 0; >= 1 but for retries), else its default. */
export function httpSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): HttpSettings {
  const settings = { mirror: null } as HttpSettings;
  for (const { key, variable, fallback } of HTTP_VARIABLES) {
    const raw = env[variable]?.trim();
    if (raw === undefined || raw === '') {
      settings[key] = fallback;
      continue;
    }
    const least = key === 'retries' ? 0 : 1;
    if (!/^\d{1,15}$/.test(raw) || Number(raw) < least) throw new UsageError(`${variable} must be a whole number >= ${least}, not ${JSON.stringify(raw)}`);
    settings[key] = Number(raw);
  }
  const mirror = env.FETCH_MIRROR?.trim();
  if (mirror) {
    let parsed: URL;
    try {
      parsed = new URL(mirror);
    } catch {
      throw new UsageError(`FETCH_MIRROR must be an http(s) address, not ${JSON.stringify(mirror)}`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`FETCH_MIRROR must be an http(s) address, not ${JSON.stringify(mirror)}`);
    let trimmed = mirror;
    while (trimmed.endsWith('/')) trimmed = trimmed.slice(0, -1);
    settings.mirror = trimmed;
  }
  return settings;
}

/** The address fetched for an official one: the mirror's `<mirror>/<host>/<path>?<query>` when a mirror is set. */
export function mirrored(url: string, mirror: string | null): string {
  if (mirror === null) return url;
  const parsed = new URL(url);
  return `${mirror}/${parsed.host}${parsed.pathname}${parsed.search}`;
}

export interface Validators {
  etag: string | null;
  lastModified: string | null;
}

export interface GetRequest {
  /** The official address (what the import records and the archive name). */
  url: string;
  /** Query parameters added to the address asked only (an API key): never in messages. */
  secret?: Record<string, string>;
  /** Stored validators: sent as If-None-Match / If-Modified-Since. */
  validators?: Validators | null;
  /** Where a 200's body is written. */
  file: string;
  method?: 'GET' | 'POST';
  /** A JSON body (POST). */
  json?: unknown;
  accept?: string;
}

export type GetResult =
  | { status: 'not-modified'; url: string; requests: number }
  | { status: 'downloaded'; url: string; requests: number; sha256: string; bytes: number; validators: Validators };

/** A download that failed for good: the address and why. */
export class FetchFailedError extends Error {
  constructor(readonly url: string, readonly reason: string) {
    super(`${url}: ${reason}`);
    this.name = 'FetchFailedError';
  }
}

/** A failed attempt worth another one (connection error, timeout, 429, 5xx), with the wait the server asked for. */
class RetryableError extends Error {
  constructor(message: string, readonly retryAfterMs: number | null) {
    super(message);
  }
}

export interface HttpClientOptions {
  settings: HttpSettings;
  fetch?: typeof globalThis.fetch;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Minimum milliseconds between two requests to one host (the publisher's rate limit). */
  hostIntervals?: ReadonlyMap<string, number>;
  log?: (line: string) => void;
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (header === null || header.trim() === '') return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const when = Date.parse(text);
  return Number.isNaN(when) ? null : Math.max(0, when - now);
}

export class HttpClient {
  private readonly settings: HttpSettings;
  private readonly fetchImpl: typeof globalThis.fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private readonly hostIntervals: ReadonlyMap<string, number>;
  private readonly log: (line: string) => void;
  /** When each host was last asked (this client's run only). */
  private readonly lastRequestAt = new Map<string, number>();

  constructor(options: HttpClientOptions) {
    this.settings = options.settings;
    this.fetchImpl = options.fetch ?? globalThis.fetch;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.now = options.now ?? Date.now;
    this.hostIntervals = options.hostIntervals ?? new Map();
    this.log = options.log ?? (() => {});
  }

  /** Downloads `request.url` into `request.file` (or learns it is unchanged); throws FetchFailedError after the retries. */
  async get(request: GetRequest): Promise<GetResult> {
    const { retries, backoffMs, maxBackoffMs } = this.settings;
    let lastProblem = '';
    for (let attempt = 0; attempt <= retries; attempt++) {
      try {
        const result = await this.attempt(request);
        return { ...result, requests: attempt + 1 };
      } catch (error) {
        if (!(error instanceof RetryableError)) {
          if (error instanceof FetchFailedError) throw error;
          throw new FetchFailedError(request.url, error instanceof Error ? error.message : String(error));
        }
        lastProblem = error.message;
        if (attempt === retries) break;
        const backoff = Math.min(maxBackoffMs, backoffMs * 2 ** attempt);
        const wait = Math.min(maxBackoffMs, Math.max(backoff, error.retryAfterMs ?? 0));
        this.log(`fetch: ${request.url}: ${error.message}; retry ${attempt + 1} of ${retries} in ${Math.round(wait / 1000)} s`);
        await this.sleep(wait);
      }
    }
    throw new FetchFailedError(request.url, `${lastProblem} (after ${retries + 1} attempts)`);
  }

  private async politePause(address: string): Promise<void> {
    const host = new URL(address).host;
    const interval = this.hostIntervals.get(new URL(address).hostname) ?? this.hostIntervals.get(host) ?? 0;
    const last = this.lastRequestAt.get(host);
    if (interval > 0 && last !== undefined) {
      const wait = last + interval - this.now();
      if (wait > 0) await this.sleep(wait);
    }
    this.lastRequestAt.set(host, this.now());
  }

  private async attempt(request: GetRequest): Promise<Omit<Extract<GetResult, { status: 'downloaded' }>, 'requests'> | Omit<Extract<GetResult, { status: 'not-modified' }>, 'requests'>> {
    await this.politePause(request.url);
    const asked = new URL(request.url);
    for (const [name, value] of Object.entries(request.secret ?? {})) asked.searchParams.set(name, value);
    const address = mirrored(asked.toString(), this.settings.mirror);
    const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: request.accept ?? '*/*' };
    if (request.validators?.etag) headers['if-none-match'] = request.validators.etag;
    if (request.validators?.lastModified) headers['if-modified-since'] = request.validators.lastModified;
    if (request.json !== undefined) headers['content-type'] = 'application/json';
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error('timeout')), this.settings.timeoutMs);
    let response: Response;
    try {
      response = await this.fetchImpl(address, {
        method: request.method ?? 'GET',
        headers,
        body: request.json === undefined ? undefined : JSON.stringify(request.json),
        signal: controller.signal,
        redirect: 'follow',
      });
    } catch (error) {
      clearTimeout(timer);
      throw new RetryableError(controller.signal.aborted ? `no answer within ${this.settings.timeoutMs} ms` : `connection failed: ${causeOf(error)}`, null);
    }
    try {
      if (response.status === 304) {
        await response.body?.cancel();
        return { status: 'not-modified', url: request.url };
      }
      if (response.status === 429 || response.status >= 500) {
        await response.body?.cancel();
        throw new RetryableError(`HTTP ${response.status}`, retryAfterMs(response.headers.get('retry-after'), this.now()));
      }
      if (response.status !== 200) {
        await response.body?.cancel();
        throw new FetchFailedError(request.url, `HTTP ${response.status} ${response.statusText}`.trim());
      }
      const declared = Number(response.headers.get('content-length'));
      if (Number.isFinite(declared) && declared > this.settings.maxBytes) {
        await response.body?.cancel();
        throw new FetchFailedError(request.url, `the answer declares ${declared} bytes, over the bound of ${this.settings.maxBytes} (FETCH_MAX_BYTES)`);
      }
      const { sha256, bytes } = await this.saveBody(request, response, controller);
      return {
        status: 'downloaded', url: request.url, sha256, bytes,
        validators: { etag: response.headers.get('etag'), lastModified: response.headers.get('last-modified') },
      };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Streams the body to the file, hashing it and counting its bytes against the bound. */
  private async saveBody(request: GetRequest, response: Response, controller: AbortController): Promise<{ sha256: string; bytes: number }> {
    const hash = createHash('sha256');
    const handle = await open(request.file, 'w');
    let bytes = 0;
    let complete = false;
    try {
      if (response.body) {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          bytes += chunk.byteLength;
          if (bytes > this.settings.maxBytes) {
            controller.abort(new Error('too large'));
            throw new FetchFailedError(request.url, `the answer passed the bound of ${this.settings.maxBytes} bytes (FETCH_MAX_BYTES)`);
          }
          hash.update(chunk);
          await handle.write(chunk);
        }
      }
      complete = true;
    } catch (error) {
      if (error instanceof FetchFailedError) throw error;
      throw new RetryableError(controller.signal.aborted ? `the answer did not arrive within ${this.settings.timeoutMs} ms` : `the answer broke off: ${causeOf(error)}`, null);
    } finally {
      await handle.close();
      if (!complete) await rm(request.file, { force: true });
    }
    return { sha256: hash.digest('hex'), bytes };
  }
}

function causeOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as Error & { cause?: unknown }).cause;
  const detail = cause instanceof Error ? `${(cause as NodeJS.ErrnoException).code ?? ''} ${cause.message}`.trim() : '';
  return detail ? `${error.message} (${detail})` : error.message;
}
