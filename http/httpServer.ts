// The HTTP server of the app, with its timeouts set (README "Limits"): the request head must arrive
// within headersTimeout and the whole request, body included, within requestTimeout (408 and the
// connection closed otherwise; Node's defaults are 60 s and 5 minutes), and an idle kept-alive
// connection closes after keepAliveTimeout. Node checks the first two every connectionsCheckingInterval
// (default 30 s): it is set to a fraction of the head timeout so a slow client is cut near the bound.
//
// `Expect: 100-continue`: Node would send `100 Continue` as soon as the head arrives. Here the request
// goes to the app without it, and the body reader sends it only once the body's checks passed (route,
// content type, declared length; http/body.ts): a refused body is answered (413, 415, 404, ...)
// without being read.
import http, { type IncomingMessage, type Server } from 'node:http';
import type { HttpTimeouts } from './limitsConfig.ts';

const awaitingContinue = new WeakSet<IncomingMessage>();

/** Whether the client waits for `100 Continue` before it sends the body, and none was sent yet. */
export function awaitsContinue(request: IncomingMessage): boolean {
  return awaitingContinue.has(request);
}

/** Sends `100 Continue` to a client waiting for it (once): its body is about to be read. */
export function sendContinue(request: IncomingMessage, response: http.ServerResponse): void {
  if (!awaitingContinue.delete(request)) return;
  if (!response.headersSent && !response.destroyed) response.writeContinue();
}

/** How often Node looks for connections past their head or request timeout: a quarter of the head timeout, 100 ms to 1 s. */
export function connectionsCheckingInterval(timeouts: HttpTimeouts): number {
  return Math.min(1000, Math.max(100, Math.floor(timeouts.headersTimeoutMs / 4)));
}

/** The app's request listener (Koa's callback: it handles its own failures). */
export type AppListener = (request: IncomingMessage, response: http.ServerResponse) => void | Promise<void>;

export function createHttpServer(appListener: AppListener, timeouts: HttpTimeouts): Server {
  const listener = (request: IncomingMessage, response: http.ServerResponse) => void appListener(request, response);
  const server = http.createServer(
    {
      headersTimeout: timeouts.headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      keepAliveTimeout: timeouts.keepAliveTimeoutMs,
      connectionsCheckingInterval: connectionsCheckingInterval(timeouts),
    },
    listener,
  );
  server.on('checkContinue', (request: IncomingMessage, response: http.ServerResponse) => {
    awaitingContinue.add(request);
    listener(request, response);
  });
  return server;
}
