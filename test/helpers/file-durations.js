// A test reporter beside the default one (test/helpers/run-tests.js): when the run ends, the slowest
// test files by wall time, from a file's first event to its last, so the run's time has names.
// Node 20's runner reports no per-file event, hence wall time as the events arrive.
const SHOWN = 15;

export default async function* fileDurations(source) {
  const spans = new Map();
  for await (const event of source) {
    const file = event.data?.file;
    if (!file) continue;
    const now = Date.now();
    const span = spans.get(file);
    if (span) span.last = now;
    else spans.set(file, { first: now, last: now });
  }
  const slowest = [...spans].map(([file, span]) => ({ file: file.replace(`${process.cwd()}/`, ''), seconds: (span.last - span.first) / 1000 }))
    .sort((a, b) => b.seconds - a.seconds || (a.file < b.file ? -1 : 1))
    .slice(0, SHOWN);
  yield `# slowest test files (wall time, first to last event):\n${slowest.map((s) => `#   ${s.seconds.toFixed(1).padStart(6)} s  ${s.file}\n`).join('')}`;
}
