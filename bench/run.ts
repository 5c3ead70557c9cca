// `npm run bench [-- --quick] [--scales x1,x10,x100] [--sources sebra,ptp] [--no-paid] [--data-from DIR]`:
// data at each scale (generate, ingest, DuckDB floor), then per scale a separate measured process
// (startup, RSS, every catalog example's handler vs its SQL floor and through HTTP), HTTP load with
// autocannon against the app, a bare Koa route and the paid app; writes bench/results/<date>.{json,md}
// and, for a full run, the summary block of docs/benchmarks.md.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { exitOnBadEngineSettings, exitWithHelpIfAsked, isEntryPoint } from '../bin/commandLine.ts';

if (isEntryPoint(import.meta.url)) {
  exitWithHelpIfAsked(`usage: npm run bench [-- --quick] [--scales x1,x10,x100] [--sources sebra,ptp] [--no-paid] [--data-from DIR]
                 [--paid-requests N] [--keep-data] [--name NAME] | --render FILE.json

Generates and ingests the data at each scale, measures startup, memory, every catalog example's
handler against its SQL floor and through HTTP, and HTTP load (the app, a bare Koa route, the paid
app on a local chain); writes bench/results/<date>.{json,md} and, for a full run, the summary block
of docs/benchmarks.md. --quick: scale x1, fewer requests. --render: rewrites the Markdown of a report.`);
  exitOnBadEngineSettings('bench');
  const { rerender, runBench, SUMMARY_PAGE } = await import('./benchmark.ts');
  const { TIERS } = await import('./data.ts');
  const { renderMarkdown } = await import('./report.ts');
  const { values } = parseArgs({
    options: {
      render: { type: 'string' },
      quick: { type: 'boolean', default: false },
      scales: { type: 'string' },
      sources: { type: 'string' },
      'no-paid': { type: 'boolean', default: false },
      'keep-data': { type: 'boolean', default: false },
      /** Measure the data `npm run bench:data` prepared in this folder (for the scales it has). */
      'data-from': { type: 'string' },
      /** Report file name without extension (default: the date); a named run leaves the README alone. */
      name: { type: 'string' },
      /** Paid requests per paid run (default 120 full, 10 quick). */
      'paid-requests': { type: 'string' },
    },
  });
  if (values.render) {
    await rerender(resolve(values.render), values.name ? undefined : resolve(SUMMARY_PAGE));
    process.exit(0);
  }
  const quick = values.quick!;
  const names = (values.scales ?? (quick ? 'x1' : 'x1,x10,x100')).split(',').map((s) => s.trim());
  const tiers = names.map((name) => {
    const tier = TIERS.find((t) => t.name === name);
    if (!tier) throw new Error(`unknown scale ${name}: one of ${TIERS.map((t) => t.name).join(', ')}`);
    return tier;
  });
  const workDir = await mkdtemp(join(os.tmpdir(), 'bench-'));
  const started = performance.now();
  try {
    const { report, files } = await runBench({
      quick, tiers, sources: values.sources?.split(',').map((s) => s.trim()), paid: !values['no-paid'], workDir,
      dataFrom: values['data-from'] ? resolve(values['data-from']) : undefined,
      resultsDir: resolve('bench/results'), readme: quick || values.name ? undefined : resolve(SUMMARY_PAGE), name: values.name,
      paidRequests: values['paid-requests'] ? Number(values['paid-requests']) : undefined,
      log: (line) => process.stderr.write(`bench: ${line}\n`),
    });
    process.stdout.write(renderMarkdown(report, { endpoints: false }));
    process.stderr.write(`bench: wrote ${files.json} and ${files.markdown} in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  } finally {
    if (!values['keep-data']) await rm(workDir, { recursive: true, force: true });
    else process.stderr.write(`bench: data kept in ${workDir}\n`);
  }
}
