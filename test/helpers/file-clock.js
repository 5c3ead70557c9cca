// Loaded into every test process (`--import`, test/helpers/run-tests.js): when a test file's process
// exits, it appends its path, its wall time from the process's start, and the CPU time it and the
// children it waited for used (Linux: /proc/self/stat), to TEST_DURATIONS_FILE, so the run can name
// its slowest files (the runner's own per-test times leave out file-level hooks) and tell a file that
// computes from one that waits.
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const file = process.env.TEST_DURATIONS_FILE;
const compiledRoot = process.env.TEST_COMPILED_ROOT;

/** A test file's path as the project names it: relative, and its source's when it runs compiled (compile-tests.js). */
export function sourceName(file) {
  if (compiledRoot && file.startsWith(compiledRoot + path.sep)) return path.relative(compiledRoot, file).replace(/\.js$/, '.ts');
  return path.relative(process.cwd(), file);
}

/** CPU seconds of this process and its waited-for children (utime, stime, cutime, cstime), or NaN off Linux. */
function cpuSeconds() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /s, '').split(' ');
    // After the command's closing parenthesis, utime is the 12th field (14th of the line).
    const ticks = fields.slice(11, 15).reduce((sum, value) => sum + Number(value), 0);
    return ticks / 100;
  } catch {
    return Number.NaN;
  }
}

// The runner marks the processes it starts for test files; the runner itself records nothing.
if (file && process.env.NODE_TEST_CONTEXT && process.argv[1]) {
  process.on('exit', () => {
    const seconds = (performance.now() / 1000).toFixed(1);
    appendFileSync(file, `${sourceName(process.argv[1])}\t${seconds}\t${cpuSeconds().toFixed(1)}\n`);
  });
}
