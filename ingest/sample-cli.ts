// Writes the deterministic SEBRA sample: tsx ingest/sample-cli.ts [dir]   (default data/sample/sebra)
import { resolve } from 'node:path';
import { generateSebraSample } from './sebra/sample.ts';

const dir = resolve(process.argv[2] ?? 'data/sample/sebra');
const started = Date.now();
const files = await generateSebraSample(dir, {
  onProgress: (done, total) => {
    if (done % 100 === 0 || done === total) process.stderr.write(`sample: ${done}/${total} files\n`);
  },
});
process.stderr.write(`sample: wrote ${files.length} SEBRA reports to ${dir} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
