// `npm start`: build the snapshot from the sample data when it is missing, then serve. The samples are
// invented data: they go only into an empty DATA_DIR (or one holding only samples), or anywhere with
// `npm start -- --sample` / SAMPLE=1 (ingest/bootstrap.ts). With NODE_ENV=production no sample is built,
// and a snapshot holding sample data (or none) is refused unless ALLOW_SAMPLE_DATA=true.
// Before that, DATA_DIR is recovered after an interrupted ingest (scratch folders removed, a flat
// layout migrated into a first generation) and the samples are built into one new generation. While
// serving, a new generation (an ingest, a rollback) is swapped in on its own (the pointer is polled
// every second) or at once on SIGHUP.
// Lines are JSON (pino, http/log.ts) at LOG_LEVEL, pretty in a terminal; a setting that refuses the
// start is one plain line on stderr (its message never quotes a secret).
import type { ServerConfig } from '../http/config.ts';
import { exitWithHelpIfAsked } from './commandLine.ts';

exitWithHelpIfAsked(`usage: npm start [-- --sample]

Serves the API from DATA_DIR (default data/parquet) on HOST:PORT (default 127.0.0.1:3000). A DATA_DIR
that is empty, or holds only samples, first gets every missing source's invented sample data built
(--sample or SAMPLE=1: also beside real imports). With NODE_ENV=production no sample is built, and a
DATA_DIR holding sample data, or none, is refused unless ALLOW_SAMPLE_DATA=true. Every setting is an
environment variable: README.md, "Configuration".`);

const { ConfigError, readConfig } = await import('../http/config.ts');

/** A configuration problem is one clear line and exit code 1, not a stack trace. */
function refuseToStart(error: unknown): never {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`refusing to start: ${error.message}`);
  process.exit(1);
}

let config: ServerConfig;
try {
  config = readConfig();
} catch (error) {
  refuseToStart(error);
}
// The server and the snapshot code load once the settings are known to be good.
const { createLogger } = await import('../http/log.ts');
const { startServer } = await import('../http/server.ts');
const { buildServing, DOMAINS, ensureServing } = await import('../domains/index.ts');
const { sampleSourcesOf } = await import('../domains/registry.ts');
const { ensureSnapshot, productionDataRefusal, sampleRequested } = await import('../ingest/bootstrap.ts');
const { storageErrorLine } = await import('../ingest/exitCodes.ts');
const { recoverAtStart, withNewGeneration } = await import('../ingest/generations.ts');
const { LockedError } = await import('../ingest/lock.ts');
const logger = createLogger({ level: config.logLevel });
const startLog = (line: string) => logger.info({ event: 'preparing' }, line);
// Production serves invented figures only when the operator says so (ALLOW_SAMPLE_DATA=true).
const sampleGuard = config.nodeEnv === 'production' && !config.allowSampleData;
try {
  await recoverAtStart(config.dataDir, startLog);
  // The missing sources built into one new generation, published at the end (none when nothing was built).
  if (!sampleGuard) await withNewGeneration(
    config.dataDir,
    { command: 'npm start (samples)', log: startLog, prepare: (scratch) => buildServing(scratch, startLog) },
    (scratch) => ensureSnapshot({ dataDir: scratch, sampleDir: config.sampleDir, sources: sampleSourcesOf(DOMAINS), sample: sampleRequested(), log: startLog }),
    (result) => result.built,
  );
} catch (error) {
  // A live ingest holds the lock, or DATA_DIR cannot be written (a read-only mount): serve what is there.
  const storage = storageErrorLine(error);
  if (!(error instanceof LockedError) && storage === null) throw error;
  logger.warn({ event: 'preparing' }, `${error instanceof LockedError ? error.message : `cannot write ${config.dataDir}: ${storage}`}: serving the current generation without recovery or samples`);
}
if (config.nodeEnv === 'production') {
  const refusal = await productionDataRefusal(config.dataDir);
  if (refusal && sampleGuard) refuseToStart(new ConfigError(refusal));
  if (refusal) logger.warn({ event: 'sample_data' }, `ALLOW_SAMPLE_DATA=true: serving generated sample data in production; every answer says sample (X-Data-Source, challenge, discovery)`);
}
// A generation without its serving database (written before they existed) gets one, so this and later starts open a file.
await ensureServing(config.dataDir, startLog).catch((error: unknown) => {
  logger.warn({ event: 'preparing' }, `snapshot: the serving database could not be built (${error instanceof Error ? error.message : String(error)}): loading the snapshot into memory`);
});
const { server, snapshots, reloader, metricsServer } = await startServer(config, { logger }).catch(refuseToStart);
const payments = config.payments.payTo
  ? `payments to ${config.payments.payTo} on ${config.payments.networks.join(', ')}`
  : 'payments not configured: only loopback and allowlisted clients are served paid routes';
logger.info(
  { event: 'start', base_url: config.baseUrl, data_dir: config.dataDir, node_env: config.nodeEnv, generation: snapshots.current().generation },
  `serving ${config.dataDir} on ${config.baseUrl} (${config.nodeEnv}; ${payments})`,
);

// The documents' example answers are computed once, on the first documentation request (they run every
// operation's first example): ask for the OpenAPI now, so they come from the snapshot loaded at start and
// the first reader does not wait. A failure here only means the first reader builds them.
const address = server.address();
if (address && typeof address === 'object') {
  const loopback = address.family === 'IPv6' ? `[${address.address === '::' ? '::1' : address.address}]` : address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
  void fetch(`http://${loopback}:${address.port}/openapi.json`).then((response) => response.arrayBuffer(), () => undefined).catch(() => undefined);
}

process.on('SIGHUP', () => {
  logger.info({ event: 'sighup' }, 'SIGHUP: checking the snapshot pointer for a new generation');
  void reloader.reload();
});

function shutdown(): void {
  logger.info({ event: 'stop' }, 'stopping: finishing the requests under way');
  reloader.stop();
  metricsServer?.close();
  server.close(() => {
    void snapshots.close().then(() => process.exit(0));
  });
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
