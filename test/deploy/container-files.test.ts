// The container files, checked without a container engine: the Dockerfile installs and serves with
// the README's commands, as a user that is not root, with a health check on a path the app answers;
// compose.yaml sets only variables the server reads; deploy/nginx.conf passes X-Forwarded-For and is
// accepted by `nginx -t` (when nginx is installed; skipped with a message otherwise).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { HEALTH_PATH } from '../../http/pipeline/health.ts';
import { tempDirUntilExit } from '../helpers/tmp.ts';

const root = path.resolve(import.meta.dirname, '../..');
const read = (name: string) => readFile(path.join(root, name), 'utf8');
const NGINX = '/usr/sbin/nginx';

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
async function dockerInstructions(): Promise<Array<{ op: string; args: string }>> {
  const text = (await read('Dockerfile')).replace(/\\\n/g, ' ');
  return text.split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [op, ...rest] = line.split(/\s+/);
      return { op: op!.toUpperCase(), args: rest.join(' ') };
    });
}

/** The environment names the server reads: `env.NAME` and the quoted names handed to the readers, in http/config.ts and the readers it calls. */
async function variablesTheServerReads(): Promise<Set<string>> {
  const names = new Set<string>();
  for (const file of ['http/config.ts', 'http/payments/config.ts', 'http/cache.ts']) {
    const text = await read(file);
    for (const [, name] of text.matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)) names.add(name!);
    for (const [, name] of text.matchAll(/\benv,\s*'([A-Z][A-Z0-9_]*)'/g)) names.add(name!);
  }
  return names;
}

/** `name: value` lines under each `environment:` block of compose.yaml (a block ends where the indentation does). */
function composeEnvironment(text: string): Map<string, string> {
  const variables = new Map<string, string>();
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const opening = /^(\s*)environment:\s*$/.exec(lines[index]!);
    if (!opening) continue;
    for (let next = index + 1; next < lines.length; next++) {
      const line = lines[next]!;
      if (line.trim() === '' || line.trim().startsWith('#')) continue;
      if (line.length - line.trimStart().length <= opening[1]!.length) break;
      const entry = /^([A-Z][A-Z0-9_]*):[ \t]*(\S.*)?$/.exec(line.trim());
      assert.ok(entry, `compose.yaml: an environment entry as NAME: value (got "${line.trim()}")`);
      variables.set(entry[1]!, entry[2] ?? '');
    }
  }
  return variables;
}

/** The lines of compose.yaml's `api` service (up to the next service at its indentation). */
function apiService(text: string): string {
  const start = text.indexOf('\n  api:\n');
  assert.ok(start >= 0, 'compose.yaml has an api service');
  const rest = text.slice(start + 1);
  const end = rest.slice(1).search(/\n {2}[a-z][\w-]*:\n/);
  return end < 0 ? rest : rest.slice(0, end + 1);
}

test('the Dockerfile installs and serves with the README\'s commands, multi-stage, not as root, checking /healthz', async () => {
  const instructions = await dockerInstructions();
  const readme = await read('README.md');
  const packageJson = JSON.parse(await read('package.json')) as { scripts: Record<string, string>; dependencies: Record<string, string> };

  assert.ok(instructions.filter((line) => line.op === 'FROM').length >= 2, 'multi-stage: two FROM lines at least');
  const runs = instructions.filter((line) => line.op === 'RUN').map((line) => line.args);
  assert.ok(runs.some((run) => /^npm ci --omit=dev\b/.test(run)), `RUN npm ci --omit=dev (got ${runs.join(' | ')})`);
  assert.match(readme, /npm ci --omit=dev/, 'the README gives the same install command');

  const command = instructions.filter((line) => line.op === 'CMD').at(-1);
  assert.deepEqual(command && JSON.parse(command.args), ['npm', 'start']);
  assert.match(readme, /\bnpm start\b/);
  // `npm start` must work without dev dependencies: its program is a runtime dependency.
  const startProgram = packageJson.scripts.start!.split(/\s+/)[0]!;
  assert.ok(Object.hasOwn(packageJson.dependencies, startProgram), `${startProgram} (npm start) is a dependency, not a devDependency`);

  // The last USER of the final stage is not root.
  const finalStage = instructions.slice(instructions.map((line) => line.op).lastIndexOf('FROM'));
  const user = finalStage.filter((line) => line.op === 'USER').at(-1)?.args;
  assert.ok(user && !/^(root|0)(:|$)/.test(user), `the server runs as a user that is not root (USER ${user})`);

  const healthcheck = instructions.find((line) => line.op === 'HEALTHCHECK');
  assert.ok(healthcheck, 'a HEALTHCHECK');
  // The path the check fetches: the string literal that closes the fetch's address.
  const checked = /'(\/[a-z]+)'\)/.exec(healthcheck.args);
  assert.equal(checked?.[1], HEALTH_PATH, `the health check asks ${HEALTH_PATH}, the app's liveness route (${healthcheck.args})`);

  const ignored = (await read('.dockerignore')).split('\n').map((line) => line.trim());
  for (const entry of ['node_modules', '.git', 'data/parquet']) assert.ok(ignored.includes(entry), `.dockerignore leaves out ${entry}`);
});

test('compose.yaml: two replicas, PostgreSQL, nginx; only variables the server reads, TRUST_PROXY=1', async () => {
  const text = await read('compose.yaml');
  const api = apiService(text);
  assert.match(api, /replicas:\s*2\b/);
  assert.match(text, /\n {2}postgres:\n\s+image:\s*postgres:/);
  assert.match(text, /\n {2}proxy:\n\s+image:\s*nginx:/);
  assert.match(text, /\.\/deploy\/nginx\.conf:\/etc\/nginx\/nginx\.conf/);

  const environment = composeEnvironment(api);
  const read_ = await variablesTheServerReads();
  for (const name of environment.keys()) assert.ok(read_.has(name), `compose sets ${name}, which http/config.ts does not read`);
  assert.equal(environment.get('TRUST_PROXY'), '"1"');
  assert.match(environment.get('DATABASE_URL') ?? '', /^postgres:\/\/[^@]+@postgres:5432\//);
  assert.equal(environment.get('HOST'), '0.0.0.0');
});

test('deploy/nginx.conf passes X-Forwarded-For to the replicas and nginx -t accepts it', async (t) => {
  const conf = await read('deploy/nginx.conf');
  assert.match(conf, /proxy_set_header\s+X-Forwarded-For\s+\$proxy_add_x_forwarded_for;/);
  const upstreams = [...conf.matchAll(/^[ \t]*server[ \t]+([a-z][\w.-]*):(\d+)/gm)];
  assert.deepEqual(upstreams.map((match) => `${match[1]}:${match[2]}`), ['api:3000'], 'the api service on the port compose gives it');
  if (!existsSync(NGINX)) return t.skip(`${NGINX} is not installed: nginx -t not run`);
  const prefix = await tempDirUntilExit('nginx-conf-');
  try {
    // The compose service names do not resolve here: loopback instead; the pid file and the logs
    // (the container's stdout and stderr, sockets under a test runner) in the prefix.
    const local = conf
      .replace(/^([ \t]*server[ \t]+)[a-z][\w.-]*:(\d+)/gm, '$1127.0.0.1:$2')
      .replace(/^pid[ \t][^;]*;/m, `pid ${path.join(prefix, 'nginx.pid')};`)
      .replace(/\/dev\/std(out|err)/g, (_match, stream: string) => path.join(prefix, `${stream}.log`));
    const file = path.join(prefix, 'nginx.conf');
    await writeFile(file, local);
    const { stderr } = await promisify(execFile)(NGINX, ['-t', '-p', prefix, '-c', file, '-e', path.join(prefix, 'error.log')]);
    assert.match(stderr, /test is successful/);
  } finally {
    await rm(prefix, { recursive: true, force: true });
  }
});
