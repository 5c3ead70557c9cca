// Every `npm run` script of package.json behaves on --help and -h (read from package.json, so a new
// script is covered): exit code 0 within a short time, its usage on stdout, and nothing started or
// written (a server would not exit; DATA_DIR, SAMPLE_DIR and the ledger folder stay empty). A reader
// that closes the pipe early (`| head`) ends a command quietly, without an EPIPE stack trace; and
// `npm run license -- list` shows each FRED series' status in force.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { projectRoot, runCli, runCommand, scriptArgs } from '../helpers/cli.ts';
import { tempDirUntilExit } from '../helpers/tmp.ts';
import { buildSampleSnapshot, copySampleSnapshot } from '../http/sample-app.ts';

const scriptCommands = (JSON.parse(await readFile(path.join(projectRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const scripts = Object.keys(scriptCommands);

/**
 * The `tsx <file>` scripts whose `--help` goes through npm, as a user types it: npm passes what
 * follows `--` the same way to every script, so a few show it; the others run their file straight,
 * compiled as the tests run (test/helpers/cli.ts), which saves npm's and tsx's processes, about a
 * second of CPU each. Every script's command is checked to name a file that exists.
 */
const THROUGH_NPM = new Set(['start', 'ingest', 'query']);

/** How a script is run with `flag`: through npm when it is no `tsx <file>` script or is one of THROUGH_NPM for --help; else its file straight. */
function commandOf(name: string, flag: string): [string, string[]] {
  const file = tsxFileOf(name);
  if (file && !(flag === '--help' && THROUGH_NPM.has(name))) return [process.execPath, [...scriptArgs(file), flag]];
  return ['npm', ['run', '--silent', name, '--', flag]];
}

/** The file of a `tsx <file>` script, or undefined for any other command. */
function tsxFileOf(name: string): string | undefined {
  return /^tsx (\S+\.ts)$/.exec(Object.hasOwn(scriptCommands, name) ? scriptCommands[name]! : '')?.[1];
}

/** What each script's help starts with on stdout: the project's own commands say `usage: npm ...`; the tools say theirs. */
const TOOL_USAGE = new Map<string, RegExp>([
  ['lint', /eslint \[options\]/],
  ['typecheck', /tsc: The TypeScript Compiler/],
]);
/** Not run here: `npm test` is the whole test run with its type-check and lint (minutes, and it runs this file). */
const NOT_RUN = new Set(['test']);

const HELP_TIMEOUT_MS = 90_000;

describe('--help and -h on every npm run script', { concurrency: 2 }, () => {
  let folders: { dataDir: string; sampleDir: string; ledgerDir: string };
  before(async () => {
    folders = { dataDir: await tempDirUntilExit('help-data-'), sampleDir: await tempDirUntilExit('help-sample-'), ledgerDir: await tempDirUntilExit('help-ledger-') };
  });

  test('the table covers every script, and each tsx script names a file that exists', () => {
    assert.ok(scripts.length >= 17, scripts.join(', '));
    for (const name of [...TOOL_USAGE.keys(), ...NOT_RUN, ...THROUGH_NPM]) assert.ok(scripts.includes(name), name);
    for (const name of scripts) {
      const file = tsxFileOf(name);
      if (file) assert.ok(existsSync(path.join(projectRoot, file)), `npm run ${name}: ${file} does not exist`);
    }
  });

  for (const name of scripts.filter((script) => !NOT_RUN.has(script))) {
    for (const flag of ['--help', '-h']) {
      test(`npm run ${name} -- ${flag}`, { timeout: HELP_TIMEOUT_MS + 30_000 }, async () => {
        const env = {
          DATA_DIR: folders.dataDir, SAMPLE_DIR: folders.sampleDir, REVENUE_LEDGER: path.join(folders.ledgerDir, 'ledger.jsonl'),
          PORT: '0', FACILITATOR_PORT: '0', DATABASE_URL: '', NODE_ENV: 'development',
        };
        const run = await runCommand(...commandOf(name, flag), env, { timeoutMs: HELP_TIMEOUT_MS });
        assert.ok(!run.timedOut, `npm run ${name} -- ${flag} was still running after ${HELP_TIMEOUT_MS / 1000} s (it started something): ${run.stdout}`);
        assert.equal(run.code, 0, `npm run ${name} -- ${flag}: ${run.stderr}`);
        const usage = TOOL_USAGE.get(name) ?? new RegExp(`^usage: (\\S+=\\S+ )?npm (run ${name.replace(':', '\\:')}|start)\\b`, 'm');
        assert.match(run.stdout, usage, `npm run ${name} -- ${flag} printed: ${run.stdout}${run.stderr}`);
        assert.doesNotMatch(run.stdout + run.stderr, /^serving |local x402 facilitator on http|Error:/m);
        for (const folder of Object.values(folders)) assert.deepEqual(await readdir(folder), [], `npm run ${name} -- ${flag} wrote into ${folder}`);
      });
    }
  }
});

describe('a closed pipe ends quietly', () => {
  let dataDir: string;
  before(async () => {
    // Read only (the runner fails a run whose shared snapshot a test changed): no copy needed.
    const shared = process.env.SAMPLE_SNAPSHOT_DIR ? path.resolve(process.env.SAMPLE_SNAPSHOT_DIR) : await tempDirUntilExit('pipe-sample-build-');
    dataDir = await buildSampleSnapshot(shared);
  });

  for (const [script, args] of [
    ['bin/snapshot.ts', ['list']],
    ['bin/license.ts', ['list']],
    ['bin/ingest.ts', ['--help']],
    ['bin/query.ts', ['--list']],
    ['bin/query.ts', ['/api/sebra/getTaxonomyForYear/2024']],
  ] as Array<[string, string[]]>) {
    test(`${script} ${args.join(' ')} | head`, async () => {
      const run = await runCli(script, args, { DATA_DIR: dataDir }, { closeStdout: true, timeoutMs: 90_000 });
      assert.equal(run.code, 0, run.stderr);
      assert.doesNotMatch(run.stderr, /EPIPE|Error|at /);
    });
  }
});

describe('npm run license -- list', () => {
  test('each FRED series with its status in force; a change shows in the next list', async () => {
    const shared = process.env.SAMPLE_SNAPSHOT_DIR ? path.resolve(process.env.SAMPLE_SNAPSHOT_DIR) : await tempDirUntilExit('license-sample-build-');
    const dataDir = path.join(await tempDirUntilExit('license-list-'), 'parquet');
    await copySampleSnapshot(await buildSampleSnapshot(shared), dataDir);
    const parse = (text: string) => new Map(text.trim().split('\n').map((line) => {
      const [series, status, changedAt, ...extra] = line.split('\t');
      assert.deepEqual(extra, [], line);
      assert.match(changedAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, line);
      return [series, status] as [string, string];
    }));
    const first = await runCli('bin/license.ts', ['list'], { DATA_DIR: dataDir });
    assert.equal(first.code, 0, first.stderr);
    const before = parse(first.stdout);
    assert.ok(before.size > 1, first.stdout);
    for (const status of before.values()) assert.match(status, /^(APPROVED|PENDING|DENIED)$/);
    const [series, status] = [...before][0];
    const next = status === 'DENIED' ? 'APPROVED' : 'DENIED';
    const set = await runCli('bin/license.ts', [series, next], { DATA_DIR: dataDir });
    assert.equal(set.code, 0, set.stderr);
    const after = parse((await runCli('bin/license.ts', ['list'], { DATA_DIR: dataDir })).stdout);
    assert.deepEqual(after, new Map([...before].map(([id, held]) => [id, id === series ? next : held])));
  });
});

describe('a bad DUCKDB_THREADS', () => {
  // Each command that opens DuckDB refuses it before it does anything, as npm start does; the
  // engine itself would throw it, with a stack trace, from wherever the first engine opens.
  for (const [script, name] of [['bin/query.ts', 'query'], ['bin/ingest.ts', 'ingest'], ['bin/license.ts', 'license'], ['bin/fetch.ts', 'fetch'], ['bin/refresh.ts', 'refresh']]) {
    test(`${name}: one line naming the variable, exit code 2`, async () => {
      const run = await runCli(script!, ['--data-dir', await tempDirUntilExit('bad-threads-')], { DUCKDB_THREADS: 'many' });
      assert.equal(run.code, 2, run.stderr);
      assert.equal(run.stderr, `${name}: DUCKDB_THREADS must be a whole number from 1 to 64 (got "many")\n`);
    });
  }
});
