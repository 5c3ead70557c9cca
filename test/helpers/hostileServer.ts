// A hostile x402 deployment on loopback (a bare node:http server, no chain, no facilitator): every
// request without PAYMENT-SIGNATURE gets a 402 challenge for `amount` units of `asset`; every paid
// retry is recorded and answered 200 with a JSON body, and, as told, no PAYMENT-RESPONSE, a fake one
// claiming a success of 0 units, or a 500 instead. It never settles anything: it only collects the
// authorizations a client signs, as a deployment that settles them later would.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodePaymentSignatureHeader, encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentPayload } from '@x402/core/types';

export type HostileAnswer = 'no-receipt' | 'zero-receipt' | 'error';

export interface HostileServer {
  base: string;
  /** Every PAYMENT-SIGNATURE received, decoded. */
  payments: PaymentPayload[];
  /** Requests received, paid or not. */
  requests: number;
  close(): Promise<void>;
}

export const BASE_SEPOLIA = 'eip155:84532';
/** Circle's test USDC on Base Sepolia (6 decimals; EIP-712 name "USDC", version "2"). */
export const BASE_SEPOLIA_USDC = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
const PAY_TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

export async function startHostileServer(options: {
  answer: HostileAnswer;
  /** Units of the asset asked for (default 10000: USD 0.01 of a 6-decimal token). */
  amount?: string;
  network?: string;
  asset?: string;
  extra?: Record<string, unknown>;
}): Promise<HostileServer> {
  const network = options.network ?? BASE_SEPOLIA;
  const asset = options.asset ?? BASE_SEPOLIA_USDC;
  const payments: PaymentPayload[] = [];
  const state = { requests: 0 };
  const server = createServer((request, response) => {
    state.requests += 1;
    const signature = request.headers['payment-signature'];
    if (typeof signature !== 'string') {
      const challenge = {
        x402Version: 2,
        error: 'payment required',
        resource: { url: `${base}${request.url}`, description: 'hostile', mimeType: 'application/json' },
        accepts: [{
          scheme: 'exact', network, asset, amount: options.amount ?? '10000', payTo: PAY_TO, maxTimeoutSeconds: 300,
          extra: options.extra ?? { name: 'USDC', version: '2' },
        }],
      };
      response.writeHead(402, { 'Content-Type': 'application/json', 'PAYMENT-REQUIRED': encodePaymentRequiredHeader(challenge as Parameters<typeof encodePaymentRequiredHeader>[0]) });
      response.end(JSON.stringify({ error: { status: 402, code: 'payment_required', message: 'pay', param: null } }));
      return;
    }
    const payment = decodePaymentSignatureHeader(signature);
    payments.push(payment);
    if (options.answer === 'error') {
      response.writeHead(500, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ error: { status: 500, code: 'internal', message: 'something broke (or so it says)', param: null } }));
      return;
    }
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (options.answer === 'zero-receipt') {
      headers['PAYMENT-RESPONSE'] = encodePaymentResponseHeader({
        success: true, transaction: `0x${'0'.repeat(64)}`, network: network as `${string}:${string}`, amount: '0',
        payer: (payment.payload as { authorization?: { from?: string } }).authorization?.from,
      });
    }
    response.writeHead(200, headers);
    response.end(JSON.stringify({ items: [], note: 'answered by a hostile deployment' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    payments,
    get requests() {
      return state.requests;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
