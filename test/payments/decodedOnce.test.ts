// The payment middleware decodes PAYMENT-SIGNATURE once: x402's HTTP resource server (the pinned
// package, not a stand-in) is handed the payload registered for the request's adapter instead of
// decoding the header again; any other request decodes as before.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodePaymentSignatureHeader, decodePaymentRequiredHeader } from '@x402/core/http';
import { x402HTTPResourceServer, x402ResourceServer, type FacilitatorClient, type HTTPAdapter } from '@x402/core/server';
import type { PaymentPayload } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { decodeOnce } from '../../http/payments/decodedOnce.ts';

const NETWORK = 'eip155:84532';
const PAY_TO = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C';
const FROM = '0x1111111111111111111111111111111111111111';

/** A facilitator that supports exact payments on NETWORK and accepts every payment (no network). */
const facilitator: FacilitatorClient = {
  getSupported: async () => ({ kinds: [{ x402Version: 2, scheme: 'exact', network: NETWORK }], extensions: [], signers: {} }),
  verify: async () => ({ isValid: true, payer: FROM }),
  settle: async (_payload, requirements) => ({ success: true, payer: FROM, network: requirements.network, transaction: `0x${'0'.repeat(64)}` }),
} as FacilitatorClient;

function adapterFor(header?: string): HTTPAdapter {
  return {
    getHeader: (name) => (name.toLowerCase() === 'payment-signature' ? header : undefined),
    getMethod: () => 'GET',
    getPath: () => '/paid',
    getUrl: () => 'http://127.0.0.1/paid',
    getAcceptHeader: () => 'application/json',
    getUserAgent: () => 'test',
  };
}

async function paidServer(): Promise<x402HTTPResourceServer> {
  const resources = new x402ResourceServer(facilitator);
  resources.register(NETWORK, new ExactEvmScheme());
  const server = new x402HTTPResourceServer(resources, {
    'GET /paid': { accepts: { scheme: 'exact', network: NETWORK, payTo: PAY_TO, price: '$0.01' }, description: 'a paid test route' },
  });
  await server.initialize();
  return server;
}

function payload(accepted: PaymentPayload['accepted'], nonce: string): PaymentPayload {
  return {
    x402Version: 2,
    accepted,
    payload: {
      signature: `0x${'ab'.repeat(65)}`,
      authorization: { from: FROM, to: PAY_TO, value: accepted.amount, validAfter: '0', validBefore: '9999999999', nonce: `0x${nonce.repeat(64)}` },
    },
  } as PaymentPayload;
}

test('the server takes the payload registered for the adapter; an unregistered request decodes its header', async () => {
  const server = await paidServer();
  const registered = decodeOnce(server);
  const challenge = await server.processHTTPRequest({ adapter: adapterFor(), path: '/paid', method: 'GET' });
  assert.equal(challenge.type, 'payment-error');
  const accepted = decodePaymentRequiredHeader((challenge as { response: { headers: Record<string, string> } }).response.headers['PAYMENT-REQUIRED']).accepts[0];

  // The header says nonce 1, the registered payload nonce 2: the server must work on the registered one.
  const header = encodePaymentSignatureHeader(payload(accepted, '1'));
  const handed = payload(accepted, '2');
  const adapter = adapterFor(header);
  registered.set(adapter, handed);
  const result = await server.processHTTPRequest({ adapter, path: '/paid', method: 'GET', paymentHeader: header });
  assert.equal(result.type, 'payment-verified');
  assert.equal((result as { paymentPayload: PaymentPayload }).paymentPayload, handed, 'the registered object itself, not a decode of the header');

  const plain = await server.processHTTPRequest({ adapter: adapterFor(header), path: '/paid', method: 'GET', paymentHeader: header });
  assert.equal(plain.type, 'payment-verified');
  const decoded = (plain as { paymentPayload: PaymentPayload }).paymentPayload;
  assert.equal((decoded.payload as { authorization: { nonce: string } }).authorization.nonce, `0x${'1'.repeat(64)}`, 'an unregistered request is decoded from its header');
});
