// The recorded answers for every built-in address of `npm run fetch` (ingest/fetch/sources.ts), taken from
// the sample files a benchmark scale generated (DIR/<scale>/sample/<source>, the same real formats at any
// scale) and packaged the way each publisher sends them: Eurostat TSV gzipped, World Bank CSVs in a bulk
// zip, FRED as fredgraph.csv, the agri-food history split into its year pages, Comext into its five-year
// windows. An address without an answer is an error: the no-change refresh must ask for every one.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import JSZip from 'jszip';
import { FETCH_SOURCES, plansOf, type DatasetPlan } from '../ingest/fetch/sources.ts';
import type { Recorded } from './standInPublisher.ts';

/** The built-in datasets of every source at `now` (no operator file, no FRED key): what `fetch --all` asks for. */
export function builtInPlans(now: Date): Array<{ source: string; plan: DatasetPlan }> {
  return FETCH_SOURCES.flatMap((source) => plansOf(source, { env: {}, now, config: undefined }).map((plan) => ({ source: source.name, plan })));
}

async function zipOf(entries: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new JSZip();
  for (const [name, content] of Object.entries(entries)) zip.file(name, content, { date: new Date('2026-01-01T00:00:00Z') });
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** A FRED API JSON answer (the sample's FEDFUNDS.json) as fredgraph.csv: `observation_date,<ID>`, missing values ('.') empty. */
function fredGraphFromJson(id: string, text: string): string {
  const { observations } = JSON.parse(text) as { observations: Array<{ date: string; value: string }> };
  return [`observation_date,${id}`, ...observations.map((o) => `${o.date},${o.value === '.' ? '' : o.value}`)].join('\n') + '\n';
}

/** The first file of `dir` whose name matches; the last in name order when several do (the newest vintage). */
async function fileIn(dir: string, pattern: RegExp): Promise<string> {
  const names = (await readdir(dir)).filter((name) => pattern.test(name)).sort();
  if (names.length === 0) throw new Error(`bench mirror: no file matching ${pattern} in ${dir}`);
  return join(dir, names.at(-1)!);
}

/** Year of an agri-food record's beginDate (dd/mm/yyyy). */
function agrifoodYear(record: { beginDate?: unknown }): number {
  const match = /^\d{2}\/\d{2}\/(\d{4})$/.exec(String(record.beginDate));
  if (!match) throw new Error(`bench mirror: agri-food record without a dd/mm/yyyy beginDate: ${JSON.stringify(record).slice(0, 200)}`);
  return Number(match[1]);
}

/**
 * A Comext SDMX-CSV file's rows whose TIME_PERIOD lies in [from, to], header kept. A window past the
 * sample's last year (the current year's) gets the last year's rows restated as its first year: the
 * ingest rejects a file without observations, and the publisher answers that window with data too.
 */
function tradeWindow(texts: readonly string[], from: number, to: number): string {
  const header = texts[0]!.split('\n', 1)[0]!;
  const period = header.split(',').indexOf('TIME_PERIOD');
  const all = texts.flatMap((text) => text.trimEnd().split('\n').slice(1)).map((line) => line.split(','));
  let rows = all.filter((cells) => Number(cells[period]) >= from && Number(cells[period]) <= to);
  if (rows.length === 0) {
    const last = all.reduce((max, cells) => Math.max(max, Number(cells[period])), -Infinity);
    rows = all.filter((cells) => Number(cells[period]) === last).map((cells) => cells.map((cell, i) => (i === period ? String(from) : cell)));
  }
  return [header, ...rows.map((cells) => cells.join(','))].join('\n') + '\n';
}

/** The answer for one dataset's pages, read from sampleRoot (DIR/<scale>/sample). */
async function answersFor(source: string, plan: DatasetPlan, sampleRoot: string): Promise<Buffer[]> {
  const dir = (name: string) => join(sampleRoot, name);
  switch (source) {
    case 'eurofxref':
      return [await readFile(join(dir('eurofxref'), plan.file))];
    case 'ecb':
      return [await readFile(join(dir('ecb'), plan.file))];
    case 'fred': {
      const csv = await readFile(join(dir('fred'), `${plan.dataset}.csv`), 'utf8').catch(() => null);
      return [Buffer.from(csv ?? fredGraphFromJson(plan.dataset, await readFile(join(dir('fred'), `${plan.dataset}.json`), 'utf8')))];
    }
    case 'eurostat': {
      const name = `estat_${plan.dataset}.tsv`;
      const text = await readFile(join(dir(plan.dataset === 'prc_hicp_manr' ? 'hicp' : 'energy-eurostat'), name));
      return [gzipSync(text)];
    }
    case 'worldbank': {
      const pattern = new RegExp(`^API_${plan.dataset.replaceAll('.', '\\.')}_DS2_.*\\.csv$`);
      const file = await fileIn(dir('energy-worldbank'), pattern).catch(() => fileIn(join(dir('country'), 'worldbank'), pattern));
      return [await zipOf({ [`API_${plan.dataset}_DS2_en_csv_v2_1.csv`]: await readFile(file) })];
    }
    case 'oecd':
      return [await readFile(join(await fileIn(join(dir('country'), 'oecd'), /^\d{4}-\d{2}$/), plan.file))];
    case 'cardgame':
      return [await readFile(join(dir('cardgame'), plan.file))];
    case 'agrifood': {
      const sector = plan.dataset.replace(/_prices$/, '').replace(/^cereals$/, 'cereal');
      const records = JSON.parse(await readFile(await fileIn(dir('agrifood'), new RegExp(`^${sector}-prices-.*\\.json$`)), 'utf8')) as Array<{ beginDate?: unknown }>;
      return plan.pages.map((page) => {
        const year = Number(/beginDate=\d{2}\/\d{2}\/(\d{4})/.exec(page.url)![1]);
        return Buffer.from(JSON.stringify(records.filter((record) => agrifoodYear(record) === year)));
      });
    }
    case 'trade': {
      const [, from, to] = /-(\d{4})-(\d{4})$/.exec(plan.dataset)!;
      const files = (await readdir(dir('trade'))).filter((name) => name.endsWith('.csv')).sort();
      const texts = await Promise.all(files.map((name) => readFile(join(dir('trade'), name), 'utf8')));
      return [Buffer.from(tradeWindow(texts, Number(from), Number(to)))];
    }
    default:
      throw new Error(`bench mirror: no recorded answer for the source ${source}`);
  }
}

/** Every built-in address with its recorded answer, from the sample files in sampleRoot. */
export async function mirrorAnswers(sampleRoot: string, now: Date): Promise<Map<string, Recorded>> {
  const answers = new Map<string, Recorded>();
  for (const { source, plan } of builtInPlans(now)) {
    const bodies = await answersFor(source, plan, sampleRoot);
    for (const [index, page] of plan.pages.entries()) answers.set(page.url, { body: bodies[index]! });
  }
  return answers;
}
