// `npm run bench:data -- --scale x10 --out DIR [--sources sebra,ptp]`: generates each source's
// sample at a tier's factor and ingests it into DIR/<scale>/parquet (kept), for probing routes
// (`npm run bench:probe`) against a snapshot of that size without a whole benchmark run, or for
// `npm run bench -- --data-from DIR` (its ingest figures are kept in DIR/<scale>/figures.json).
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { exitOnBadEngineSettings, exitWithHelpIfAsked } from '../bin/commandLine.ts';
import { TIER_NAMES } from './names.ts';

const USAGE = `usage: npm run bench:data -- --scale ${TIER_NAMES.join('|')} --out DIR [--sources a,b]`;
exitWithHelpIfAsked(`${USAGE}

Generates each source's sample at the scale's factor and ingests it into DIR/<scale>/parquet (kept),
for npm run bench:probe or npm run bench -- --data-from DIR. Prints the snapshot folder.`);
exitOnBadEngineSettings('bench:data');
const { prepareTier, TIERS } = await import('./data.ts');
const { values } = parseArgs({ options: { scale: { type: 'string', default: 'x10' }, out: { type: 'string' }, sources: { type: 'string' } } });
const tier = TIERS.find((t) => t.name === values.scale);
if (!tier || !values.out) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const sources = values.sources?.split(',').map((s) => s.trim());
const { dataDir, sources: figures, servingBuildMs } = await prepareTier(tier, resolve(values.out), sources, (line) => process.stderr.write(`bench:data: ${line}\n`));
for (const f of figures) {
  process.stderr.write(`bench:data: ${f.source} x${f.factor}: ${f.ingest.rows} rows, ingest ${(f.ingest.ms / 1000).toFixed(1)} s, ` +
    `floor ${f.floor ? `${(f.floor.ms / 1000).toFixed(1)} s` : '-'}, ingest/floor ${f.ingestVsFloor?.toFixed(2) ?? '-'}\n`);
}
// `npm run bench -- --data-from DIR` measures this data instead of preparing its own (the figures come along).
await writeFile(join(resolve(values.out), tier.name, 'figures.json'), `${JSON.stringify({ sources: figures, servingBuildMs }, null, 1)}\n`);
process.stdout.write(`${dataDir}\n`);
