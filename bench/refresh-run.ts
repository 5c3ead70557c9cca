// `npm run bench:refresh -- --data-from DIR [--scale x10]`: the refresh measurement (bench/refresh.ts)
// alone, on a tier prepared by `npm run bench:data -- --scale x10 --out DIR`, without a whole
// benchmark run (`npm run bench` measures it on every tier it prepares with every source).
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { exitWithHelpIfAsked } from '../bin/commandLine.ts';
import { measureRefresh, REFRESH_SOURCE } from './refresh.ts';

const USAGE = 'usage: npm run bench:refresh -- --data-from DIR [--scale x10]';
exitWithHelpIfAsked(`${USAGE}

Refreshes the ${REFRESH_SOURCE} source (new days) on the snapshot DIR/<scale>/parquet prepared by npm run bench:data,
against ingesting the same files alone into an empty folder; prints the medians as JSON. The snapshot is
rolled back to its current generation after each refresh.`);
const { values } = parseArgs({ options: { 'data-from': { type: 'string' }, scale: { type: 'string', default: 'x10' } } });
if (!values['data-from']) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const tierDir = join(resolve(values['data-from']), values.scale!);
const figures = await measureRefresh(join(tierDir, 'parquet'), join(tierDir, 'sample', REFRESH_SOURCE), tierDir, (line) => process.stderr.write(`bench:refresh: ${line}\n`));
process.stdout.write(`${JSON.stringify(figures, null, 1)}\n`);
