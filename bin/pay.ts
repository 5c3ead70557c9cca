// `npm run pay -- <url>`: pays for one request with the official x402 client and prints the answer
// and the receipt. The payer's private key comes from X402_PAYER_KEY (never a command-line argument,
// which other users of the machine could read).
//
// Safe retries: when the server advertises the x402 `payment-identifier` extension, the payment
// carries an identifier (printed; `--id` reuses one). If the connection drops after paying, run the
// same command with `--id <that id>`: the server answers again without charging twice.
//
// Every way this can end is one clear line on stderr and an exit code, never a stack trace:
// 0 answered, 1 refused / failed / not paid, 2 usage. A closed output (`| head`) ends quietly.
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import {
  appendPaymentIdentifierToExtensions, generatePaymentId, isValidPaymentId, PAYMENT_IDENTIFIER,
} from '@x402/extensions/payment-identifier';
import { privateKeyToAccount } from 'viem/accounts';

const USAGE = 'usage: X402_PAYER_KEY=0x... npm run pay -- <url> [--max-usd 0.01] [--id <payment id to retry with>]';

function fail(message: string, code = 2): never {
  console.error(`pay: ${message}${code === 2 ? `\n${USAGE}` : ''}`);
  process.exit(code);
}

// A reader that stops early (`npm run pay ... | head`) closes the pipe: stop writing, no stack trace.
let answered = '';
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') fail(`could not write the answer: ${error.message}`, 1);
  console.error(`pay: output closed early (e.g. piped into head)${answered ? `; ${answered}` : ''}`);
  process.exit(process.exitCode ?? 0);
});

const args = process.argv.slice(2);
function option(name: string): string | undefined {
  const index = args.indexOf(name);
  if (index < 0) return undefined;
  const value = args[index + 1];
  if (value === undefined || value.startsWith('--')) fail(`${name} needs a value`);
  return value;
}
const known = new Set(['--max-usd', '--id']);
const positional = args.filter((arg, i) => !arg.startsWith('--') && !known.has(args[i - 1] ?? ''));
const unknown = args.filter((arg) => arg.startsWith('--') && !known.has(arg));
if (unknown.length > 0) fail(`unknown option ${unknown[0]}`);
const url = positional[0];
if (!url) fail('missing <url>');
if (positional.length > 1) fail(`one <url> only (got ${positional.join(' ')})`);
try {
  new URL(url);
} catch {
  fail(`not a URL: ${url}`);
}
const maxUsd = option('--max-usd') ?? '0.01';
if (!/^\d+(\.\d{1,6})?$/.test(maxUsd)) fail(`--max-usd must be a decimal amount in USD with at most 6 decimals (got ${maxUsd})`);
const givenId = option('--id');
if (givenId !== undefined && !isValidPaymentId(givenId)) fail(`--id must be 16 to 128 characters of A-Z, a-z, 0-9, _ and - (got ${givenId})`);
const key = process.env.X402_PAYER_KEY;
if (!key || !/^0x[0-9a-fA-F]{64}$/.test(key)) fail('set X402_PAYER_KEY to the payer\'s 0x-prefixed private key (64 hex digits)');

const account = privateKeyToAccount(key as `0x${string}`);
const client = new x402Client();
client.register('eip155:*', new ExactEvmScheme(account));
// Any asset the server names is accepted (a local test token is not real USDC), but never more
// than --max-usd in 6-decimal units.
const [whole, fraction = ''] = maxUsd.split('.');
const maxAtomic = BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
client.setSpendControls(false);
let offered: Array<{ amount: string; network: string }> = [];
client.registerPolicy((_version, requirements) => {
  offered = requirements;
  return requirements.filter((r) => BigInt(r.amount) <= maxAtomic);
});
const paymentId = givenId ?? generatePaymentId();
let idSent = false;
let paymentSigned = false;
client.onBeforePaymentCreation(async ({ paymentRequired }) => {
  if (paymentRequired.extensions?.[PAYMENT_IDENTIFIER] !== undefined) {
    appendPaymentIdentifierToExtensions(paymentRequired.extensions, paymentId);
    idSent = true;
  }
});
client.onAfterPaymentCreation(async () => {
  paymentSigned = true;
});

/** Atomic units of a 6-decimal token as USD: 10000 -> "0.01". */
function usd(atomic: bigint): string {
  const text = (Number(atomic) / 1_000_000).toFixed(6);
  return text.replace(/0{1,4}$/, '');
}

function causeOf(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error instanceof Error ? error.message : String(error)}${cause}`;
}

let response: Response;
try {
  response = await wrapFetchWithPayment(fetch, client)(url);
} catch (error) {
  const cheapest = offered.length > 0 ? offered.reduce((a, b) => (BigInt(a.amount) <= BigInt(b.amount) ? a : b)) : null;
  if (cheapest && BigInt(cheapest.amount) > maxAtomic) {
    fail(`the price is USD ${usd(BigInt(cheapest.amount))} (${cheapest.amount} units on ${cheapest.network}), above --max-usd ${maxUsd}; nothing was paid (raise --max-usd to pay it)`, 1);
  }
  if (paymentSigned) {
    const retry = idSent ? `; run the same command with --id ${paymentId} to get the answer without paying twice` : '';
    fail(`the connection failed after the payment was sent (${causeOf(error)}); it may have been charged${retry}`, 1);
  }
  if (offered.length > 0) fail(`could not pay: ${causeOf(error)}; nothing was paid`, 1);
  fail(`could not reach ${url}: ${causeOf(error)}; nothing was paid`, 1);
}
let text: string;
try {
  text = await response.text();
} catch (error) {
  const retry = idSent ? `; run the same command with --id ${paymentId} to get the answer without paying twice` : '';
  fail(`the connection failed while reading the answer (${causeOf(error)})${retry}`, 1);
}
console.log(`HTTP ${response.status} ${response.statusText}`);
const receipt = response.headers.get('PAYMENT-RESPONSE');
if (receipt) {
  const settled = decodePaymentResponseHeader(receipt);
  console.log(`receipt: ${settled.success ? 'paid' : 'NOT paid'} on ${settled.network} by ${settled.payer ?? account.address}, transaction ${settled.transaction || '-'}${settled.errorReason ? ` (${settled.errorReason})` : ''}`);
  answered = `the request was answered with HTTP ${response.status} and ${settled.success ? `paid once (transaction ${settled.transaction})` : 'not paid'}`;
} else {
  console.log('receipt: none (nothing was charged)');
  answered = `the request was answered with HTTP ${response.status}; nothing was charged`;
}
if (idSent) console.log(`payment id: ${paymentId} (to retry without paying twice: --id ${paymentId})`);
try {
  console.log(JSON.stringify(JSON.parse(text), null, 2));
} catch {
  console.log(text);
}
process.exitCode = response.ok ? 0 : 1;
