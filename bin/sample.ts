// npm run sample -- <source> [dir] [--scale N]: writes a source's deterministic sample files in its
// real format (default dir data/sample/<source>), from the list of domains.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DOMAINS } from '../domains/index.ts';
import { sampleSourcesOf } from '../domains/registry.ts';
import { exitWithHelpIfAsked } from './commandLine.ts';

const sources = sampleSourcesOf(DOMAINS);
const usage = `usage: npm run sample -- <source> [dir] [--scale N]\nsources: ${sources.map((source) => source.name).join(', ')}`;
exitWithHelpIfAsked(`${usage}

Writes the source's invented sample files, in its real format, deterministically (fixed seeds), into
dir (default data/sample/<source>); --scale N makes it N times larger. Nothing is ingested.`);

function fail(message: string): never {
  process.stderr.write(`sample: ${message}\n${usage}\n`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({ allowPositionals: true, options: { scale: { type: 'string' } } });
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const [name, dirArgument, ...extra] = parsed.positionals;
if (!name) fail('missing <source>');
if (extra.length > 0) fail(`unexpected arguments: ${extra.join(' ')}`);
const source = sources.find((candidate) => candidate.name === name) ?? fail(`unknown source "${name}"`);
const scale = parsed.values.scale === undefined ? 1 : Number(parsed.values.scale);
if (!Number.isFinite(scale) || scale < 1) fail('--scale must be a number >= 1');
const dir = resolve(dirArgument ?? `data/sample/${source.name}`);
const started = Date.now();
await source.generate(dir, { scale });
process.stderr.write(`sample: wrote the ${source.name} sample (x${scale}) to ${dir} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
