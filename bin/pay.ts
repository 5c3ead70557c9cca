// `npm run pay -- <url>`: pays for one request with the official x402 client and prints the answer
// and the receipt. The payer's private key comes from X402_PAYER_KEY (never a command-line argument,
// which other users of the machine could read).
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';

const USAGE = 'usage: X402_PAYER_KEY=0x... npm run pay -- <url> [--max-usd 0.01]';

function fail(message: string, code = 2): never {
  console.error(`pay: ${message}\n${USAGE}`);
  process.exit(code);
}

const args = process.argv.slice(2);
const url = args.find((arg) => !arg.startsWith('--'));
const maxIndex = args.indexOf('--max-usd');
const maxUsd = maxIndex >= 0 ? args[maxIndex + 1] : '0.01';
if (!url) fail('missing <url>');
try {
  new URL(url);
} catch {
  fail(`not a URL: ${url}`);
}
if (!maxUsd || !/^\d+(\.\d{1,6})?$/.test(maxUsd)) fail(`--max-usd must be a decimal amount (got ${maxUsd})`);
const key = process.env.X402_PAYER_KEY;
if (!key || !/^0x[0-9a-fA-F]{64}$/.test(key)) fail('set X402_PAYER_KEY to the payer\'s 0x-prefixed private key');

const account = privateKeyToAccount(key as `0x${string}`);
const client = new x402Client();
client.register('eip155:*', new ExactEvmScheme(account));
// Any asset the server names is accepted (a local test token is not real USDC), but never more
// than --max-usd in 6-decimal units.
const maxAtomic = BigInt(Math.round(Number(maxUsd) * 1_000_000));
client.setSpendControls(false);
client.registerPolicy((_version, requirements) => requirements.filter((r) => BigInt(r.amount) <= maxAtomic));

const response = await wrapFetchWithPayment(fetch, client)(url);
const text = await response.text();
console.log(`HTTP ${response.status} ${response.statusText}`);
const receipt = response.headers.get('PAYMENT-RESPONSE');
if (receipt) {
  const settled = decodePaymentResponseHeader(receipt);
  console.log(`receipt: ${settled.success ? 'paid' : 'NOT paid'} on ${settled.network} by ${settled.payer ?? account.address}, transaction ${settled.transaction || '-'}${settled.errorReason ? ` (${settled.errorReason})` : ''}`);
} else {
  console.log('receipt: none (nothing was charged)');
}
try {
  console.log(JSON.stringify(JSON.parse(text), null, 2));
} catch {
  console.log(text);
}
process.exitCode = response.ok ? 0 : 1;
