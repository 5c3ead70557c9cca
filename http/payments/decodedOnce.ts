// x402's HTTP resource server decodes PAYMENT-SIGNATURE itself (its private `extractPayment`), after
// the payment middleware has decoded the same header to read the payment identifier. One decode
// (base64, then JSON with the echoed extension declarations) costs about 0.1 ms on the server, a
// tenth of a paid request's CPU, so the server is handed the middleware's payload for the request it
// was decoded for: the same function on the same header gives the same payload. A request the
// middleware did not decode, or a package version without that method, decodes as before.
import type { HTTPAdapter, x402HTTPResourceServer } from '@x402/core/server';
import type { PaymentPayload } from '@x402/core/types';

type Extracting = { extractPayment?: (adapter: HTTPAdapter) => PaymentPayload | null };

/** Makes `server` take the payload registered for an adapter; returns the registry (weak: one entry per request). */
export function decodeOnce(server: x402HTTPResourceServer): WeakMap<HTTPAdapter, PaymentPayload> {
  const decoded = new WeakMap<HTTPAdapter, PaymentPayload>();
  const target = server as unknown as Extracting;
  const extract = target.extractPayment;
  if (typeof extract === 'function') {
    target.extractPayment = function (this: unknown, adapter: HTTPAdapter) {
      return decoded.get(adapter) ?? extract.call(this, adapter);
    };
  }
  return decoded;
}
