// The query CLI (bin/query.ts) against the HTTP API over the same generated sample: for every
// catalog sample request the CLI writes the API's body byte for byte (JSON, and CSV and Arrow for
// list routes), its errors are the API's JSON errors on stderr with exit code 1, usage is exit 2.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { routes } from '../../domains/index.ts';
import { exampleRequests } from '../../queries/catalog.ts';
import { runQuery } from '../../bin/query.ts';
import { FIXED_NOW, withoutRequestId, type TestApp } from '../helpers/app.ts';
import { runCli } from '../helpers/cli.ts';
import { startSampleApp } from '../http/sample-app.ts';

let root: string;
let dataDir: string;
let app: TestApp;
before(async () => {
  // A folder for the CLI's output files; the snapshot is every domain's sample (built once per `npm test` run).
  root = await mkdtemp(path.join(os.tmpdir(), 'query-cli-'));
  const sample = await startSampleApp('query-cli-sample-');
  app = sample;
  dataDir = sample.dataDir;
});
after(async () => {
  await app?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/** The CLI in-process on the app's own snapshot, with the tests' clock. */
async function query(...argv: string[]): Promise<Run> {
  const out: Buffer[] = [];
  let stderr = '';
  const code = await runQuery(argv, {
    db: app.db,
    now: () => FIXED_NOW,
    stdout: { write: (chunk: string | Uint8Array) => out.push(Buffer.from(chunk)) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
  });
  return { code, stdout: Buffer.concat(out), stderr };
}

async function httpBytes(url: string, init?: RequestInit): Promise<{ status: number; bytes: Buffer; dataSource: string | null }> {
  const response = await app.request(url, init);
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), dataSource: response.headers.get('X-Data-Source') };
}

/** The stderr of an answer on sample data: one note naming what the API's X-Data-Source header says. */
function assertSampleNote(stderr: string, dataSource: string | null): void {
  assert.equal(dataSource, 'sample');
  assert.match(stderr, /^query: note: sample data: invented by the project's sample generator, not published figures \(X-Data-Source: sample\)\n$/);
}

/** An HTTP error body as the CLI writes it: the same, without the HTTP answer's own request id. */
async function httpErrorAsCli(response: Response): Promise<unknown> {
  const body = await response.json();
  assert.equal(body.error.request_id, response.headers.get('x-request-id'));
  return withoutRequestId(body);
}

const withFormat = (url: string, format: string) => `${url}${url.includes('?') ? '&' : '?'}format=${format}`;

describe('every catalog sample request: the CLI writes the HTTP body byte for byte', () => {
  for (const route of routes) {
    for (const [index, { url, body }] of exampleRequests(route).entries()) {
      test(`${route.id}: ${url}${body !== undefined ? ` (body ${index + 1})` : ''}`, async () => {
        const init: RequestInit | undefined = body === undefined ? undefined : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
        const http = await httpBytes(url, init);
        assert.equal(http.status, 200, url);
        const args = body === undefined ? [url] : [url, '--body', JSON.stringify(body)];
        const cli = await query(...args);
        assert.equal(cli.code, 0, cli.stderr);
        // The sample says so on stderr; stdout stays the API's bytes.
        assertSampleNote(cli.stderr, http.dataSource);
        assert.ok(cli.stdout.equals(http.bytes), `${url}: the CLI's JSON differs from the API's`);
        // CSV and Arrow of a list route's first sample, through --format (GET routes; the API reads ?format= the same way).
        if (route.listRows && index === 0 && body === undefined) {
          for (const format of ['csv', 'arrow']) {
            const expected = await httpBytes(withFormat(url, format));
            assert.equal(expected.status, 200);
            const got = await query(url, '--format', format);
            assert.equal(got.code, 0, got.stderr);
            assert.ok(got.stdout.equals(expected.bytes), `${url} --format ${format}`);
          }
        }
      });
    }
  }
});

describe('errors: the API\'s JSON error on stderr, exit code 1', () => {
  const cases: Array<[string, string[]]> = [
    ['an invalid parameter', ['/api/sebra/getTaxonomyForYear?year=abc']],
    ['an unknown parameter', ['/api/sebra/getTaxonomyForYear?year=2024&colour=red']],
    ['a parameter given in the path and the query', ['/api/sebra/getTaxonomyForYear/2024?year=2024']],
    ['an unknown path', ['/api/nosuch/route']],
    ['a format a non-list route does not offer', ['/api/v1/rates/ecb-stance', '--format', 'csv']],
    ['a bad format in the query', ['/api/sebra/getTaxonomyForYear?year=2024&format=xml']],
  ];
  for (const [name, argv] of cases) {
    test(name, async () => {
      const url = argv.length === 3 ? withFormat(argv[0], argv[2]) : argv[0];
      const http = await app.request(url);
      const expected = await httpErrorAsCli(http);
      assert.ok(http.status >= 400 && http.status < 500);
      const cli = await query(...argv);
      assert.equal(cli.code, 1);
      assert.equal(cli.stdout.length, 0);
      assert.deepEqual(JSON.parse(cli.stderr), expected);
    });
  }

  test('a POST route: no body, malformed JSON and an unknown field are the API\'s 400s naming the body or field', async () => {
    const route = routes.find((r) => r.requestBody)!;
    const target = route.examples[0];
    const post = (text: string) => app.request(target, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: text });
    for (const text of ['{"nope": 1}', '{not json', '[]']) {
      const expected = await httpErrorAsCli(await post(text));
      const cli = await query(target, '--body', text);
      assert.equal(cli.code, 1, text);
      assert.deepEqual(JSON.parse(cli.stderr), expected, text);
    }
    const empty = await query(target);
    assert.equal(empty.code, 1);
    assert.deepEqual(JSON.parse(empty.stderr).error, { status: 400, code: 'invalid_parameter', message: 'the body is empty; send a JSON object', param: 'body' });
  });
});

describe('options', () => {
  test('--list prints one tab-separated line per route: method, paths, operation id, summary', async () => {
    const cli = await query('--list');
    assert.equal(cli.code, 0);
    const lines = cli.stdout.toString('utf8').trimEnd().split('\n');
    assert.equal(lines.length, routes.length);
    assert.deepEqual(lines[routes.indexOf(routes.find((r) => r.id === 'getTaxonomyForYear')!)].split('\t'), [
      'GET', '/api/sebra/getTaxonomyForYear,/api/sebra/getTaxonomyForYear/{year}', 'getTaxonomyForYear', routes.find((r) => r.id === 'getTaxonomyForYear')!.summary,
    ]);
    const post = routes.find((r) => r.requestBody)!;
    assert.ok(lines.some((line) => line.startsWith(`POST\t${post.paths[0]}\t${post.id}\t`)));
  });

  test('--out writes the bytes to a file and nothing to stdout; --body @file reads the body from a file', async () => {
    const out = path.join(root, 'answer.csv');
    const url = '/api/sebra/getTaxonomyForYear?year=2024';
    const cli = await query(url, '--format', 'csv', '--out', out);
    assert.equal(cli.code, 0, cli.stderr);
    assert.equal(cli.stdout.length, 0);
    assert.ok((await readFile(out)).equals((await httpBytes(withFormat(url, 'csv'))).bytes));

    const route = routes.find((r) => r.requestBody)!;
    const bodyFile = path.join(root, 'body.json');
    await writeFile(bodyFile, JSON.stringify(route.requestBody!.example));
    const fromFile = await query(route.examples[0], '--body', `@${bodyFile}`);
    assert.equal(fromFile.code, 0, fromFile.stderr);
    const http = await httpBytes(route.examples[0], { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(route.requestBody!.example) });
    assert.ok(fromFile.stdout.equals(http.bytes));
  });

  test('a full URL is read as its path and query; --format equal to the query\'s format is accepted', async () => {
    const url = '/api/sebra/getTaxonomyForYear/2024?currency=EUR';
    const expected = await httpBytes(url);
    assert.ok((await query(`https://api.example.org${url}`)).stdout.equals(expected.bytes));
    const csv = await query(withFormat(url, 'csv'), '--format', 'csv');
    assert.equal(csv.code, 0, csv.stderr);
  });

  test('usage errors are exit code 2 with the usage on stderr', async () => {
    for (const argv of [[], ['/a', '/b'], ['--nope'], ['api/sebra/getTaxonomyForYear?year=2024'], ['/api/sebra/getTaxonomyForYear?year=2024', '--format', 'xml'],
      ['/api/sebra/getTaxonomyForYear?year=2024&format=json', '--format', 'csv'], ['/api/sebra/getTaxonomyForYear?year=2024', '--body', '{}'],
      ['/api/v1/product/analyze', '--body', '@/nonexistent/body.json'], ['--list', '/x']]) {
      const cli = await query(...argv);
      assert.equal(cli.code, 2, `${argv.join(' ')}: ${cli.stderr}`);
      assert.match(cli.stderr, /usage: npm run query/);
      assert.equal(cli.stdout.length, 0);
    }
  });
});

describe('as a command (npm run query runs bin/query.ts)', () => {
  // What the command answers is runQuery's, checked in this process above (the invalid year's code 1
  // and the missing request's code 2 under 'errors' and 'options'); a child process shows what only it
  // can: DATA_DIR read from its environment, and runQuery's code becoming its exit code, 0 and not 0,
  // with its stdout and stderr. Two children: one opens the full sample (seconds), one stops before.
  test('exit codes 0 and 2 from a child process reading DATA_DIR', async () => {
    const ok = await runCli('bin/query.ts', ['/api/sebra/getTaxonomyForYear/2024'], { DATA_DIR: dataDir });
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(JSON.parse(ok.stdout).year ?? 2024, 2024);
    assertSampleNote(ok.stderr, (await httpBytes('/api/sebra/getTaxonomyForYear/2024')).dataSource);
    const missing = await runCli('bin/query.ts', ['/api/sebra/getTaxonomyForYear/2024'], { DATA_DIR: path.join(root, 'nothing-here') });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no snapshot at/);
  });
});
