// `npm start`: build the snapshot from the sample data when it is missing, then serve. The samples are
// invented data: they go only into an empty DATA_DIR (or one holding only samples), or anywhere with
// `npm start -- --sample` / SAMPLE=1 (ingest/bootstrap.ts).
import { readConfig, type ServerConfig } from '../http/config.ts';
import { PaymentConfigError } from '../http/payments/config.ts';
import { startServer } from '../http/server.ts';
import { DOMAINS } from '../domains/index.ts';
import { sampleSourcesOf } from '../domains/registry.ts';
import { ensureSnapshot, sampleRequested } from '../ingest/bootstrap.ts';

/** A configuration problem is one clear line and exit code 1, not a stack trace. */
function refuseToStart(error: unknown): never {
  if (!(error instanceof PaymentConfigError)) throw error;
  console.error(`refusing to start: ${error.message}`);
  process.exit(1);
}

let config: ServerConfig;
try {
  config = readConfig();
} catch (error) {
  refuseToStart(error);
}
await ensureSnapshot({ dataDir: config.dataDir, sampleDir: config.sampleDir, sources: sampleSourcesOf(DOMAINS), sample: sampleRequested(), log: (line: string) => console.log(line) });
const { server, db } = await startServer(config, {
  log: (message, error) => (error === undefined ? console.log(message) : console.error(message, error)),
}).catch(refuseToStart);
const payments = config.payments.payTo
  ? `payments to ${config.payments.payTo} on ${config.payments.networks.join(', ')}`
  : 'payments not configured: only loopback and allowlisted clients are served paid routes';
console.log(`serving ${config.dataDir} on ${config.baseUrl} (${config.nodeEnv}; ${payments})`);

function shutdown(): void {
  server.close(() => {
    void db.close().then(() => process.exit(0));
  });
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
