// Importing the server (http/app.ts) or the domain list (domains/index.ts) loads no ingest code and no
// ingest library: the domains' indexes import their ingest commands and sample sources for the source
// names, options and isLoaded only, and those import their parsers, generators and snapshot writers
// when they run. Every test process and every server start would otherwise pay for loading them.
// A child process records every module it resolves (an ESM resolve hook, and the CommonJS cache for
// the packages' own requires) while it imports both.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { tempDirUntilExit } from '../helpers/tmp.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The ingest modules the server may load, each light (constants, types, argument checks, file
 * listing), with why it is loaded. Anything else under ingest/ or domains/<name>/ingest/ fails.
 */
const ALLOWED_INGEST_MODULES: Readonly<Record<string, string>> = {
  'ingest/command.ts': 'the IngestCommand contract and UsageError',
  'ingest/sampleSource.ts': 'the SampleSource contract and fileExists for isLoaded',
  'ingest/sourceFiles.ts': 'the folder listing the commands export (ptpSourceFiles, ...)',
  'ingest/errors.ts': 'error classes, re-exported by the domains\' ingest/types.ts',
  'ingest/generations.ts': 'domains/servingDatabase.ts writes the serving database into a generation',
  'ingest/lock.ts': 'taken by ingest/generations.ts',
  'ingest/faults.ts': 'fault points of ingest/generations.ts and domains/servingDatabase.ts',
  'ingest/eurostat/command.ts': 'the eurostat command\'s name and options (domains/sharedTables.ts)',
  'ingest/eurostat/load.ts': 'loads the Eurostat tables for serving',
  'ingest/eurostat/tables.ts': 'the Eurostat tables\' DDL, read by load.ts',
  'ingest/worldbank/command.ts': 'the worldbank command\'s name and options (domains/sharedTables.ts)',
  'ingest/worldbank/load.ts': 'loads the WDI tables for serving',
  'ingest/worldbank/tables.ts': 'the WDI tables\' DDL, read by load.ts',
  'ingest/worldbank/aggregates.ts': 'the WDI aggregate codes, re-exported by load.ts',
  'ingest/worldbank/sampleEconomies.ts': 'the country sample source\'s isLoaded reads SAMPLE_WDI_OWNED_BY_ENERGY',
  'domains/agrifood/ingest/command.ts': 'the command\'s name and options (the domain\'s index)',
  'domains/agrifood/ingest/sampleSource.ts': 'the sample\'s name and isLoaded (the domain\'s index)',
  'domains/agrifood/ingest/types.ts': 'the dataset names, for the command\'s --dataset check',
  'domains/cardgame/ingest/command.ts': 'the command\'s name and options (the domain\'s index)',
  'domains/cardgame/ingest/sampleSource.ts': 'the sample\'s name and isLoaded (the domain\'s index)',
  'domains/cardgame/ingest/languages.ts': 'the languages, for the command\'s --lang check',
  'domains/country/ingest/oecdCommand.ts': 'the command\'s name and options (the domain\'s index)',
  'domains/country/ingest/sampleSource.ts': 'the sample\'s name and isLoaded (the domain\'s index)',
  'domains/energy/ingest/etsCommand.ts': 'the command\'s name and options (the domain\'s index)',
  'domains/energy/ingest/sampleSource.ts': 'the samples\' names and isLoaded (the domain\'s index)',
  'domains/macro/ingest/command.ts': 'the commands\' names and options (the domain\'s index)',
  'domains/macro/ingest/sampleSource.ts': 'the samples\' names and isLoaded (the domain\'s index)',
  'domains/macro/ingest/types.ts': 'dataset names and licence statuses, read by the macro queries too',
  'domains/ptp/ingest/command.ts': 'the command\'s name and options (the domain\'s index)',
  'domains/ptp/ingest/sampleSource.ts': 'the sample\'s name and isLoaded (the domain\'s index)',
  'domains/ptp/ingest/types.ts': 'the file extensions the command lists',
  'domains/sebra/ingest/command.ts': 'the command\'s name and options (the domain\'s index)',
  'domains/sebra/ingest/sampleSource.ts': 'the sample\'s name and isLoaded (the domain\'s index)',
  'domains/trade/ingest/command.ts': 'the command\'s name and options (the domain\'s index)',
  'domains/trade/ingest/sampleSource.ts': 'the sample\'s name and isLoaded (the domain\'s index)',
  'domains/trade/ingest/types.ts': 'the dataset name, for isLoaded',
};

/** Packages only the parsers and sample generators need. */
const INGEST_PACKAGES = ['exceljs', 'jszip', 'unzipper', 'csv-parse', 'fast-csv', '@fast-csv/parse', '@fast-csv/format'];

/** Modules and packages loaded on first use (queries/shared/firstUse.ts), not at import. */
const FIRST_USE_MODULES = ['domains/product/rules/analyze.ts', 'domains/product/rules/category.ts', 'engine/encode/arrow.ts', 'http/mcp/server.ts'];
const FIRST_USE_PACKAGES = ['apache-arrow', '@modelcontextprotocol/sdk'];

/** Records each resolved URL by appending it to the file given (synchronously: complete once the import resolves). */
const RECORDING_HOOK = `
import { appendFileSync } from 'node:fs';
let file;
export function initialize(data) { file = data.file; }
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(file, resolved.url + '\\n');
  return resolved;
}`;

async function loadedModules(entries: readonly string[]): Promise<{ project: string[]; packages: string[] }> {
  const file = path.join(await tempDirUntilExit('import-graph-'), 'resolved.txt');
  const script = `
import { register, createRequire } from 'node:module';
import { appendFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
writeFileSync(${JSON.stringify(file)}, '');
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(RECORDING_HOOK)}), { data: { file: ${JSON.stringify(file)} } });
for (const entry of ${JSON.stringify(entries)}) await import(pathToFileURL(entry).href);
const required = Object.keys(createRequire(import.meta.url).cache).map((p) => pathToFileURL(p).href);
appendFileSync(${JSON.stringify(file)}, required.join('\\n') + '\\n');
process.exit(0);
`;
  await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, maxBuffer: 16 << 20 });
  const urls = new Set((await readFile(file, 'utf8')).split('\n').filter((line) => line.startsWith('file:')));
  const project = new Set<string>();
  const packages = new Set<string>();
  for (const url of urls) {
    const file = fileURLToPath(url);
    const inPackage = file.split(`${path.sep}node_modules${path.sep}`);
    if (inPackage.length > 1) {
      const parts = inPackage[inPackage.length - 1].split(path.sep);
      packages.add(parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]);
    } else if (file.startsWith(ROOT + path.sep)) {
      project.add(path.relative(ROOT, file).split(path.sep).join('/'));
    }
  }
  return { project: [...project].sort(), packages: [...packages].sort() };
}

test('importing http/app.ts and domains/index.ts loads no parser, sample generator, snapshot writer or ingest library', async () => {
  const { project, packages } = await loadedModules([path.join(ROOT, 'http/app.ts'), path.join(ROOT, 'domains/index.ts')]);
  // The recording works: the entries and a domain's ingest command (its index imports it) are seen.
  for (const expected of ['http/app.ts', 'domains/index.ts', 'domains/sebra/ingest/command.ts']) assert.ok(project.includes(expected), `${expected} not recorded`);
  assert.ok(packages.includes('koa'), 'koa not recorded');

  const ingest = project.filter((file) => file.startsWith('ingest/') || /^domains\/[^/]+\/ingest\//.test(file));
  assert.deepEqual(ingest.filter((file) => !(file in ALLOWED_INGEST_MODULES)), [], 'ingest modules loaded at import (load them inside run/generate/ingest)');
  assert.deepEqual(packages.filter((name) => INGEST_PACKAGES.includes(name)), [], 'ingest libraries loaded at import');
  // Nor what loads on first use (queries/shared/firstUse.ts): the product rules engine, apache-arrow, the MCP SDK.
  assert.deepEqual(project.filter((file) => FIRST_USE_MODULES.includes(file)), [], 'modules declared for first use loaded at import');
  assert.deepEqual(packages.filter((name) => FIRST_USE_PACKAGES.includes(name)), [], 'packages declared for first use loaded at import');
});
