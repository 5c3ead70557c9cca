// A local x402 facilitator for development and tests: the official x402Facilitator with the exact
// EVM scheme, settling on the in-process chain, served over HTTP (POST /verify, POST /settle,
// GET /supported) like a hosted one. Optionally requires an authorization header, or headers that
// pass a check (e.g. a token signed afresh for each request), so the server's facilitator headers can
// be exercised.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { x402Facilitator } from '@x402/core/facilitator';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/facilitator';
import { createWalletClient, custom, publicActions } from 'viem';
import { DEV_NETWORK, devChain, type DevChain } from './chain.ts';

const MAX_BODY_BYTES = 256 * 1024;

export interface FacilitatorOptions {
  chain: DevChain;
  port?: number;
  host?: string;
  /** When set, every request must carry `Authorization: <value>`; others get 401. */
  authorization?: string;
  /** When set, a request whose headers it refuses gets 401 (checked after `authorization`). */
  checkHeaders?: (headers: IncomingHttpHeaders, path: string) => boolean;
  /** Networks announced in /supported (default: the local chain only; others cannot settle). */
  networks?: string[];
}

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | null;
  /** All request headers (lower-case names). */
  headers: IncomingHttpHeaders;
  body: unknown;
  /** The facilitator's answer (verify or settle result), once given. */
  result?: unknown;
}

/** Faults a test switches on to play a facilitator (or the network in front of it) losing answers. */
export interface FacilitatorFaults {
  /** The next N /settle calls are carried out on chain, then their answer is lost: the connection is reset, or a proxy-style 504 is sent. */
  loseSettleAnswers: number;
  loseAs: 'reset' | 'gateway-timeout';
  /** The next N /settle calls are neither carried out nor answered (the caller times out; nothing moved). */
  stallSettles: number;
  /** Answer a /settle of an authorization already settled here with the first result (as some hosted facilitators do) instead of refusing it as used. */
  repeatFirstSettleResult: boolean;
}

export interface LocalFacilitator {
  url: string;
  port: number;
  /** Every request received, in order (tests read it). */
  requests: RecordedRequest[];
  faults: FacilitatorFaults;
  /** The chain's JSON-RPC over HTTP (POST), for X402_RPC_URLS. */
  rpcUrl: string;
  /** Stops listening; `start()` listens again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export function createLocalFacilitator(chain: DevChain, networks: string[] = [DEV_NETWORK]): x402Facilitator {
  const client = createWalletClient({ chain: devChain, transport: custom(chain.provider), account: chain.addresses.facilitator })
    .extend(publicActions);
  const signer = toFacilitatorEvmSigner({ ...client, address: chain.addresses.facilitator } as never);
  return registerExactEvmScheme(new x402Facilitator(), { signer, networks: networks as `${string}:${string}`[] });
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('request body too large'));
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
}

export async function startLocalFacilitator(options: FacilitatorOptions): Promise<LocalFacilitator> {
  const facilitator = createLocalFacilitator(options.chain, options.networks);
  const requests: RecordedRequest[] = [];
  const faults: FacilitatorFaults = { loseSettleAnswers: 0, loseAs: 'reset', stallSettles: 0, repeatFirstSettleResult: false };
  /** First settle result per authorization (payer:nonce), for repeatFirstSettleResult. */
  const firstSettles = new Map<string, unknown>();
  const authorizationKey = (payload: unknown): string => {
    const authorization = (payload as { payload?: { authorization?: { from?: string; nonce?: string } } }).payload?.authorization;
    return `${authorization?.from?.toLowerCase()}:${authorization?.nonce?.toLowerCase()}`;
  };
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const authorization = request.headers.authorization ?? null;
    const raw = request.method === 'POST' ? await readBody(request) : '';
    let body: { paymentPayload?: unknown; paymentRequirements?: unknown } = {};
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      return send(response, 400, { error: 'invalid JSON' });
    }
    const recorded: RecordedRequest = { method: request.method ?? '', path, authorization, headers: request.headers, body };
    requests.push(recorded);
    if (options.authorization !== undefined && authorization !== options.authorization) {
      return send(response, 401, { error: 'unauthorized' });
    }
    if (options.checkHeaders && !options.checkHeaders(request.headers, path)) return send(response, 401, { error: 'unauthorized' });
    if (request.method === 'GET' && path === '/supported') return send(response, 200, facilitator.getSupported());
    if (request.method === 'POST' && path === '/rpc') {
      const call = body as { id?: unknown; method?: string; params?: unknown[] };
      try {
        const result = await options.chain.provider.request({ method: call.method as never, params: call.params as never });
        return send(response, 200, { jsonrpc: '2.0', id: call.id ?? null, result });
      } catch (error) {
        return send(response, 200, { jsonrpc: '2.0', id: call.id ?? null, error: { code: -32000, message: error instanceof Error ? error.message : String(error) } });
      }
    }
    if (request.method === 'POST' && (path === '/verify' || path === '/settle')) {
      if (!body.paymentPayload || !body.paymentRequirements) return send(response, 400, { error: 'paymentPayload and paymentRequirements are required' });
      if (path === '/settle' && faults.stallSettles > 0) {
        faults.stallSettles -= 1;
        return; // never answered: the connection is closed by the caller's timeout or by stop()
      }
      const key = authorizationKey(body.paymentPayload);
      const repeated = path === '/settle' && faults.repeatFirstSettleResult ? firstSettles.get(key) : undefined;
      const result = repeated ?? (path === '/verify'
        ? await facilitator.verify(body.paymentPayload as never, body.paymentRequirements as never)
        : await facilitator.settle(body.paymentPayload as never, body.paymentRequirements as never));
      recorded.result = result;
      if (path === '/settle' && (result as { success?: boolean }).success && !firstSettles.has(key)) firstSettles.set(key, result);
      if (path === '/settle' && faults.loseSettleAnswers > 0) {
        faults.loseSettleAnswers -= 1;
        if (faults.loseAs === 'reset') return void request.socket.destroy();
        response.writeHead(504, { 'Content-Type': 'text/html' });
        return void response.end('<html><body>504 Gateway Time-out</body></html>');
      }
      return send(response, 200, result);
    }
    send(response, 404, { error: 'not found' });
  };

  let server: Server | undefined;
  let port = options.port ?? 0;
  const host = options.host ?? '127.0.0.1';
  const start = async (): Promise<void> => {
    const listening = createServer((request, response) => {
      handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) send(response, 500, { error: error instanceof Error ? error.message : String(error) });
      });
    });
    await new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      listening.listen(port, host, () => resolve());
    });
    port = (listening.address() as AddressInfo).port;
    server = listening;
  };
  await start();
  return {
    get url() {
      return `http://${host}:${port}`;
    },
    get port() {
      return port;
    },
    requests,
    faults,
    get rpcUrl() {
      return `http://${host}:${port}/rpc`;
    },
    start,
    async stop() {
      const closing = server;
      server = undefined;
      if (!closing) return;
      closing.closeAllConnections();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
  };
}
