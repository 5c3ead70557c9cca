// Several ingest commands against ONE scratch generation, published once (what `npm run fetch` needs:
// everything that changed in a run becomes one generation). Each step runs as the ingest CLI would run it
// (same command, same validation, shrink rule and import records); a step that fails is undone in the
// scratch folder (its tables back as they were) and reported, and the others are kept. A machine error
// (disk full, read-only folder) stops the whole batch: nothing is published. Uses withNewGeneration
// (ingest/generations.ts) as the CLI does, so the lock, the atomic publication and the recovery are the same.
import { link, mkdir, readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { UsageError, type IngestCommand, type IngestOutcome } from './command.ts';
import { IngestRejectedError } from './errors.ts';
import { storageErrorLine } from './exitCodes.ts';
import { withNewGeneration } from './generations.ts';
import { ShrinkRefusedError } from './shrink.ts';

export interface BatchStep {
  /** Names the step in the results ("ecb/key_rates"). */
  key: string;
  command: IngestCommand;
  /** The file or folder the command reads. */
  path: string;
  options: Record<string, string | boolean | undefined>;
}

export type FailureKind = 'malformed' | 'shrink' | 'usage' | 'error';

export type StepResult =
  | { key: string; ok: true; outcome: IngestOutcome }
  | { key: string; ok: false; kind: FailureKind; reason: string };

export interface BatchOptions {
  /** Names the holder in the lock and the generation's manifest ("fetch ecb eurostat"). */
  command: string;
  log: (line: string) => void;
  keep: number;
  allowShrink?: boolean;
  /** Builds the serving database of the new generation (the composition root passes domains' buildServing). */
  prepare?: (scratchDir: string) => Promise<void>;
}

export interface BatchResult {
  results: StepResult[];
  /** The generation published; null when no step imported anything (no generation is made). */
  generation: string | null;
}

/** The first line of an error, and for a rejected batch every problem it lists. */
function reasonOf(error: unknown): string {
  if (error instanceof IngestRejectedError) return error.message.split('\n').map((line) => line.trim()).filter(Boolean).join('; ').slice(0, 2000);
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 2000);
}

function kindOf(error: unknown): FailureKind {
  if (error instanceof IngestRejectedError) return 'malformed';
  if (error instanceof ShrinkRefusedError) return 'shrink';
  if (error instanceof UsageError) return 'usage';
  return 'error';
}

/** Hard links of the scratch folder's entries into `backup` (the tables are replaced by renames, never written in place). */
async function keepTables(scratch: string, backup: string): Promise<string[]> {
  await mkdir(backup, { recursive: true });
  const names = (await readdir(scratch)).filter((name) => name.endsWith('.parquet'));
  for (const name of names) await link(join(scratch, name), join(backup, name));
  return names;
}

/** Puts the scratch folder back as keepTables saw it: what the step added goes, what it replaced comes back. */
async function restoreTables(scratch: string, backup: string, names: readonly string[]): Promise<void> {
  const kept = new Set(names);
  for (const name of await readdir(scratch)) {
    if (!kept.has(name)) await rm(join(scratch, name), { recursive: true, force: true });
  }
  for (const name of names) {
    await rm(join(scratch, name), { force: true });
    await link(join(backup, name), join(scratch, name));
  }
}

/**
 * Runs the steps in order against one scratch copy of the current generation (under the data folder's
 * lock) and publishes it when a step imported something. LockedError and storage errors are thrown.
 */
export async function runIngestBatch(dataDir: string, steps: readonly BatchStep[], options: BatchOptions): Promise<BatchResult> {
  const root = resolve(dataDir);
  // Beside the generations, named so that recoverDataDir removes it after a crash (`.tmp-ingest-*`).
  const backup = join(root, `.tmp-ingest-batch-${process.pid}`);
  const run = await withNewGeneration<StepResult[]>(
    root,
    { command: options.command, log: options.log, keep: options.keep, prepare: options.prepare },
    async (scratch) => {
      const results: StepResult[] = [];
      try {
        for (const step of steps) {
          await rm(backup, { recursive: true, force: true });
          const names = await keepTables(scratch, backup);
          try {
            const outcome = await step.command.run({
              path: step.path, dataDir: scratch, options: step.options, log: options.log, allowShrink: options.allowShrink === true,
            });
            results.push({ key: step.key, ok: true, outcome });
          } catch (error) {
            if (storageErrorLine(error) !== null) throw error;
            await restoreTables(scratch, backup, names);
            results.push({ key: step.key, ok: false, kind: kindOf(error), reason: reasonOf(error) });
            options.log(`ingest: ${step.key}: ${reasonOf(error)}; its data is left as it was`);
          }
        }
      } finally {
        await rm(backup, { recursive: true, force: true });
      }
      return results;
    },
    (results) => results.some((result) => result.ok && result.outcome.imported > 0),
  );
  return { results: run.value, generation: run.generation };
}
