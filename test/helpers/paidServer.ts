// A paid server in its own process, for the replica tests: the snapshot at PAID_SNAPSHOT_DIR served
// with the payment settings of its environment (X402_*, DATABASE_URL, TRUST_PROXY, ...) on a free
// loopback port. It prints one JSON line, {"base": "http://127.0.0.1:<port>"}, once it listens, and
// stops on SIGTERM.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { routes } from '../../domains/index.ts';
import { createApp } from '../../http/app.ts';
import { readPaymentSettings } from '../../http/payments/config.ts';
import { createPayments } from '../../http/payments/index.ts';
import { openSnapshot } from '../../http/openSnapshot.ts';
import { FIXED_NOW } from './app.ts';

const db = await openSnapshot(process.env.PAID_SNAPSHOT_DIR!);
const server = createServer();
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const payments = createPayments({ routes, settings: readPaymentSettings(process.env), baseUrl: base, log: (message) => console.error(message) });
await payments.start();
const app = await createApp({ db, routes, now: () => FIXED_NOW, beforeHandler: [payments.middleware], logError: (error) => console.error(error) });
const handle = app.callback();
server.on('request', (request, response) => void handle(request, response));
console.log(JSON.stringify({ base }));

process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => void payments.close().then(() => db.close()).then(() => process.exit(0)));
});
