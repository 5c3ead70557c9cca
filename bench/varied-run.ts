// `node --import tsx bench/varied-run.ts DATA_DIR [--per-family N] [--budget-ms MS] [--tags a,b]`: every
// route family over drawn parameters (bench/varied.ts) on one snapshot, in the bench's measured
// process with the examples timed lightly beside (3 HTTP requests each), without a whole bench run.
// Prints the report's table of families.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { variedLines, type TierReport } from './report.ts';
import { runTarget } from './target.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'per-family': { type: 'string', default: '100' }, 'budget-ms': { type: 'string', default: '4000' }, tags: { type: 'string' } },
});
if (positionals.length !== 1) {
  process.stderr.write('usage: node --import tsx bench/varied-run.ts DATA_DIR [--per-family N] [--budget-ms MS] [--tags a,b]\n');
  process.exit(2);
}
const { report, close } = await runTarget({
  dataDir: resolve(positionals[0]!), runs: 1, httpRuns: 3, tags: values.tags?.split(','),
  variedPerFamily: Number(values['per-family']), variedBudgetMs: Number(values['budget-ms']),
});
await close();
const tier = { tier: 'this snapshot', cases: report.cases, varied: report.varied } as TierReport;
process.stdout.write(`${variedLines([tier]).join('\n')}\n`);
