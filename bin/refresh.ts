// npm run refresh [--data-dir DIR]: a long-running worker that fetches each source on its schedule
// (data/config/sources.json, else each source's default; ingest/fetch/sources.ts), one fetch at a time,
// publishing what changed as `npm run fetch -- <source>` does. JSON log lines on stdout (http/log.ts,
// LOG_LEVEL). SIGTERM or SIGINT: the wait ends, a running fetch finishes, exit 0.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Schedule } from '../ingest/fetch/refresh.ts';
import { FETCH_SOURCE_NAMES, FETCH_SOURCES, plansOf, SCHEDULE_TIMEZONE } from '../ingest/fetch/sources.ts';
import { endQuietlyOnClosedPipe, exitOnBadEngineSettings, exitWithHelpIfAsked } from './commandLine.ts';

const USAGE = [
  'usage: npm run refresh -- [--data-dir DIR]',
  '',
  'Fetches each source on its own schedule, one at a time, and publishes what changed (as npm run fetch).',
  `Schedules: data/config/sources.json (FETCH_CONFIG) "schedule", croner expressions in ${SCHEDULE_TIMEZONE} time;`,
  'defaults:',
  ...FETCH_SOURCES.map((s) => `  ${s.name.padEnd(10)} ${s.schedule}`),
  'Sources without an address (sebra, ptp, ets until the operator file gives theirs) or with "enabled": false are not scheduled.',
  'Logs JSON lines on stdout (LOG_LEVEL). SIGTERM/SIGINT: stops after the running fetch. The fetch settings are',
  'npm run fetch\'s (npm run fetch -- --help).',
].join('\n');

exitWithHelpIfAsked(USAGE);
endQuietlyOnClosedPipe();
exitOnBadEngineSettings('refresh');

const { default: pino } = await import('pino');
const { buildServing, DOMAINS } = await import('../domains/index.ts');
const { ingestCommandsOf } = await import('../domains/registry.ts');
const { createLogger, logLevelFromEnv } = await import('../http/log.ts');
const { UsageError } = await import('../ingest/command.ts');
const { EXIT } = await import('../ingest/exitCodes.ts');
const { configPathOf, readFetchConfig, sourceConfigOf } = await import('../ingest/fetch/config.ts');
const { RefreshWorker } = await import('../ingest/fetch/refresh.ts');
const { fetchSources } = await import('../ingest/fetch/run.ts');

// Synchronous writes: a long-lived worker logs little, and its last line must not be lost at exit.
const logger = createLogger({ level: logLevelFromEnv(), destination: pino.destination({ dest: 1, sync: true }) });
const log = (message: string, fields: Record<string, unknown>) => logger.info(fields, message);

async function main(): Promise<number> {
  let dataDir: string;
  let schedules: Schedule[];
  try {
    const { values } = parseArgs({ args: process.argv.slice(2), options: { 'data-dir': { type: 'string' } } });
    dataDir = resolve(values['data-dir'] ?? process.env.DATA_DIR ?? 'data/parquet');
    const config = await readFetchConfig(configPathOf(dataDir), FETCH_SOURCE_NAMES);
    schedules = [];
    for (const source of FETCH_SOURCES) {
      const own = sourceConfigOf(config, source.name);
      if (own?.enabled === false) continue;
      // A listed portal dataset (ptp by default) has its addresses from the listing at fetch time.
      if ((source.listing?.(own) ?? null) === null && plansOf(source, { env: process.env, now: new Date(), config: own }).length === 0) {
        log(`refresh: ${source.name} not scheduled: it needs ${source.needs}`, { event: 'refresh_unconfigured', source: source.name });
        continue;
      }
      schedules.push({ source: source.name, pattern: own?.schedule ?? source.schedule });
    }
  } catch (error) {
    if (!(error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))) throw error;
    process.stderr.write(`refresh: ${(error as Error).message}\n${USAGE}\n`);
    return EXIT.usage;
  }
  const commands = ingestCommandsOf(DOMAINS);
  const worker = new RefreshWorker({
    schedules,
    log,
    fetch: (source) => fetchSources([source], { dataDir, skipUnconfigured: true }, {
      commands,
      prepare: (scratchDir) => buildServing(scratchDir, (line) => log(line, { event: 'serving_build', source })),
      log: (line) => log(line, { event: 'fetch', source }),
    }),
  });
  // `on`, not `once`: tsx re-raises a signal that no listener is left for, which would end the process unclean.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      log(`refresh: ${signal}: stopping after the running fetch`, { event: 'refresh_stopping', signal });
      void worker.stop();
    });
  }
  log(`refresh: ${schedules.length} source(s) scheduled in ${dataDir}`, { event: 'refresh_started', sources: schedules.map((s) => s.source) });
  await worker.start();
  log('refresh: stopped', { event: 'refresh_stopped' });
  return EXIT.ok;
}

process.exitCode = await main();
