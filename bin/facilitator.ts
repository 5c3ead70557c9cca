// `npm run facilitator`: a local x402 facilitator on an in-process chain, for trying paid calls.
// Prints the environment that points the server at it and a funded test payer key. The printed
// commands use the ports actually configured: FACILITATOR_PORT (default 4020; 0 picks a free one)
// for the facilitator, and the server's PORT / HOST / BASE_URL (as `npm start` reads them) for the
// paid call.
import type { LocalFacilitator } from '../devchain/facilitator.ts';
import { exitWithHelpIfAsked } from './commandLine.ts';

exitWithHelpIfAsked(`usage: npm run facilitator

Starts a local x402 facilitator on an in-process test chain (funded test payer, test USDC) on
FACILITATOR_PORT (default 4020; 0 picks a free port), and prints the environment that points
\`npm start\` at it (using PORT, HOST and BASE_URL as npm start reads them) and a paid call to try.
Stops on Ctrl-C.`);

function refuse(message: string): never {
  console.error(`facilitator: ${message}`);
  process.exit(2);
}

function portFrom(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!/^[0-9]+$/.test(raw) || port > 65535) refuse(`${name} must be a port number from 0 to 65535 (got ${process.env[name]})`);
  return port;
}

const port = portFrom('FACILITATOR_PORT', 4020);
// The server's address, read as http/config.ts reads it for `npm start`.
const serverPort = portFrom('PORT', 3000);
const serverHost = process.env.HOST?.trim() || '127.0.0.1';
const serverBase = (process.env.BASE_URL?.trim() || `http://${serverHost.includes(':') ? `[${serverHost}]` : serverHost}:${serverPort}`).replace(/(?<!\/)\/+$/, '');
/** The server's own settings repeated on its command line, so the other terminal needs nothing else. */
const serverEnv = ['PORT', 'HOST', 'BASE_URL']
  .filter((name) => process.env[name]?.trim())
  .map((name) => `  ${name}=${process.env[name]!.trim()} \\\n`)
  .join('');

const { DEV_KEYS, DEV_NETWORK, PAYER_FUNDING, startDevChain } = await import('../devchain/chain.ts');
const { startLocalFacilitator } = await import('../devchain/facilitator.ts');
const chain = await startDevChain();
let facilitator: LocalFacilitator;
try {
  facilitator = await startLocalFacilitator({ chain, port });
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') refuse(`port ${port} is already in use; choose another with FACILITATOR_PORT=<port> (0 picks a free one)`);
  if (code === 'EACCES') refuse(`port ${port} needs privileges; choose another with FACILITATOR_PORT=<port>`);
  throw error;
}
const assets = JSON.stringify({ [DEV_NETWORK]: { address: chain.token, name: 'USD Coin', version: '2' } });

console.log(`local x402 facilitator on ${facilitator.url} (chain ${DEV_NETWORK}, test USDC at ${chain.token})

Start the server against it (in another terminal):

  X402_PAY_TO=${chain.addresses.payTo} \\
  X402_FACILITATOR_URL=${facilitator.url} \\
  X402_NETWORKS=${DEV_NETWORK} \\
  X402_ASSETS='${assets}' \\
  X402_EXEMPT_LOOPBACK=false \\
${serverEnv}  npm start

Pay for one request (payer ${chain.addresses.payer} holds ${PAYER_FUNDING / 1_000_000n} test USDC):

  X402_PAYER_KEY=${DEV_KEYS.payer} X402_TEST_TOKEN=${chain.token} npm run pay -- '${serverBase}/api/sebra/getTaxonomyForYear?year=2025'

Or with your own client (docs/paying.md), which must allow this test token by address:

  X402_PAYER_KEY=${DEV_KEYS.payer} X402_TEST_TOKEN=${chain.token}

These are Hardhat's public test keys: never send real funds to them. The chain lives in this
process; stop it with Ctrl-C and everything on it is gone.`);

function shutdown(): void {
  void facilitator.stop().then(() => process.exit(0));
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
