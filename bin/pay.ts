// `npm run pay -- <url>`: pays for one request with the official x402 client and prints the answer
// and the receipt. The payer's private key comes from X402_PAYER_KEY (never a command-line argument,
// which other users of the machine could read).
//
// The cap: --max-usd is compared with the price in the asset's own units (http/payments/assets.ts):
// USDC on the networks it is known on (6 decimals), or an asset named with --allow-asset
// <address>[:decimals] (or X402_TEST_TOKEN, the local chain's test token, 6 decimals). Any other asset
// is refused before anything is signed, and so is a price above the cap.
//
// Safe retries: when the server advertises the x402 `payment-identifier` extension, the payment
// carries an identifier (printed; `--id` reuses one). If the connection drops after paying, run the
// same command with `--id <that id>`: the server answers again without charging twice.
//
// Every way this can end is one clear line on stderr and an exit code, never a stack trace:
// 0 answered, 1 refused / failed / not paid, 2 usage. A closed output (`| head`) ends quietly.
// runPay is the command without its process (tests run it in-process); run as a script, it is wired
// to the process's arguments, environment, output and exit code.
import type { PaymentRequirements } from '@x402/fetch';
import { endQuietlyOnClosedPipe, exitWithHelpIfAsked, isEntryPoint } from './commandLine.ts';
import {
  formatUsd, knownAssetsLines, knownAssetsText, parseAllowedAsset, parseUsd, payableAsset, usdOfRequirement, USDC_DECIMALS, type AllowedAsset,
} from '../http/payments/assets.ts';

const USAGE = 'usage: X402_PAYER_KEY=0x... npm run pay -- <url> [--max-usd 0.01] [--allow-asset <address>[:decimals]]... [--id <payment id to retry with>]';
const HELP = `${USAGE}

Pays for one request with x402 (the official client) and prints the status, the receipt, the
payment id and the answer. The payer's private key is read from X402_PAYER_KEY.

  --max-usd X          the most this request may cost, in USD (default 0.01). The price is read in
                       its asset's own units; known without being told:
${knownAssetsLines(' '.repeat(23))}
                       Any other asset is refused, nothing signed, unless named with --allow-asset.
                       Every asset paid is taken for a USD stablecoin (1 whole token = USD 1):
                       do not allow a token that is not one.
  --allow-asset A[:D]  also pay the token at address A (on any network), D decimals (default 6);
                       repeatable. X402_TEST_TOKEN=<address> allows the local chain's test token
                       (npm run facilitator prints it) the same way, with 6 decimals.
  --id ID              the payment id of an earlier run whose answer was lost: asked again, the
                       server answers without charging twice.

Exit codes: 0 answered, 1 refused / failed / not paid, 2 usage.`;

/** Where runPay writes: a line of stdout, a line of stderr, and what the request came to (said when the output closes early). */
export interface PayIo {
  env: NodeJS.ProcessEnv;
  out: (line: string) => void;
  err: (line: string) => void;
  answered: (summary: string) => void;
}

/** The way out of runPay with an exit code, after its one line on stderr. */
class PayExit {
  constructor(readonly code: number) {}
}

/** The command: its exit code, its lines written through io. */
export async function runPay(args: readonly string[], io: PayIo): Promise<number> {
  try {
    return await payOnce(args, io);
  } catch (error) {
    if (error instanceof PayExit) return error.code;
    throw error;
  }
}

async function payOnce(args: readonly string[], io: PayIo): Promise<number> {
  // The x402 client and viem, loaded here rather than with this file: --help needs neither (bin/commandLine.ts).
  const { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } = await import('@x402/fetch');
  const { ExactEvmScheme } = await import('@x402/evm/exact/client');
  const { appendPaymentIdentifierToExtensions, generatePaymentId, isValidPaymentId, PAYMENT_IDENTIFIER } = await import('@x402/extensions/payment-identifier');
  const { privateKeyToAccount } = await import('viem/accounts');
  function fail(message: string, code = 2): never {
    io.err(`pay: ${message}${code === 2 ? `\n${USAGE}` : ''}`);
    throw new PayExit(code);
  }

  /** Every value given to `name` (an option may be repeated). */
  function options(name: string): string[] {
    const values: string[] = [];
    args.forEach((arg, index) => {
      if (arg !== name) return;
      const value = args[index + 1];
      if (value === undefined || value.startsWith('--')) fail(`${name} needs a value`);
      values.push(value);
    });
    return values;
  }
  function option(name: string): string | undefined {
    const values = options(name);
    if (values.length > 1) fail(`${name} given more than once`);
    return values[0];
  }
  const known = new Set(['--max-usd', '--id', '--allow-asset']);
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
  const maxUsdText = option('--max-usd') ?? '0.01';
  const maxUsd = parseUsd(maxUsdText);
  if (maxUsd === null) fail(`--max-usd must be a decimal amount in USD with at most 6 decimals (got ${maxUsdText})`);
  const allowed: AllowedAsset[] = [];
  for (const text of options('--allow-asset')) {
    try {
      allowed.push(parseAllowedAsset(text));
    } catch (error) {
      fail((error as Error).message);
    }
  }
  const testToken = io.env.X402_TEST_TOKEN || undefined;
  if (testToken !== undefined) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(testToken)) fail(`X402_TEST_TOKEN must be a token address (got ${testToken})`);
    allowed.push({ address: testToken, decimals: USDC_DECIMALS });
  }
  const givenId = option('--id');
  if (givenId !== undefined && !isValidPaymentId(givenId)) fail(`--id must be 16 to 128 characters of A-Z, a-z, 0-9, _ and - (got ${givenId})`);
  const key = io.env.X402_PAYER_KEY;
  if (!key || !/^0x[0-9a-fA-F]{64}$/.test(key)) fail('set X402_PAYER_KEY to the payer\'s 0x-prefixed private key (64 hex digits)');

  const account = privateKeyToAccount(key as `0x${string}`);
  const client = new x402Client();
  client.register('eip155:*', new ExactEvmScheme(account));
  // The library's spend controls price only the assets it knows, in its own table; they are replaced
  // by the policy below: known or allowed assets only, priced with their decimals, at most --max-usd.
  client.setSpendControls(false);
  /** Why nothing was signed, once the policy or the hook below refused. */
  let refusal: string | null = null;
  /** A challenge was read (the policy saw its offers). */
  let challenged = false;
  const offerText = (r: PaymentRequirements) => `${r.amount} units of ${payableAsset(r, allowed)?.name ?? r.asset} on ${r.network}`;
  client.registerPolicy((_version, requirements) => {
    challenged = true;
    const priced = requirements.flatMap((requirement) => {
      const price = usdOfRequirement(requirement, allowed);
      return price ? [{ requirement, usd: price.usd }] : [];
    });
    if (priced.length === 0) {
      refusal = `the server asks for no asset this command knows (offered: ${requirements.map(offerText).join('; ')}; known: ${knownAssetsText()}); `
        + 'nothing was paid (to pay another USD stablecoin you trust, name it: --allow-asset <address>[:decimals])';
      return [];
    }
    // The cheapest first: if it is above the cap, every offer is.
    priced.sort((a, b) => (a.usd < b.usd ? -1 : a.usd > b.usd ? 1 : 0));
    const cheapest = priced[0]!;
    if (cheapest.usd > maxUsd) {
      refusal = `the price is USD ${formatUsd(cheapest.usd)} (${offerText(cheapest.requirement)}), above --max-usd ${maxUsdText}; nothing was paid (raise --max-usd to pay it)`;
      return [];
    }
    return priced.filter((offer) => offer.usd <= maxUsd).map((offer) => offer.requirement);
  });
  const paymentId = givenId ?? generatePaymentId();
  let idSent = false;
  let paymentSigned = false;
  /** What the signed authorization is for: "USD 0.01 (10000 units of USDC on eip155:8453)". */
  let signedText = '';
  client.onBeforePaymentCreation(async ({ paymentRequired, selectedRequirements }) => {
    // The policy chose it; checked again where it is about to be signed.
    const price = usdOfRequirement(selectedRequirements, allowed);
    if (!price || price.usd > maxUsd) {
      refusal ??= `the server's offer (${offerText(selectedRequirements)}) is not a known asset within --max-usd ${maxUsdText}; nothing was paid`;
      return { abort: true, reason: refusal };
    }
    if (paymentRequired.extensions?.[PAYMENT_IDENTIFIER] !== undefined) {
      appendPaymentIdentifierToExtensions(paymentRequired.extensions, paymentId);
      idSent = true;
    }
  });
  client.onAfterPaymentCreation(async ({ selectedRequirements }) => {
    paymentSigned = true;
    const price = usdOfRequirement(selectedRequirements, allowed);
    signedText = `USD ${price ? formatUsd(price.usd) : '?'} (${offerText(selectedRequirements)})`;
  });

  function causeOf(error: unknown): string {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error instanceof Error ? error.message : String(error)}${cause}`;
  }

  let response: Response;
  try {
    response = await wrapFetchWithPayment(fetch, client)(url);
  } catch (error) {
    if (refusal) fail(refusal, 1);
    if (paymentSigned) {
      const retry = idSent ? `; run the same command with --id ${paymentId} to get the answer without paying twice` : '';
      fail(`the connection failed after the payment was sent (${causeOf(error)}); it may have been charged${retry}`, 1);
    }
    if (challenged || /^Failed to (create payment payload|parse payment requirements)/.test(causeOf(error))) fail(`could not pay: ${causeOf(error)}; nothing was paid`, 1);
    fail(`could not reach ${url}: ${causeOf(error)}; nothing was paid`, 1);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    const retry = idSent ? `; run the same command with --id ${paymentId} to get the answer without paying twice` : '';
    fail(`the connection failed while reading the answer (${causeOf(error)})${retry}`, 1);
  }
  io.out(`HTTP ${response.status} ${response.statusText}`);
  const receipt = response.headers.get('PAYMENT-RESPONSE');
  let settled: ReturnType<typeof decodePaymentResponseHeader> | null = null;
  try {
    settled = receipt ? decodePaymentResponseHeader(receipt) : null;
  } catch {
    settled = null;
  }
  if (settled) {
    io.out(`receipt: ${settled.success ? 'paid' : 'NOT paid'} on ${settled.network} by ${settled.payer ?? account.address}, transaction ${settled.transaction || '-'}${settled.errorReason ? ` (${settled.errorReason})` : ''}`);
    io.answered(`the request was answered with HTTP ${response.status} and ${settled.success ? `paid once (transaction ${settled.transaction})` : 'not paid'}`);
  } else {
    const none = receipt ? 'unreadable (a PAYMENT-RESPONSE header that is not base64 JSON)' : 'none';
    if (paymentSigned) {
      // The server holds a signed authorization: it can still settle it until it expires.
      io.out(`receipt: ${none}, but an authorization for ${signedText} was signed and sent: the server can still settle it until it expires`);
      io.answered(`the request was answered with HTTP ${response.status} without a receipt for the authorization signed for ${signedText}`);
    } else {
      io.out(`receipt: ${none} (nothing was charged)`);
      io.answered(`the request was answered with HTTP ${response.status}; nothing was charged`);
    }
  }
  if (idSent) io.out(`payment id: ${paymentId} (to retry without paying twice: --id ${paymentId})`);
  try {
    io.out(JSON.stringify(JSON.parse(text), null, 2));
  } catch {
    io.out(text);
  }
  return response.ok ? 0 : 1;
}

if (isEntryPoint(import.meta.url)) {
  // A reader that stops early (`npm run pay ... | head`) closes the pipe: stop writing, no stack trace.
  let answered = '';
  endQuietlyOnClosedPipe({
    onClosed: () => console.error(`pay: output closed early (e.g. piped into head)${answered ? `; ${answered}` : ''}`),
    onError: (error) => {
      console.error(`pay: could not write the answer: ${error.message}`);
      process.exit(1);
    },
  });
  exitWithHelpIfAsked(HELP, process.argv.slice(2));
  const code = await runPay(process.argv.slice(2), {
    env: process.env,
    out: (line) => console.log(line),
    err: (line) => console.error(line),
    answered: (summary) => (answered = summary),
  });
  process.exitCode = code;
}
