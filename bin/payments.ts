// `npm run payments -- <command>`: the operator's view of settlements, from the payment store the
// server uses (DATABASE_URL, or the files beside REVENUE_LEDGER), with the same X402_* settings.
//   list       the settlements whose outcome is not known yet (pending, unknown)
//   reconcile  resolves each of them as a paying client's retry would (the token's state through
//              X402_RPC_URLS, else settling the kept authorization again) and records the outcome,
//              so the books match the chain. One being answered right now (its lock held) is skipped.
// Exit codes: 0 done (nothing left unknown), 2 usage or settings, 3 some outcomes are still unknown.
// runPayments is the command without its process (tests run it in-process); run as a script, it is
// wired to the process's arguments, environment, output and exit code.
import { formatUsdc } from '../http/payments/ledger.ts';
import type { Settlement } from '../http/payments/store/types.ts';
import { endQuietlyOnClosedPipe, exitWithHelpIfAsked, isEntryPoint } from './commandLine.ts';

const USAGE = `usage: npm run payments -- list | reconcile

  list        settlements whose outcome is not known yet (pending or unknown), oldest first
  reconcile   resolve each one (X402_RPC_URLS, else the facilitator) and record it: settled or unpaid

Reads the same settings as npm start: X402_PAY_TO, X402_FACILITATOR_URL, X402_NETWORKS, X402_ASSETS,
DATABASE_URL (or REVENUE_LEDGER and PAID_ANSWERS_PATH for the local files), X402_RPC_URLS.
Exit codes: 0 nothing left unknown, 2 usage or settings, 3 some outcomes are still unknown.`;

/** Where runPayments reads and writes: the settings' environment, a line of stdout, a line of stderr. */
export interface PaymentsIo {
  env: NodeJS.ProcessEnv;
  out: (line: string) => void;
  err: (line: string) => void;
}

/** The way out of runPayments with an exit code, after its one line on stderr. */
class PaymentsExit {
  constructor(readonly code: number) {}
}

function line(settlement: Settlement): string {
  return `${settlement.createdAt}  ${settlement.state.padEnd(7)}  ${settlement.key}  ${formatUsdc(BigInt(settlement.terms.amount))} on ${settlement.terms.network}  ${settlement.route} ${settlement.resource}`;
}

/** The command (`list` or `reconcile`): its exit code, its lines written through io. */
export async function runPayments(args: readonly string[], io: PaymentsIo): Promise<number> {
  try {
    return await listOrReconcile(args, io);
  } catch (error) {
    if (error instanceof PaymentsExit) return error.code;
    throw error;
  }
}

async function listOrReconcile(args: readonly string[], io: PaymentsIo): Promise<number> {
  function fail(message: string, code = 2): never {
    io.err(`payments: ${message}`);
    throw new PaymentsExit(code);
  }

  const [command, ...rest] = args;
  if ((command !== 'list' && command !== 'reconcile') || rest.length > 0) fail(`${command === undefined ? 'a command is required' : `unknown arguments: ${[command, ...rest].join(' ')}`}\n\n${USAGE}`);

  // The payment store and the routes, loaded here rather than with this file: --help needs neither (bin/commandLine.ts).
  const { routes } = await import('../domains/index.ts');
  const { ConfigError } = await import('../http/configError.ts');
  const { readPaymentSettings } = await import('../http/payments/config.ts');
  const { createPayments } = await import('../http/payments/index.ts');
  const { recordResolution } = await import('../http/payments/resolve.ts');

  let payments;
  try {
    const settings = readPaymentSettings(io.env);
    if (!settings.payTo || !settings.facilitator) fail('payments are not configured: set X402_PAY_TO and X402_FACILITATOR_URL as for npm start');
    payments = createPayments({ routes, settings, baseUrl: 'http://localhost', log: () => undefined });
    await payments.start();
  } catch (error) {
    if (error instanceof PaymentsExit) throw error;
    if (error instanceof ConfigError) fail(error.message);
    fail(error instanceof Error ? error.message : String(error));
  }
  const store = payments.store()!;
  let stillUnknown = 0;
  try {
    const unresolved = await store.unresolved();
    io.out(`${unresolved.length} settlement(s) with an outcome not known yet (${store.kind === 'postgres' ? 'PostgreSQL' : 'local files'})`);
    for (const settlement of unresolved) {
      io.out(line(settlement));
      if (command === 'list') continue;
      const lock = `authorization:${settlement.key}`;
      if (!(await store.tryLock(lock, 120_000, Date.now()))) {
        io.out('  skipped: a request is answering it right now');
        stillUnknown += 1;
        continue;
      }
      try {
        const resolution = await payments.resolve(settlement);
        await recordResolution(store, settlement, resolution, new Date());
        if (resolution.outcome === 'paid') io.out(`  settled${resolution.transaction ? ` by ${resolution.transaction}` : ' (the authorization was used; transaction not known)'}`);
        else if (resolution.outcome === 'unpaid') io.out(`  unpaid: ${resolution.reason}`);
        else {
          io.out(`  still unknown: ${resolution.reason}`);
          stillUnknown += 1;
        }
      } finally {
        await store.unlock(lock);
      }
    }
    if (command === 'list') stillUnknown = unresolved.length;
  } finally {
    await payments.close();
  }
  return stillUnknown > 0 ? 3 : 0;
}

if (isEntryPoint(import.meta.url)) {
  exitWithHelpIfAsked(USAGE);
  endQuietlyOnClosedPipe();
  const code = await runPayments(process.argv.slice(2), { env: process.env, out: (text) => console.log(text), err: (text) => console.error(text) });
  process.exit(code);
}
