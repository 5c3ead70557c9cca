// npm run snapshot -- list | rollback [<id>]
// list: the kept generations of DATA_DIR (--data-dir DIR), oldest first, the served one marked.
// rollback: points CURRENT at the newest generation older than the served one, or at <id> (one atomic
// rename, under the ingest lock); a running server reloads it. Exit codes as the ingest CLI's
// (ingest/exitCodes.ts): 0 done, 2 usage or unknown generation, 3 locked, 4 operator error.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { currentGeneration } from '../engine/generation.ts';
import { EXIT, storageErrorLine } from '../ingest/exitCodes.ts';
import { listGenerations, rollback, RollbackError } from '../ingest/generations.ts';
import { LockedError } from '../ingest/lock.ts';
import { endQuietlyOnClosedPipe } from './commandLine.ts';

const USAGE = 'usage: npm run snapshot -- list | rollback [<id>]  [--data-dir DIR]';

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    log(`snapshot: ${(error as Error).message}\n${USAGE}`);
    return EXIT.usage;
  }
  const [action, target, ...extra] = parsed.positionals;
  if (parsed.values.help) {
    process.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  const dataDir = resolve(parsed.values['data-dir'] ?? process.env.DATA_DIR ?? 'data/parquet');
  try {
    if (action === 'list' && target === undefined) {
      const generations = await listGenerations(dataDir);
      if (generations.length === 0) {
        const { id } = currentGeneration(dataDir);
        process.stdout.write(id === null ? `${dataDir}: no generations yet (flat layout; migrated at the next ingest or start)\n` : '');
        return EXIT.ok;
      }
      for (const g of generations) {
        const mark = g.current ? '*' : g.published ? ' ' : '?';
        const mb = (g.bytes / 1_048_576).toFixed(1);
        process.stdout.write(`${mark} ${g.id}  ${String(g.files).padStart(3)} files ${mb.padStart(8)} MB  parent ${g.manifest?.parent ?? '-'}  ${g.manifest?.note ?? ''}\n`);
      }
      return EXIT.ok;
    }
    if (action === 'rollback' && extra.length === 0) {
      const { from, to } = await rollback(dataDir, target, log);
      log(from === to ? `snapshot: ${to} is already served` : `snapshot: rolled back from ${from ?? 'none'} to ${to}`);
      return EXIT.ok;
    }
    log(USAGE);
    return EXIT.usage;
  } catch (error) {
    if (error instanceof RollbackError) {
      log(`snapshot: ${error.message}`);
      return EXIT.usage;
    }
    if (error instanceof LockedError) {
      log(`snapshot: refused: ${error.message}`);
      return EXIT.locked;
    }
    const storage = storageErrorLine(error);
    if (storage !== null) {
      log(`snapshot: stopped: ${storage}`);
      return EXIT.storage;
    }
    throw error;
  }
}

endQuietlyOnClosedPipe();
process.exitCode = await main(process.argv.slice(2));
