// `npm test`'s test run, after the typecheck and the lint. Plain JavaScript so that nothing runs
// before the run has its own temporary folder: every process below gets TMPDIR inside it (tsx's
// cache included), and the folder is removed at the end, also when a test fails or the run is
// interrupted, so the run leaves nothing in /tmp.
//
// 1. Builds the full sample snapshot once (test/helpers/build-sample-snapshot.ts) for the files that
//    serve it (test/http/sample-app.ts, startSampleApp in test/helpers/app.ts): SAMPLE_SNAPSHOT_DIR.
// 2. Runs the test files, TEST_CONCURRENCY at a time (default 2: each file is its own process and
//    uses only ephemeral loopback ports and folders of its own under TMPDIR).
//    The slowest files are listed at the end (each file's process times itself: test/helpers/file-clock.js).
// 3. Fails the run when a test changed the shared snapshot (the tests only read it) or left something
//    in the temporary folder.
//
//   node test/helpers/run-tests.js [test/x/y.test.ts ...]   (default: test/*/*.test.ts)
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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

const files = process.argv.length > 2 ? process.argv.slice(2) : testFiles();
const concurrency = Number(process.env.TEST_CONCURRENCY ?? 2);
if (!Number.isInteger(concurrency) || concurrency < 1) {
  process.stderr.write(`run-tests: TEST_CONCURRENCY must be a whole number from 1 (got ${process.env.TEST_CONCURRENCY})\n`);
  process.exit(2);
}

const runRoot = mkdtempSync(path.join(os.tmpdir(), 'npm-test-'));
const tmp = path.join(runRoot, 'tmp');
const snapshotRoot = path.join(runRoot, 'sample-snapshot');
mkdirSync(tmp);
let child;
let stopped;
const removeRunRoot = () => rmSync(runRoot, { recursive: true, force: true });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    stopped = signal;
    // The child gets the signal too; its exit ends the step below, and the folder is removed then.
    child?.kill(signal);
  });
}

/** Runs node with args in the project, TMPDIR inside the run; resolves with its exit code. */
function runNode(args, env = {}) {
  return new Promise((resolve, reject) => {
    child = spawn(process.execPath, args, { cwd: projectRoot, stdio: 'inherit', env: { ...process.env, TMPDIR: tmp, ...env } });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      child = undefined;
      resolve(code ?? 128 + (os.constants.signals[signal] ?? 0));
    });
  });
}

const SLOWEST_SHOWN = 15;

/** Prints the slowest test files, from the lines their processes appended to `file`. */
function reportSlowest(file) {
  let lines;
  try {
    lines = readFileSync(file, 'utf8').trim().split('\n').filter(Boolean);
  } catch {
    return;
  }
  const slowest = lines.map((line) => line.split('\t')).map(([name, seconds]) => ({ name, seconds: Number(seconds) }))
    .sort((a, b) => b.seconds - a.seconds || (a.name < b.name ? -1 : 1)).slice(0, SLOWEST_SHOWN);
  process.stdout.write(`# slowest test files (wall time of each file's process):\n${slowest.map((s) => `#   ${s.seconds.toFixed(1).padStart(6)} s  ${s.name}\n`).join('')}`);
}

let exitCode;
try {
  const started = Date.now();
  const built = await runNode(['--import', 'tsx', 'test/helpers/build-sample-snapshot.ts', snapshotRoot]);
  if (built !== 0 || stopped) {
    process.stderr.write(`run-tests: building the sample snapshot failed (exit ${built})\n`);
    exitCode = built || 1;
  } else {
    process.stdout.write(`# run-tests: sample snapshot built once for this run in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    const snapshotBefore = fingerprint(snapshotRoot);
    const tmpBefore = new Set(readdirSync(tmp));
    const durations = path.join(runRoot, 'durations.tsv');
    const code = await runNode(['--import', 'tsx', '--import', './test/helpers/file-clock.js', '--test', `--test-concurrency=${concurrency}`, ...files], { SAMPLE_SNAPSHOT_DIR: snapshotRoot, TEST_DURATIONS_FILE: durations });
    reportSlowest(durations);
    exitCode = code;
    const after = new Set(fingerprint(snapshotRoot));
    const changed = [...snapshotBefore.filter((line) => !after.has(line)).map((line) => `- ${line}`),
      ...[...after].filter((line) => !snapshotBefore.includes(line)).map((line) => `+ ${line}`)];
    if (changed.length > 0) {
      process.stderr.write(`run-tests: a test changed the shared sample snapshot, which tests must only read:\n${changed.map((line) => `  ${line}\n`).join('')}`);
      exitCode ||= 1;
    }
    const left = readdirSync(tmp).filter((name) => !tmpBefore.has(name)).sort();
    if (left.length > 0) {
      process.stderr.write(`run-tests: the tests left ${left.length} item(s) in their temporary folder: ${left.join(', ')}\n`);
      exitCode ||= 1;
    }
  }
} finally {
  removeRunRoot();
}
process.exitCode = stopped ? 128 + os.constants.signals[stopped] : exitCode;
