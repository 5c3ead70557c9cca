// A seeded fuzz of every catalog route over the generated sample: each request starts from one of the
// route's sample requests (so the other parameters are valid and the hostile value reaches deep) and
// gives one to three declared parameters (path or query, or a body field) hostile values: empty, huge,
// unicode, prototype keys, negative, 1e400, NaN, path traversal, SQL quotes, percent junk, repeated
// keys; some requests add unknown parameters or odd Accept headers. No answer may be a 5xx, and every
// error is {error: {status, code, message, param}} with a declared code.
//
// `npm test` sends FUZZ_COUNT requests (default 2500) from FUZZ_SEED (default 17); a full-size run:
//   FUZZ_COUNT=30000 FUZZ_SEED=$RANDOM node --import tsx --test test/http/fuzz.test.ts
// SAMPLE_SNAPSHOT_DIR=<folder> keeps the built sample between runs (test/http/sample-app.ts).
// A failure lists the first requests that failed (method, raw path, body) so they can be replayed.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, test } from 'node:test';
import { routes } from '../../domains/index.ts';
import { Random } from '../../ingest/random.ts';
import { exampleRequests, pathParamNames, type Route } from '../../queries/catalog.ts';
import { ERROR_CODES } from '../../queries/shared/errors.ts';
import type { TestApp } from '../helpers/app.ts';
import { startSampleApp } from './sample-app.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 17);
const COUNT = Number(process.env.FUZZ_COUNT ?? 2500);
const CONCURRENCY = 4;

/** Hostile text values, sent percent-encoded. */
const HOSTILE = [
  '', ' ', '  2024  ', 'x'.repeat(3000), '9'.repeat(400), 'Ünïcödé', '日本語', '🙂🙃', 'ЕС', 'e\u0301', '\u202eRTL', '\u0000', '\ufeff2024',
  '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', '__defineGetter__',
  '-1', '-0', '0', '1', '-99999999', '2147483648', '99999999999999999999', '1e400', '-1e400', '1e-400', 'NaN', 'Infinity', '-Infinity',
  '0x10', '1.5', '.5', '1,5', '1_000', '+1', '007',
  '../../etc/passwd', '..\\..\\windows', '/', '%2e%2e%2f', '....//',
  "'", "''", "' OR '1'='1", "1'; DROP TABLE t; --", '"', '\\', '\\\'', '%', '_', '*', '?', '#', '&', '=',
  'null', 'undefined', 'true', 'false', '[]', '{}', '[object Object]', ',', ',,', 'a,,b', ',x,', 'a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p',
  '2024-02-30', '2024-13-01', '0000-01-01', '9999-12-31', '2024-W60', '2024-Q5', '2024-00', '1970', '3000', '2024/01/01', '20240101',
  'eur', 'EUR', 'bgn', 'EL', 'GR', 'XX', 'EU27_2020', 'world', 'ALL', 'all', 'days', 'total',
];
const INHERITED = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', '__lookupGetter__'];
/** Sent as they are (already percent-encoded, some malformed on purpose). */
const RAW = ['%', '%zz', '%E0%A4%A', '%00', '%C0%AF', '%ED%A0%80', '%FF%FE', '%25', '%2F', '%252F', '+', '++', '%20', 'a%', '%%', '%u0041'];
const UNKNOWN_KEYS = ['foo', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'x'.repeat(300), 'a[b]', 'format', 'dim.__proto__', 'dim.', 'dim.constructor', 'limit[]', 'Limit', 'YEAR'];
const ACCEPT = ['application/json', 'text/csv', 'application/vnd.apache.arrow.stream', 'image/png', '*/*', 'text/html', 'garbage;;q=x', 'text/csv;q=0, application/json;q=0'];
const JSON_HOSTILE: unknown[] = [null, '', 'x'.repeat(5000), -1, 0, 1e308, -1e308, 1.5, true, [], {}, [null], { __proto__: null }, '__proto__', 'constructor', '🙂', ["' OR 1=1"], { a: { b: { c: {} } } }];

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random.next() * items.length)]!;
}

function templatePattern(template: string): RegExp {
  return new RegExp(`^${template.replace(/\{[^{}]+\}/g, '([^/?]+)')}(?:\\?|$)`);
}

/** A hostile value, as [text to put in the URL, whether it is already encoded]. */
function hostileValue(random: Random, route: Route, name: string | null, examples: readonly string[]): [string, boolean] {
  const roll = random.next();
  if (roll < 0.12) return [pick(random, RAW), true];
  if (roll < 0.25 && name) {
    // A value valid for another parameter or taken from another example: reaches the cross-field rules.
    const values = examples.flatMap((url) => [...new URL(url, 'http://x').searchParams.values()]);
    if (values.length > 0) return [pick(random, values), false];
  }
  if (roll < 0.35 && name) {
    const enumValues = (route.params[name]?.schema.enum ?? []) as unknown[];
    if (enumValues.length > 0) {
      const value = String(pick(random, enumValues));
      return [random.chance(0.5) ? value.toUpperCase() : `${value} `, false];
    }
  }
  // Names every object inherits: a lookup of client text in a plain object answers them with a function.
  if (roll < 0.47) return [pick(random, INHERITED), false];
  return [pick(random, HOSTILE), false];
}

const encode = ([text, raw]: [string, boolean]) => (raw ? text : encodeURIComponent(text));

function mutateBody(random: Random, sample: unknown): { text: string; type: string } {
  const roll = random.next();
  if (roll < 0.08) return { text: pick(random, ['', '{', 'null', '[]', '"x"', '{"a":', '\u0000', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"x":1}}}']), type: 'application/json' };
  if (roll < 0.12) return { text: JSON.stringify(sample), type: pick(random, ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1']) };
  const body: Record<string, unknown> = typeof sample === 'object' && sample !== null ? { ...(sample as Record<string, unknown>) } : {};
  const fields = Object.keys(body);
  const mutations = 1 + Math.floor(random.next() * 3);
  for (let i = 0; i < mutations; i++) {
    const which = random.next();
    if (which < 0.15) body[pick(random, ['__proto__', 'constructor', 'unknown', 'toString'])] = pick(random, JSON_HOSTILE);
    else if (fields.length > 0 && which < 0.3) delete body[pick(random, fields)];
    else if (fields.length > 0) body[pick(random, fields)] = random.chance(0.5) ? pick(random, JSON_HOSTILE) : pick(random, HOSTILE);
  }
  return { text: JSON.stringify(body), type: 'application/json' };
}

/** One fuzzed request for a path form of a route. */
function fuzzRequest(random: Random, route: Route, template: string): FuzzRequest {
  const pattern = templatePattern(template);
  const requests = exampleRequests(route).filter((request) => pattern.test(request.url));
  const sample = pick(random, requests);
  const names = pathParamNames(template);
  const match = pattern.exec(sample.url)!;
  const pathValues = new Map<string, string>(names.map((name, i) => [name, match[i + 1]!]));
  const query: Array<[string, string]> = [];
  const queryStart = sample.url.indexOf('?');
  if (queryStart >= 0) {
    for (const [key, value] of new URLSearchParams(sample.url.slice(queryStart + 1))) query.push([encodeURIComponent(key), encodeURIComponent(value)]);
  }
  const examples = route.examples;
  const declared = Object.entries(route.params).filter(([name, spec]) => names.includes(name) || spec.in.includes('query'));
  // A tenth of the requests change only the Accept header or add a valid format: the handlers' own paths.
  const mutations = random.chance(0.1) ? 0 : random.chance(0.6) ? 1 : 2 + Math.floor(random.next() * 2);
  if (mutations === 0 && route.listRows && random.chance(0.5)) query.push(['format', pick(random, ['json', 'csv', 'arrow'])]);
  for (let i = 0; i < mutations; i++) {
    const roll = random.next();
    if (roll < 0.15 || declared.length === 0) {
      query.push([encodeURIComponent(pick(random, UNKNOWN_KEYS)), encode(hostileValue(random, route, null, examples))]);
      continue;
    }
    const [name, spec] = pick(random, declared);
    if (pathValues.has(name)) {
      const [text, raw] = hostileValue(random, route, name, examples);
      // A path segment cannot hold a raw slash; an empty one changes the route (a 404 is fine too).
      pathValues.set(name, raw ? text : encodeURIComponent(text));
      continue;
    }
    const key = spec.family ? `${spec.family.prefix}${pick(random, ['siec', 'unit', '__proto__', 'constructor', 'nrg_bal', '', 'x'.repeat(100)])}` : name;
    const action = random.next();
    if (action < 0.1) {
      // Removed (a required parameter's absence is a 400).
      for (let j = query.length - 1; j >= 0; j--) if (decodeURIComponent(query[j]![0]) === key) query.splice(j, 1);
    } else if (action < 0.2) {
      query.push([encodeURIComponent(key), encode(hostileValue(random, route, name, examples))]);
      query.push([encodeURIComponent(key), encode(hostileValue(random, route, name, examples))]);
    } else if (action < 0.25 && spec.bareFlags) {
      query.push([encodeURIComponent(pick(random, spec.bareFlags)), '']);
    } else if (action < 0.3) {
      query.push([encodeURIComponent(key), '']); // `?key=` 
    } else {
      for (let j = query.length - 1; j >= 0; j--) if (decodeURIComponent(query[j]![0]) === key) query.splice(j, 1);
      query.push([encodeURIComponent(key), encode(hostileValue(random, route, name, examples))]);
    }
  }
  let path = template.replace(/\{([^{}]+)\}/g, (_, name: string) => pathValues.get(name)!);
  // The router's leniencies: a trailing slash, another case.
  if (random.chance(0.04)) path += '/';
  if (random.chance(0.03)) path = path.toUpperCase();
  if (query.length > 0) path += '?' + query.map(([k, v]) => (random.chance(0.03) ? k : `${k}=${v}`)).join('&');
  const headers: Record<string, string> = {};
  if (random.chance(mutations === 0 ? 0.7 : 0.15)) headers.Accept = pick(random, ACCEPT);
  if (sample.body === undefined) return { method: route.method === 'GET' && random.chance(0.05) ? 'HEAD' : route.method, path, headers };
  const body = mutations === 0 ? { text: JSON.stringify(sample.body), type: 'application/json' } : mutateBody(random, sample.body);
  headers['Content-Type'] = body.type;
  return { method: route.method, path, headers, body: body.text };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function send(base: URL, request: FuzzRequest): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      { host: base.hostname, port: base.port, method: request.method, path: request.path, headers: request.headers, agent },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, type: String(response.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

/** Why an answer breaks the rules, or null. */
function problemOf(status: number, type: string, text: string): string | null {
  if (status >= 500) return `HTTP ${status}: ${text.slice(0, 300)}`;
  if (status < 400) return null;
  if (!/^application\/json/.test(type)) return `HTTP ${status} with content type ${type}`;
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return `HTTP ${status}: the body is not JSON`;
  }
  const error = body?.error;
  if (typeof error !== 'object' || error === null) return `HTTP ${status}: no error member: ${text.slice(0, 200)}`;
  if (Object.keys(body).join() !== 'error') return `HTTP ${status}: members besides error: ${Object.keys(body).join(', ')}`;
  if (Object.keys(error).sort().join() !== 'code,message,param,request_id,status') return `HTTP ${status}: error members ${Object.keys(error).join(', ')}`;
  if (typeof error.request_id !== 'string' || error.request_id.length === 0) return `HTTP ${status}: no request_id`;
  if (error.status !== status) return `HTTP ${status}: error.status ${error.status}`;
  if (!Object.hasOwn(ERROR_CODES, error.code)) return `HTTP ${status}: undeclared code ${error.code}`;
  if (!(ERROR_CODES[error.code as keyof typeof ERROR_CODES].statuses as readonly number[]).includes(status)) return `HTTP ${status}: code ${error.code} is not declared with this status`;
  if (typeof error.message !== 'string' || error.message.length === 0) return `HTTP ${status}: empty message`;
  if (error.param !== null && typeof error.param !== 'string') return `HTTP ${status}: param ${JSON.stringify(error.param)}`;
  return null;
}

let app: TestApp;
before(async () => {
  app = await startSampleApp('fuzz-');
});
after(async () => {
  agent.destroy();
  await app?.close();
});

test(`fuzz: ${COUNT} hostile requests over every route and path form (seed ${SEED}): no 5xx, every error in the documented shape`, async () => {
  const base = new URL((await app.request('/healthz')).url);
  const random = new Random('http-fuzz', SEED);
  const forms = routes.flatMap((route) => route.paths.map((template) => ({ route, template })));
  const requests = Array.from({ length: COUNT }, (_, i) => {
    const { route, template } = forms[i % forms.length]!;
    return fuzzRequest(random, route, template);
  });
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++]!;
      const { status, type, text } = await send(base, request);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      // A HEAD answer has no body to check.
      const problem = request.method === 'HEAD' ? (status >= 500 ? `HTTP ${status}` : null) : problemOf(status, type, text);
      if (problem) failures.push(`${request.method} ${request.path}${request.body !== undefined ? ` body ${request.body.slice(0, 200)}` : ''}${request.headers.Accept ? ` Accept: ${request.headers.Accept}` : ''}\n    ${problem}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const summary = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`).join(', ');
  assert.equal(failures.length, 0, `${failures.length} of ${COUNT} answers break the rules (statuses ${summary}):\n${failures.slice(0, 40).join('\n')}`);
  // The fuzz must reach the handlers, not only the validator.
  assert.ok((statuses.get(200) ?? 0) > COUNT / 15, `too few 200s to have reached the handlers (${summary})`);
});

test('names an object inherits, as the value of every declared parameter of every path form: no 5xx', async () => {
  const base = new URL((await app.request('/healthz')).url);
  const names = INHERITED.slice(0, 5);
  const failures: string[] = [];
  let sent = 0;
  for (const route of routes) {
    for (const template of route.paths) {
      const pattern = templatePattern(template);
      const sample = exampleRequests(route).find((request) => pattern.test(request.url))!;
      const inPath = pathParamNames(template);
      const match = pattern.exec(sample.url)!;
      const queryStart = sample.url.indexOf('?');
      for (const [param, spec] of Object.entries(route.params)) {
        if (spec.family || (!inPath.includes(param) && !spec.in.includes('query'))) continue;
        for (const name of names) {
          const query = new URLSearchParams(queryStart >= 0 ? sample.url.slice(queryStart + 1) : '');
          let path = template;
          inPath.forEach((key, i) => (path = path.replace(`{${key}}`, key === param ? name : match[i + 1]!)));
          if (!inPath.includes(param)) query.set(param, name);
          const search = query.toString();
          const request: FuzzRequest = { method: route.method, path: search ? `${path}?${search}` : path, headers: {} };
          if (sample.body !== undefined) {
            request.headers['Content-Type'] = 'application/json';
            request.body = JSON.stringify(sample.body);
          }
          const { status, type, text } = await send(base, request);
          sent++;
          const problem = problemOf(status, type, text);
          if (problem) failures.push(`${request.method} ${request.path}\n    ${problem}`);
        }
      }
    }
  }
  assert.ok(sent > 100, `${sent} requests`);
  assert.equal(failures.length, 0, `${failures.length} of ${sent} answers break the rules:\n${failures.slice(0, 40).join('\n')}`);
});
