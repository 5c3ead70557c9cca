// `npm run bench:refresh -- --data-from DIR [--scale x10] [--no-change]`: the refresh measurement
// (bench/refresh.ts) alone, on a tier prepared by `npm run bench:data -- --scale x10 --out DIR`, without a
// whole benchmark run (`npm run bench` measures it on every tier it prepares with every source).
// --no-change: the no-change refresh instead (bench/refreshUnchanged.ts), from the tier's sample files.
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { exitOnBadEngineSettings, exitWithHelpIfAsked } from '../bin/commandLine.ts';
import { REFRESH_SOURCE } from './names.ts';

const USAGE = 'usage: npm run bench:refresh -- --data-from DIR [--scale x10] [--no-change]';
exitWithHelpIfAsked(`${USAGE}

Refreshes the ${REFRESH_SOURCE} source (new days) on the snapshot DIR/<scale>/parquet prepared by npm run bench:data,
against ingesting the same files alone into an empty folder; prints the medians as JSON. The snapshot is
rolled back to its current generation after each refresh.

--no-change: serves DIR/<scale>/sample from a loopback stand-in publisher for every built-in fetch address,
fetches everything once (published into a scratch snapshot), then times \`fetch --all\` again with nothing
changed (every request a 304, no generation), without and with the per-host intervals; prints JSON.`);
exitOnBadEngineSettings('bench:refresh');
const { measureRefresh } = await import('./refresh.ts');
const { measureUnchangedRefresh } = await import('./refreshUnchanged.ts');
const { values } = parseArgs({ options: { 'data-from': { type: 'string' }, scale: { type: 'string', default: 'x10' }, 'no-change': { type: 'boolean', default: false } } });
if (!values['data-from']) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const tierDir = join(resolve(values['data-from']), values.scale!);
const log = (line: string) => process.stderr.write(`bench:refresh: ${line}\n`);
const figures = values['no-change']
  ? await measureUnchangedRefresh({ sampleRoot: join(tierDir, 'sample'), workDir: tierDir, log })
  : await measureRefresh(join(tierDir, 'parquet'), join(tierDir, 'sample', REFRESH_SOURCE), tierDir, log);
process.stdout.write(`${JSON.stringify(figures, null, 1)}\n`);
