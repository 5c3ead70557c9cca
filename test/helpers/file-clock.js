// Loaded into every test process (`--import`, test/helpers/run-tests.js): when a test file's process
// exits, it appends its path and wall time, from the process's start, to TEST_DURATIONS_FILE, so the
// run can name its slowest files (the runner's own per-test times leave out file-level hooks).
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const file = process.env.TEST_DURATIONS_FILE;
// The runner marks the processes it starts for test files; the runner itself records nothing.
if (file && process.env.NODE_TEST_CONTEXT && process.argv[1]) {
  process.on('exit', () => {
    const seconds = (performance.now() / 1000).toFixed(1);
    appendFileSync(file, `${path.relative(process.cwd(), process.argv[1])}\t${seconds}\n`);
  });
}
