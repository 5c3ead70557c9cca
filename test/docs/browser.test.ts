// The HTML documentation in a real headless Chromium (Debian's `chromium`, driven by playwright-core):
// the page renders, shows every domain and route of the catalog, its copy buttons run under the
// page's Content-Security-Policy, nothing is logged as an error, and no request leaves the test
// server. A screenshot of each page is written under .test-output/docs/ (of /api, its first screen).
// Chromium missing is a failure (CI installs it in .ci/run); SKIP_BROWSER_TESTS=1 skips instead.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { Database } from '../../engine/database.ts';
import { createApp } from '../../http/app.ts';
import { defaultPaymentInfo } from '../../http/docs/paymentInfo.ts';
import { openSnapshot } from '../../http/openSnapshot.ts';
import { routes } from '../../domains/index.ts';
import { FIXED_NOW } from '../helpers/app.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SKIP = process.env.SKIP_BROWSER_TESTS === '1' ? 'SKIP_BROWSER_TESTS=1' : false;
const OUTPUT = path.resolve('.test-output/docs');
const tags = [...new Set(routes.map((route) => route.tag))];

let server: Server;
let db: Database;
let base: string;
let context: BrowserContext;
let profile: string;
let emptySnapshot: string | undefined;

before(async () => {
  if (SKIP) return;
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}: install Debian's package (apt-get install -y chromium; .ci/run does this), ` +
        'set CHROMIUM_PATH, or set SKIP_BROWSER_TESTS=1 to skip the browser test',
    );
  }
  emptySnapshot = await mkdtemp(path.join(os.tmpdir(), 'docs-browser-'));
  db = await openSnapshot(emptySnapshot);
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const app = await createApp({ db, routes, now: () => FIXED_NOW, logError: () => undefined, docs: { baseUrl: base, payment: defaultPaymentInfo() } });
  // Koa's handler answers its own errors: its promise never rejects.
  const handle = app.callback();
  server.on('request', (request, response) => void handle(request, response));
  profile = await mkdtemp(path.join(os.tmpdir(), 'docs-chromium-profile-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 900 },
  });
  await mkdir(OUTPUT, { recursive: true });
});

after(async () => {
  await context?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
  server?.closeAllConnections();
  if (server) await new Promise((resolve) => server.close(resolve));
  await db?.close();
  if (emptySnapshot) await rm(emptySnapshot, { recursive: true, force: true });
});

/** The section id the page gives a route (tag-id, other characters as _). */
function anchor(route: (typeof routes)[number]): string {
  return `${route.tag}-${route.id}`.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** The id and rendered text of every endpoint section of a page, in one call to the browser. */
function endpointSections(page: Page): Promise<Array<{ id: string; text: string }>> {
  return page.locator('section.endpoint').evaluateAll((nodes) => nodes.map((node) => ({ id: node.id, text: (node as HTMLElement).innerText })));
}

interface Visit {
  page: Page;
  problems: string[];
  foreign: string[];
}

async function visit(pathname: string): Promise<Visit> {
  const page = await context.newPage();
  const problems: string[] = [];
  const foreign: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => {
    if (!request.url().startsWith(`${base}/`)) foreign.push(request.url());
  });
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
  const response = await page.goto(base + pathname, { waitUntil: 'load' });
  assert.equal(response?.status(), 200, pathname);
  return { page, problems, foreign };
}

test('/api renders every domain and route, copy buttons work, no errors, no request beyond the server', { skip: SKIP }, async () => {
  const { page, problems, foreign } = await visit('/api');
  assert.match(await page.title(), /Public data service/);
  assert.equal(await page.locator('h1').first().innerText(), 'Public data service');
  for (const tag of tags) {
    const section = page.locator(`section.domain[data-domain="${tag}"]`);
    assert.equal(await section.count(), 1, `domain ${tag}`);
    assert.ok(await section.isVisible(), `domain ${tag} visible`);
  }
  // Every route's section with its text, read in one call (not two round trips to the browser per route).
  const sections = await endpointSections(page);
  for (const route of routes) {
    const matching = sections.filter((section) => section.id === anchor(route));
    assert.equal(matching.length, 1, route.id);
    const text = matching[0]!.text;
    for (const form of route.paths) assert.ok(text.includes(form), `${route.id}: ${form}`);
    assert.ok(text.includes(`curl -sS `) && text.includes(`'${base}${route.examples[0]}'`), `${route.id}: curl example`);
  }
  const paying = await page.locator('#paying').innerText();
  for (const fact of ['USD 0.01', 'eip155:8453', 'eip155:137', 'eip155:42161', '402', 'PAYMENT-SIGNATURE']) assert.ok(paying.includes(fact), fact);

  // The page's own script runs under its CSP: a copy button reacts (clipboard or selection fallback).
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  const button = page.locator('button[data-copy]').first();
  const command = await page.locator('.example code').first().innerText();
  await button.click();
  await page.waitForFunction(() => document.querySelector('button[data-copy]')?.textContent !== 'Copy', undefined, { timeout: 5000 });
  assert.equal(await button.innerText(), 'Copied');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), command);

  // Its first screen: the whole page is some 70,000 pixels tall (seconds of PNG encoding), and each of
  // its route sections is in a domain page's screenshot below, taken whole.
  await page.screenshot({ path: path.join(OUTPUT, 'api.png') });
  assert.deepEqual(problems, []);
  assert.deepEqual(foreign, []);
  await page.close();
});

test('/docs and each /docs/<domain>/ render with their routes and no errors', { skip: SKIP }, async () => {
  const index = await visit('/docs');
  for (const tag of tags) assert.equal(await index.page.locator(`ul.domains li[data-domain="${tag}"]`).count(), 1, tag);
  await index.page.screenshot({ path: path.join(OUTPUT, 'docs.png'), fullPage: true });
  assert.deepEqual(index.problems, []);
  assert.deepEqual(index.foreign, []);
  await index.page.close();
  for (const tag of tags) {
    const domain = await visit(`/docs/${tag}/`);
    const ids = (await endpointSections(domain.page)).map((section) => section.id);
    for (const route of routes) {
      assert.equal(ids.filter((id) => id === anchor(route)).length, route.tag === tag ? 1 : 0, `${route.id} on /docs/${tag}/`);
    }
    await domain.page.screenshot({ path: path.join(OUTPUT, `docs-${tag}.png`), fullPage: true });
    assert.deepEqual(domain.problems, []);
    assert.deepEqual(domain.foreign, []);
    await domain.page.close();
  }
});
