// docs/paying.md's client snippets, copied out of the page and run as a reader would (in a folder of
// their own, against a paid server on the local chain): the TypeScript client with @x402/fetch, and
// the raw 402 -> sign -> retry flow with curl and sign.mjs. Each pays exactly once; the raw flow's
// step 3 run again with the same signature and payment id is answered again, not charged.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DEV_KEYS } from '../../devchain/chain.ts';
import { routes } from '../../domains/index.ts';
import { projectRoot, type CliResult } from '../helpers/cli.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';
import { devPaymentEnv, startPaidApp, startPaymentRig, type PaidApp, type PaymentRig } from '../helpers/payments.ts';

const PRICE = 10_000n;
const DOC_BASE = 'http://127.0.0.1:3000';
// The fixture has 2024 (the page's example asks for 2025, which the sample data has).
const DOC_PATH = '/api/sebra/getTaxonomyForYear?year=2025';
const FIXTURE_PATH = '/api/sebra/getTaxonomyForYear?year=2024';

let rig: PaymentRig;
let app: PaidApp;
let work: string;
let page: string;
before(async () => {
  rig = await startPaymentRig(await writeSebraSnapshot(fixturePayments, fixtureDays));
  app = await startPaidApp({ db: rig.db, routes, env: devPaymentEnv(rig.chain, rig.facilitator.url) });
  page = await readFile(path.join(projectRoot, 'docs/paying.md'), 'utf8');
  // A reader's own folder, with the project's installed packages (as after their npm install).
  work = await mkdtemp(path.join(os.tmpdir(), 'paying-doc-'));
  await symlink(path.join(projectRoot, 'node_modules'), path.join(work, 'node_modules'), 'dir');
});
after(async () => {
  await app?.close();
  if (app) await rm(path.dirname(app.ledgerPath), { recursive: true, force: true });
  if (work) await rm(work, { recursive: true, force: true });
  await rig?.facilitator.stop();
  await rig?.db.close();
});

/** The fenced code block after `<!-- snippet: name -->`, the page's own text. */
function snippet(name: string): string {
  const match = new RegExp(`<!-- snippet: ${name} -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\`\\n`).exec(page);
  assert.ok(match, `docs/paying.md has the snippet ${name}`);
  return `${match[1]}\n`;
}

/** The page's address, pointed at the test server. */
const pointed = (code: string) => code.replaceAll(`${DOC_BASE}${DOC_PATH}`, `${app.base}${FIXTURE_PATH}`);

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: work, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const balance = () => rig.chain.balanceOf(rig.chain.addresses.payer);
const readerEnv = () => ({ X402_PAYER_KEY: DEV_KEYS.payer, X402_TEST_TOKEN: rig.chain.token });

describe('docs/paying.md', () => {
  test('the TypeScript client with @x402/fetch pays once and prints the receipt and the answer', async () => {
    await writeFile(path.join(work, 'pay.mts'), pointed(snippet('typescript-fetch')));
    const start = await balance();
    const result = await run(process.execPath, ['--import', 'tsx', 'pay.mts'], readerEnv());
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^200 \{/);
    assert.match(result.stdout, /success: true/);
    assert.match(result.stdout, /endpoint: 'getTaxonomyForYear'/);
    assert.equal(start - (await balance()), PRICE);
  });

  test('the raw flow (curl, sign.mjs, curl) pays once; step 3 again with the same signature is answered, not charged', async () => {
    await writeFile(path.join(work, 'sign.mjs'), snippet('sign-mjs'));
    const flow = pointed(snippet('curl-flow'));
    assert.ok(flow.includes(app.base), 'the flow names the address');
    // The flow, then its step 3 (the last two lines) once more.
    const stepThree = flow.trim().split('\n').slice(-2).join('\n');
    await writeFile(path.join(work, 'flow.sh'), `set -e\n${flow}echo ---\n${stepThree}\n`);
    const start = await balance();
    const result = await run('sh', ['flow.sh'], readerEnv());
    assert.equal(result.code, 0, result.stderr);
    const [first, again] = result.stdout.split('---\n');
    const [body, receipt] = first!.trim().split('\n').slice(-2) as [string, string];
    assert.equal(JSON.parse(body).endpoint, 'getTaxonomyForYear');
    const settled = JSON.parse(receipt);
    assert.equal(settled.success, true);
    assert.match(settled.transaction, /^0x[0-9a-f]{64}$/);
    assert.equal(again!.trim(), first!.trim().split('\n').slice(-2).join('\n'), 'the same answer and receipt');
    assert.equal(start - (await balance()), PRICE);
  });
});
