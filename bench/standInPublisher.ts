// A loopback stand-in for the publishers, reached through FETCH_MIRROR (the fetch tests and the no-change
// refresh bench, bench/refreshUnchanged.ts): it answers GET /<host>/<path>?<query> with the recorded answer for
// https://<host>/<path>?<query>, with an ETag and a Last-Modified, 304 to a matching If-None-Match, and
// answers that fail on purpose (a status a given number of times, a Retry-After). POST requests (the
// data.egov.bg API) are answered by a handler given the parsed JSON body. Every request is recorded, with its body.
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  body: Buffer;
  contentType?: string;
  lastModified?: string;
}

export interface SeenRequest {
  url: string;
  headers: IncomingHttpHeaders;
  status: number;
  method: string;
  /** The parsed JSON body of a POST. */
  body?: unknown;
}

/** Answers a POST from its JSON body; undefined: 404. */
export type PostHandler = (body: unknown) => Recorded | undefined;

export class StandInPublisher {
  private readonly answers = new Map<string, Recorded>();
  /** Per official address: statuses to answer first (each once), before the recorded answer. */
  private readonly failures = new Map<string, Array<{ status: number; retryAfter?: string }>>();
  private readonly postHandlers = new Map<string, PostHandler>();
  readonly requests: SeenRequest[] = [];
  private server: Server | null = null;
  mirror = '';

  /** Sets (or replaces) the answer for an official https address. */
  publish(url: string, recorded: Recorded): void {
    this.answers.set(url, { lastModified: new Date('2026-11-20T10:00:00Z').toUTCString(), ...recorded });
  }

  /** Answers POSTs to an official https address. */
  answerPost(url: string, handler: PostHandler): void {
    this.postHandlers.set(url, handler);
  }

  failFirst(url: string, status: number, times: number, retryAfter?: string): void {
    this.failures.set(url, Array.from({ length: times }, () => ({ status, retryAfter })));
  }

  requestsFor(url: string): SeenRequest[] {
    return this.requests.filter((request) => request.url === url);
  }

  async start(): Promise<string> {
    this.server = createServer((request, response) => void (async () => {
      const official = `https:/${request.url ?? '/'}`;
      const method = request.method ?? 'GET';
      let posted: unknown;
      if (method === 'POST') {
        const chunks: Buffer[] = [];
        for await (const chunk of request) chunks.push(chunk as Buffer);
        posted = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      }
      const answer = (status: number, headers: Record<string, string> = {}, body?: Buffer) => {
        this.requests.push({ url: official, headers: request.headers, status, method, ...(method === 'POST' ? { body: posted } : {}) });
        response.writeHead(status, headers).end(body);
      };
      const queued = this.failures.get(official);
      if (queued && queued.length > 0) {
        const failure = queued.shift()!;
        answer(failure.status, failure.retryAfter ? { 'retry-after': failure.retryAfter } : {}, Buffer.from('unavailable'));
        return;
      }
      const handler = method === 'POST' ? this.postHandlers.get(official) : undefined;
      const handled = handler?.(posted);
      const recorded = method === 'POST' ? (handled && { lastModified: new Date('2026-11-20T10:00:00Z').toUTCString(), ...handled }) : this.answers.get(official);
      if (!recorded) {
        answer(404, { 'content-type': 'text/plain' }, Buffer.from(`no recorded answer for ${official}`));
        return;
      }
      const etag = `"${createHash('sha256').update(recorded.body).digest('hex').slice(0, 16)}"`;
      const validators = { etag, 'last-modified': recorded.lastModified! };
      if (request.headers['if-none-match'] === etag) {
        answer(304, validators);
        return;
      }
      answer(200, { ...validators, 'content-type': recorded.contentType ?? 'application/octet-stream', 'content-length': String(recorded.body.length) }, recorded.body);
    })().catch((error: unknown) => {
      // A stand-in that cannot answer says so, rather than leaving the client waiting.
      if (!response.headersSent) response.writeHead(500).end(String(error));
    }));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.mirror = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.mirror;
  }

  async stop(): Promise<void> {
    if (this.server) await new Promise((resolve) => this.server!.close(resolve));
    this.server = null;
  }
}
