// `npm run bench:probe -- DATA_DIR [filter] [--runs N] [--explain] [--rebuild]`: opens a snapshot the
// way the server does and times every catalog example whose route id or URL contains `filter`: the
// handler (p50/p99, answer cache off) and each statement it issues, with the statement's plan on
// request (--explain). --rebuild first rebuilds the serving database when the code changed since it
// was built (as the benchmark does), so the figures are those of the file, not of an in-memory load.
import { parseArgs } from 'node:util';
import type { RecordedQuery } from './recordingDatabase.ts';
import { endQuietlyOnClosedPipe, exitOnBadEngineSettings, exitWithHelpIfAsked } from '../bin/commandLine.ts';

const USAGE = 'usage: npm run bench:probe -- DATA_DIR [filter] [--runs N] [--explain] [--rebuild]';
exitWithHelpIfAsked(`${USAGE}

Opens the snapshot in DATA_DIR as the server does and times every catalog example whose route id or
URL contains filter: the handler (p50/p99, answer cache off, --runs times, default 30) and each
statement it issues (--explain: with its plan). --rebuild first rebuilds the serving database when
the code changed since it was built.`);
exitOnBadEngineSettings('bench:probe');
endQuietlyOnClosedPipe();

const { buildServing, openSnapshot, routes } = await import('../domains/index.ts');
const { hasServingDatabase } = await import('../domains/servingDatabase.ts');
const { engineOptionsFromEnv } = await import('../http/config.ts');
const { benchCases } = await import('./examples.ts');
const { recordingDatabase } = await import('./recordingDatabase.ts');
const { summarize, timeRuns } = await import('./stats.ts');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { runs: { type: 'string', default: '30' }, explain: { type: 'boolean', default: false }, rebuild: { type: 'boolean', default: false } },
});
const [dataDir, filter = ''] = positionals;
if (!dataDir) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const runs = Number(values.runs);
if (values.rebuild && !(await hasServingDatabase(dataDir))) {
  const building = performance.now();
  await buildServing(dataDir);
  process.stdout.write(`rebuilt the serving database in ${((performance.now() - building) / 1000).toFixed(1)} s\n`);
}
const started = performance.now();
// As the server does (DUCKDB_THREADS and DUCKDB_MEMORY_LIMIT included): the serving database when the snapshot has a valid one, else loaded into memory.
const { db, mode } = await openSnapshot(dataDir, engineOptionsFromEnv());
process.stdout.write(`${mode === 'file' ? 'opened the serving database' : 'loaded into memory'} in ${((performance.now() - started) / 1000).toFixed(2)} s, RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB\n`);
const ms = (x: number) => x.toFixed(2).padStart(8);
const today = '2026-11-22';
for (const c of benchCases(routes)) {
  if (filter && !c.routeId.includes(filter) && !c.url.includes(filter)) continue;
  const route = routes.find((r) => r.id === c.routeId)!;
  const recorded: RecordedQuery[] = [];
  try {
    await route.handle(c.params, { db: recordingDatabase(db, recorded), today, body: c.body });
  } catch (error) {
    process.stdout.write(`${c.url}: ${error instanceof Error ? error.message : String(error)}\n`);
    continue;
  }
  const handler = summarize(await timeRuns(() => route.handle(c.params, { db, today, body: c.body }), runs, 3));
  process.stdout.write(`${ms(handler.p50)} p50 ${ms(handler.p99)} p99  ${c.url}  (${recorded.length} statements)\n`);
  for (const q of recorded) {
    const one = summarize(await timeRuns(() => db.all(q.sql, q.params), runs, 1));
    process.stdout.write(`${ms(one.p50)} p50 ${ms(one.p99)} p99    ${q.sql.replace(/\s+/g, ' ').slice(0, 110)}\n`);
    if (values.explain) {
      const plan = await db.all(`EXPLAIN ANALYZE ${q.sql}`, q.params);
      process.stdout.write(`${String(plan[0]?.explain_value ?? JSON.stringify(plan))}\n`);
    }
  }
}
await db.close();
