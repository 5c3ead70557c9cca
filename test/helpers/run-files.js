// The test run proper, started by test/helpers/run-tests.js as
//   node --import tsx --import ./test/helpers/file-clock.js test/helpers/run-files.js <concurrency> <file>...
// It runs the files with node:test's run() in the order given, `concurrency` at a time (`node --test`
// itself sorts its files by name, so it cannot start the longest first). Each file's process gets this
// process's --import flags (tsx, the file clock). The report is `node --test`'s default: spec on a
// terminal, TAP otherwise; the exit code is 1 when a test failed, as with `node --test`.
import { run } from 'node:test';
import { spec, tap } from 'node:test/reporters';

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
// Any failing test fails the run, however the test is marked.
stream.on('test:fail', () => {
  process.exitCode = 1;
});
stream.compose(process.stdout.isTTY ? new spec() : tap).pipe(process.stdout);
