// npm run mcp [-- --data-dir DIR]                                       (local: the snapshot, no payment)
// npm run mcp -- --remote <base-url> [--max-usd 0.01] [--budget-usd 1] [--allow-asset <address>[:decimals]]...
//                                                                        (remote: pays each call with x402)
// An MCP server over stdio (the official @modelcontextprotocol/sdk): one tool per catalog route, named
// after its operation id, whose input is the route's parameters as JSON Schema (the path and query
// forms folded into one object; a POST route's JSON body as the field `body`). The tools, their
// results and the documentation resources are http/mcp's, shared with the HTTP endpoint POST /mcp;
// this file is the command line; its two callers are bin/mcpServer.ts's.
// - local (default): answers from the snapshot in DATA_DIR through the API's own validation, handlers
//   and encoders (http/dispatch.ts); nothing is paid;
// - remote: calls the deployment over HTTP and pays each call with the official x402 client
//   (@x402/fetch, a viem account from X402_PAYER_KEY) in USDC where it is known (6 decimals), or in
//   a token named by --allow-asset or X402_TEST_TOKEN (the local chain's test token), each amount
//   priced in its asset's own decimals (http/payments/assets.ts); never more than --max-usd per call,
//   and never more than --budget-usd signed in the session: an authorization counts as spent when it
//   is signed, whatever the deployment answers. Each result says what was signed and whether the
//   deployment's receipt says it was settled; a refused payment or an exhausted budget is a tool
//   error, not a crash.
// The API's errors (400, 404, 451, ...) are tool errors carrying the API's JSON error.
// Each answer says where its data come from, as the API's X-Data-Source header does: `_meta.data_source`
// (sample, imported, mixed), and a text note when the figures are (partly) generated samples.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Hex } from 'viem';
import type { Database } from '../engine/database.ts';
import type { Caller, RemoteOptions } from './mcpServer.ts';
import { atomicOf, knownAssetsLines, parseAllowedAsset } from '../http/payments/assets.ts';
import { isEntryPoint } from './commandLine.ts';

const USAGE = [
  'usage: npm run mcp [-- --data-dir DIR]',
  '       X402_PAYER_KEY=0x... npm run mcp -- --remote <base-url> [--max-usd 0.01] [--budget-usd 1] [--allow-asset <address>[:decimals]]...',
].join('\n');

const HELP = `${USAGE}

An MCP server over stdio: one tool per API operation.
  local (default)      answers from the snapshot in DATA_DIR (or --data-dir); nothing is paid.
  --remote URL         calls the deployment at URL and pays each call with x402 (the payer's key
                       from X402_PAYER_KEY).
  --max-usd X          the most one call may cost, in USD (default 0.01).
  --budget-usd X       the most the session may sign, in USD (default 1). An authorization counts
                       as spent when it is signed, before it is sent, and is never given back on the
                       strength of the deployment's answer (no receipt, an error, a receipt of a
                       smaller amount): the deployment can settle it until it expires. A call that
                       would take the signed total above the budget is refused, nothing signed.
  --allow-asset A[:D]  also pay the token at address A (on any network), D decimals (default 6);
                       repeatable. X402_TEST_TOKEN=<address> allows the local chain's test token
                       (6 decimals). Known without them:
${knownAssetsLines(' '.repeat(23))}
Amounts are read in each asset's own decimals and every asset paid is taken for a USD stablecoin
(1 whole token = USD 1): do not allow a token that is not one.`;

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      remote: { type: 'string' },
      'max-usd': { type: 'string', default: '0.01' },
      'budget-usd': { type: 'string', default: '1' },
      'allow-asset': { type: 'string', multiple: true },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  // The command line is checked before the server's modules load: a usage error takes no time.
  let remote: RemoteOptions | undefined;
  let dataDir: string | undefined;
  if (values.remote !== undefined) {
    try {
      const url = new URL(values.remote);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
    } catch {
      throw new UsageError(`--remote must be the deployment's http(s) base address (got ${values.remote})`);
    }
    const maxAtomic = atomicOf(values['max-usd']!);
    const budgetAtomic = atomicOf(values['budget-usd']!);
    if (maxAtomic === null) throw new UsageError(`--max-usd must be a decimal amount in USD (got ${values['max-usd']})`);
    if (budgetAtomic === null) throw new UsageError(`--budget-usd must be a decimal amount in USD (got ${values['budget-usd']})`);
    const key = process.env.X402_PAYER_KEY;
    if (!key || !/^0x[0-9a-fA-F]{64}$/.test(key)) throw new UsageError('set X402_PAYER_KEY to the payer\'s 0x-prefixed private key');
    const allowAsset = process.env.X402_TEST_TOKEN || undefined;
    if (allowAsset !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(allowAsset)) throw new UsageError(`X402_TEST_TOKEN must be a token address (got ${allowAsset})`);
    const allowAssets = (values['allow-asset'] ?? []).map((text) => {
      try {
        return parseAllowedAsset(text);
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
    });
    remote = { baseUrl: values.remote, payerKey: key as Hex, maxAtomic, budgetAtomic, allowAsset, allowAssets };
  } else {
    dataDir = path.resolve(values['data-dir'] ?? process.env.DATA_DIR ?? 'data/parquet');
    if (!existsSync(dataDir)) throw new UsageError(`no snapshot at ${dataDir}: set DATA_DIR (or --data-dir), or run npm start once to build the sample`);
  }
  // stdout is the protocol's: anything a library logs goes to stderr.
  console.log = (...args: unknown[]) => console.error(...args);
  const { createMcpServer, localCaller, remoteCaller } = await import('./mcpServer.ts');
  const { routes: catalogRoutes } = await import('../domains/index.ts');
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  let call: Caller;
  let db: Database | undefined;
  if (remote) {
    call = remoteCaller(remote);
  } else {
    const { openSnapshot } = await import('../http/openSnapshot.ts');
    db = await openSnapshot(dataDir!);
    call = localCaller({ db, routes: catalogRoutes });
  }
  const server = createMcpServer({ routes: catalogRoutes, call, remote: values.remote !== undefined, baseUrl: values.remote });
  const transport = new StdioServerTransport();
  transport.onclose = () => {
    void db?.close();
  };
  await server.connect(transport);
  process.stderr.write(`mcp: ${catalogRoutes.length} tools, ${values.remote !== undefined ? `remote ${values.remote}` : 'local snapshot'}; waiting on stdio\n`);
}

if (isEntryPoint(import.meta.url)) {
  try {
    await main(process.argv.slice(2));
  } catch (error) {
    const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`mcp: ${(error as Error).message}\n${usage ? `${USAGE}\n` : ''}`);
    process.exit(usage ? 2 : 1);
  }
}
