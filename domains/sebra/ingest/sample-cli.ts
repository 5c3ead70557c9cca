// Writes the deterministic SEBRA sample for a date range: tsx domains/sebra/ingest/sample-cli.ts [dir] [--from YYYY-MM-DD] [--to YYYY-MM-DD]
// (default dir data/sample/sebra, default range the whole sample).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generateSebraSample } from './sample.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { from: { type: 'string' }, to: { type: 'string' } },
});
const dir = resolve(positionals[0] ?? 'data/sample/sebra');
const started = Date.now();
const files = await generateSebraSample(dir, {
  from: values.from,
  to: values.to,
  onProgress: (done, total) => {
    if (done % 100 === 0 || done === total) process.stderr.write(`sample: ${done}/${total} files\n`);
  },
});
process.stderr.write(`sample: wrote ${files.length} SEBRA reports to ${dir} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
