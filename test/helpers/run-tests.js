// `npm test`. Plain JavaScript so that nothing runs before the run has its own temporary folder:
// every process below gets TMPDIR inside it (tsx's cache included), and the folder is removed at the
// end, also when a test fails or the run is interrupted, so the run leaves nothing in /tmp.
//
// 1. A full run (no files named) type-checks (tsc) and lints (ESLint) the project beside everything
//    else, in one process over one TypeScript program (test/helpers/run-checks.js): the run is bound
//    by the 2 cores' time, so waiting for the checks before the first test would leave a core idle.
//    Their output is shown at the end; a problem fails the run.
// 2. Compiles the project's TypeScript once into a mirror of the project inside the run's folder
//    (test/helpers/compile-tests.js): the test files run there as plain JavaScript, without tsx's
//    loader, which costs each process about 1.4 s of CPU. Names in the report are the sources'.
// 3. Builds the full sample snapshot once (test/helpers/build-sample-snapshot.ts) for the files that
//    serve it (test/http/sample-app.ts, startSampleApp in test/helpers/app.ts): SAMPLE_SNAPSHOT_DIR.
//    The files start meanwhile; one that needs the sample waits for the build (SAMPLE_SNAPSHOT_READY).
// 4. Runs the test files (test/helpers/run-files.js), TEST_CONCURRENCY at a time (default 2: each
//    file is its own process and uses only ephemeral loopback ports and folders of its own under
//    TMPDIR), the longest first, by
//    the times recorded in test/helpers/test-durations.tsv (a file not recorded there is taken as
//    UNRECORDED_SECONDS), so that no long file starts last and the run ends with short ones.
//    The slowest files are listed at the end (each file's process times itself: test/helpers/file-clock.js).
//    TEST_RECORD_DURATIONS=1 writes this run's times into test-durations.tsv (after a full run, to
//    keep the order current; files that no longer exist leave it).
// 5. Fails the run when a test changed the shared snapshot (the tests only read it) or left something
//    in the temporary folder.
//
//   node test/helpers/run-tests.js [test/x/y.test.ts ...]   (default: every test/*/*.test.ts, and the checks)
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compileProject } from './compile-tests.js';

const projectRoot = path.resolve(import.meta.dirname, '../..');

/** test/<folder>/<name>.test.ts, sorted, as the shell expands test/*\/*.test.ts. */
function testFiles() {
  const testDir = path.join(projectRoot, 'test');
  return readdirSync(testDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => readdirSync(path.join(testDir, entry.name)).filter((name) => name.endsWith('.test.ts')).map((name) => `test/${entry.name}/${name}`))
    .sort();
}

/** Every file and folder under dir with its size and modification time, one line each, sorted. */
function fingerprint(dir) {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => {
      const stat = statSync(path.join(dir, name));
      return `${name} ${stat.isDirectory() ? 'dir' : `${stat.size} ${stat.mtimeMs}`}`;
    })
    .sort();
}

const DURATIONS_FILE = path.join(projectRoot, 'test/helpers/test-durations.tsv');
/** What a file without a recorded time is taken to last: after the long files, before the short ones. */
const UNRECORDED_SECONDS = 20;

/** `path<TAB>seconds` lines (# starts a comment) as a Map. */
function readDurations(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return new Map();
  }
  return new Map(text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => line.split('\t')).map(([name, seconds]) => [name, Number(seconds)]));
}

/** Longest recorded time first; equal times by name, so the order is total. */
function longestFirst(names, recorded) {
  const seconds = (name) => recorded.get(path.relative(projectRoot, path.resolve(name))) ?? UNRECORDED_SECONDS;
  return [...names].sort((a, b) => seconds(b) - seconds(a) || (a < b ? -1 : a > b ? 1 : 0));
}

/** Writes the times of this run into the recorded file: those of files that ran replace theirs, files gone leave. */
function recordDurations(measured, recorded) {
  const existing = new Set(testFiles());
  const merged = new Map([...recorded, ...measured].filter(([name]) => existing.has(name)));
  const lines = [...merged].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, seconds]) => `${name}\t${seconds.toFixed(1)}`);
  writeFileSync(DURATIONS_FILE, `# Wall time in seconds of each test file's process in a full \`npm test\` run (2 cores, two files at a time).
# test/helpers/run-tests.js starts the longest first. Refresh: TEST_RECORD_DURATIONS=1 npm test
${lines.join('\n')}\n`);
}

const recorded = readDurations(DURATIONS_FILE);
const named = process.argv.slice(2);
const fullRun = named.length === 0;
const files = longestFirst(fullRun ? testFiles() : named, recorded);
const concurrency = Number(process.env.TEST_CONCURRENCY ?? 2);
if (!Number.isInteger(concurrency) || concurrency < 1) {
  process.stderr.write(`run-tests: TEST_CONCURRENCY must be a whole number from 1 (got ${process.env.TEST_CONCURRENCY})\n`);
  process.exit(2);
}

const runRoot = mkdtempSync(path.join(os.tmpdir(), 'npm-test-'));
const tmp = path.join(runRoot, 'tmp');
const snapshotRoot = path.join(runRoot, 'sample-snapshot');
const compiledParent = path.join(runRoot, 'compiled');
mkdirSync(tmp);
const children = new Set();
let stopped;
const removeRunRoot = () => rmSync(runRoot, { recursive: true, force: true });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    stopped = signal;
    // The children get the signal too; their exits end the steps below, and the folder is removed then.
    for (const child of children) child.kill(signal);
  });
}

/**
 * The environment of the run's processes: TMPDIR inside the run, and one DuckDB worker thread per
 * engine unless DUCKDB_THREADS is set (two files run at once on two cores: a second thread per engine
 * only adds scheduling, about 30% more CPU for the small queries of the tests).
 */
const runEnv = { ...process.env, TMPDIR: tmp, DUCKDB_THREADS: process.env.DUCKDB_THREADS ?? '1' };

/** Runs node with args in the project (runEnv and `env`); resolves with its exit code. `stdout`: where its output goes (default ours). */
function runNode(args, env = {}, stdout = 'inherit') {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: projectRoot, stdio: ['inherit', stdout, 'inherit'], env: { ...runEnv, ...env } });
    children.add(child);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      children.delete(child);
      resolve(code ?? 128 + (os.constants.signals[signal] ?? 0));
    });
  });
}

/** The checks of a full run: tsc's type-check and ESLint, sharing one program. */
const CHECKS = [
  { name: 'tsc and eslint', args: [path.join(projectRoot, 'test/helpers/run-checks.js')] },
];

/** Runs a check with its output kept (shown after the tests' report); resolves with its name, exit code, output and seconds. */
function runCheck({ name, args }) {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'], env: runEnv });
    children.add(child);
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      children.delete(child);
      resolve({ name, code: code ?? 128 + (os.constants.signals[signal] ?? 0), output: Buffer.concat(output).toString(), seconds: (Date.now() - started) / 1000 });
    });
  });
}

const SLOWEST_SHOWN = 15;

/** The tab-separated lines the run's processes appended to `file`, split; none when no process wrote it. */
function appendedRows(file) {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').filter((line) => line !== '').map((line) => line.split('\t'));
}

/** Prints the slowest test files, from the wall and CPU times their processes appended (file-clock.js). */
function reportSlowest(file) {
  const slowest = appendedRows(file)
    .map(([name, seconds, cpu]) => ({ name, seconds: Number(seconds), cpu: Number(cpu) }))
    .sort((a, b) => b.seconds - a.seconds || (a.name < b.name ? -1 : 1)).slice(0, SLOWEST_SHOWN);
  if (slowest.length === 0) return;
  process.stdout.write(`# slowest test files (wall time of each file's process; CPU time of it and its children):\n${slowest.map((s) => `#   ${s.seconds.toFixed(1).padStart(6)} s  ${s.cpu.toFixed(1).padStart(6)} s CPU  ${s.name}\n`).join('')}`);
}

/** Prints the failed tests last, one line each (file, name, first line of the reason), as run-files.js wrote them. */
function reportFailures(file) {
  const lines = appendedRows(file);
  if (lines.length === 0) return;
  process.stdout.write(`# FAILED tests (${lines.length}; details above, under each one's "not ok"):\n${lines.map(([where, name, reason]) => `#   ${where}  ${name}: ${reason}\n`).join('')}`);
}

let exitCode;
try {
  const started = Date.now();
  const compiledRoot = await compileProject(projectRoot, compiledParent);
  const checks = Promise.all((fullRun ? CHECKS : []).map(runCheck));
  // The files start while the snapshot is built: the first ones, the longest, mostly need no sample,
  // and a file that does waits for the word in `ready` (test/http/sample-app.ts). The build's output
  // goes to stderr, so that it does not cut into the report.
  const ready = path.join(runRoot, 'sample-snapshot.ready');
  let snapshotBefore = null;
  const build = runNode([path.join(compiledRoot, 'test/helpers/build-sample-snapshot.js'), snapshotRoot], { SAMPLE_SNAPSHOT_READY: '' }, process.stderr).then((built) => {
    if (built === 0) {
      process.stderr.write(`# run-tests: sample snapshot built once for this run in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
      snapshotBefore = fingerprint(snapshotRoot);
    } else {
      process.stderr.write(`run-tests: building the sample snapshot failed (exit ${built})\n`);
    }
    writeFileSync(ready, built === 0 ? 'built' : `the build exited with ${built}`);
    return built;
  });
  const durations = path.join(runRoot, 'durations.tsv');
  const failures = path.join(runRoot, 'failures.tsv');
  const compiledFiles = files.map((file) => path.join(compiledRoot, path.relative(projectRoot, path.resolve(file)).replace(/\.ts$/, '.js')));
  const code = await runNode(['--import', './test/helpers/file-clock.js', 'test/helpers/run-files.js', String(concurrency), ...compiledFiles],
    { SAMPLE_SNAPSHOT_DIR: snapshotRoot, SAMPLE_SNAPSHOT_READY: ready, TEST_DURATIONS_FILE: durations, TEST_FAILURES_FILE: failures, TEST_COMPILED_ROOT: compiledRoot });
  const built = await build;
  for (const check of await checks) {
    process.stdout.write(`# ${check.name}: ${check.code === 0 ? 'passed' : `FAILED (exit ${check.code})`} in ${check.seconds.toFixed(1)} s\n`);
    (check.code === 0 ? process.stdout : process.stderr).write(check.output);
  }
  const checksFailed = (await checks).some((check) => check.code !== 0);
  const measured = readDurations(durations);
  reportSlowest(durations);
  if (process.env.TEST_RECORD_DURATIONS === '1' && !stopped && built === 0) recordDurations(measured, recorded);
  reportFailures(failures);
  exitCode = code || (built === 0 ? 0 : built || 1) || (checksFailed ? 1 : 0);
  if (snapshotBefore) {
    const after = new Set(fingerprint(snapshotRoot));
    const changed = [...snapshotBefore.filter((line) => !after.has(line)).map((line) => `- ${line}`),
      ...[...after].filter((line) => !snapshotBefore.includes(line)).map((line) => `+ ${line}`)];
    if (changed.length > 0) {
      process.stderr.write(`run-tests: a test changed the shared sample snapshot, which tests must only read:\n${changed.map((line) => `  ${line}\n`).join('')}`);
      exitCode ||= 1;
    }
  }
  // The TypeScript loader's compile cache (tsx-<uid>), made by the first process of the run, is the run's own.
  const left = readdirSync(tmp).filter((name) => !/^tsx-/.test(name)).sort();
  if (left.length > 0) {
    process.stderr.write(`run-tests: the tests left ${left.length} item(s) in their temporary folder: ${left.join(', ')}\n`);
    exitCode ||= 1;
  }
} finally {
  removeRunRoot();
}
process.exitCode = stopped ? 128 + os.constants.signals[stopped] : exitCode;
