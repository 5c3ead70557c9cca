// The test run proper, started by test/helpers/run-tests.js as
//   node --import ./test/helpers/file-clock.js test/helpers/run-files.js <concurrency> <file>...
// with the compiled test files (test/helpers/compile-tests.js). It runs the files with node:test's
// run() in the order given, `concurrency` at a time (`node --test` itself sorts its files by name, so
// it cannot start the longest first). Each file's process gets this process's --import flags (the
// file clock). The report is `node --test`'s default: spec on a terminal, TAP otherwise; the exit
// code is 1 when a test failed, as with `node --test`.
import { appendFileSync } from 'node:fs';
import { run } from 'node:test';
import { spec, tap } from 'node:test/reporters';
import { sourceName } from './file-clock.js';

const [concurrencyArg, ...files] = process.argv.slice(2);
const concurrency = Number(concurrencyArg);
// A signal stops the run: the files' processes are ended with it and the report says they were cancelled.
const stop = new globalThis.AbortController();
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    process.exitCode = 1;
    stop.abort();
  });
}

const stream = run({ files, concurrency, signal: stop.signal });
// Any failing test fails the run, however the test is marked. Each failure is also written, one line,
// to TEST_FAILURES_FILE, which run-tests.js prints last: the report of a long run is read from its end.
const failures = process.env.TEST_FAILURES_FILE;
stream.on('test:fail', (event) => {
  process.exitCode = 1;
  const error = event.details?.error;
  // A suite fails when a test in it fails; that test has its own line.
  if (!failures || error?.failureType === 'subtestsFailed') return;
  // The file only: its line numbers are those of the compiled file, not the source's.
  const where = event.file ? sourceName(event.file) : '(no file)';
  const reason = String(error?.cause?.message ?? error?.message ?? error ?? 'failed').split('\n')[0].slice(0, 300);
  appendFileSync(failures, `${where}\t${event.name}\t${reason}\n`);
});
stream.compose(process.stdout.isTTY ? new spec() : tap).pipe(process.stdout);
