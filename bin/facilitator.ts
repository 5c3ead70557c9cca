// `npm run facilitator`: a local x402 facilitator on an in-process chain, for trying paid calls.
// Prints the environment that points the server at it and a funded test payer key.
import { DEV_KEYS, DEV_NETWORK, PAYER_FUNDING, startDevChain } from '../devchain/chain.ts';
import { startLocalFacilitator } from '../devchain/facilitator.ts';

const port = Number(process.env.FACILITATOR_PORT ?? 4020);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`FACILITATOR_PORT must be a port number (got ${process.env.FACILITATOR_PORT})`);
  process.exit(2);
}
const chain = await startDevChain();
const facilitator = await startLocalFacilitator({ chain, port });
const assets = JSON.stringify({ [DEV_NETWORK]: { address: chain.token, name: 'USD Coin', version: '2' } });

console.log(`local x402 facilitator on ${facilitator.url} (chain ${DEV_NETWORK}, test USDC at ${chain.token})

Start the server against it (in another terminal):

  X402_PAY_TO=${chain.addresses.payTo} \\
  X402_FACILITATOR_URL=${facilitator.url} \\
  X402_NETWORKS=${DEV_NETWORK} \\
  X402_ASSETS='${assets}' \\
  X402_EXEMPT_LOOPBACK=false \\
  npm start

Pay for one request (payer ${chain.addresses.payer} holds ${PAYER_FUNDING / 1_000_000n} test USDC):

  X402_PAYER_KEY=${DEV_KEYS.payer} npm run pay -- 'http://127.0.0.1:3000/api/sebra/getTaxonomyForYear?year=2025'

These are Hardhat's public test keys: never send real funds to them. The chain lives in this
process; stop it with Ctrl-C and everything on it is gone.`);

function shutdown(): void {
  void facilitator.stop().then(() => process.exit(0));
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
