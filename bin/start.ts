// `npm start`: build the snapshot from the sample data when it is missing, then serve.
import { readConfig } from '../http/config.ts';
import { startServer } from '../http/server.ts';
import { ensureSnapshot } from '../ingest/bootstrap.ts';

const config = readConfig();
await ensureSnapshot({ dataDir: config.dataDir, sampleDir: config.sampleDir, log: (line: string) => console.log(line) });
const { server, db } = await startServer(config);
console.log(`serving ${config.dataDir} on ${config.baseUrl}`);

function shutdown(): void {
  server.close(() => {
    void db.close().then(() => process.exit(0));
  });
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
