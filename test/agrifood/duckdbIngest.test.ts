// The agri-food ingest through DuckDB (domains/agrifood/ingest/stage.ts) against the JavaScript parser
// it replaces (parseAgrifoodJson, the reference): for exports in every form the parser accepts or
// refuses, the rows read into the fact table equal the parser's records (written the way the old
// writer wrote them), and a refused file gives the parser's message, row included. Every variation
// runs alone on cereals, a third of the ones read alike by every sector on each other sector, and
// every accepted one together on each.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Database } from '../../engine/database.ts';
import { columnNames, createTableSql, stagedSelectSql, stagingTableSql } from '../../engine/dataset.ts';
import { AGRIFOOD_PRICES } from '../../domains/agrifood/datasets.ts';
import { parseAgrifoodJson } from '../../domains/agrifood/ingest/parse.ts';
import { makeFactTable, stageAgrifoodExport } from '../../domains/agrifood/ingest/stage.ts';
import type { AgrifoodDataset } from '../../domains/agrifood/ingest/types.ts';
import { jsonFileCheck } from '../../ingest/duckdbJson.ts';
import { MalformedSourceError } from '../../ingest/errors.ts';
import { tempDirUntilExit } from '../helpers/tmp.ts';

const HASH = 'f'.repeat(64);

const cereal = {
  memberStateCode: 'FR', memberStateName: 'France', beginDate: '27/07/2026', endDate: '02/08/2026', referencePeriod: 'Week 5',
  weekNumber: 5, price: '€224.50', unit: 'Tonne', productName: 'Breadmaking common wheat', productCode: 'BLTPAN',
  marketName: 'Rouen', marketCode: 'ROU', stageName: 'Free on board', stageCode: 'FOB', marketingYear: '2026/2027',
};
const oilseed = {
  memberStateCode: 'BG', beginDate: '27/07/2026', price: '€486.00', unit: 'national currency/ton', weekNumber: 5,
  product: 'Sunflower seed', productType: 'Standard', marketStage: 'FGATE', market: 'National Average', marketingYear: '2026/2027',
};
const pig = { memberStateCode: 'PT', memberStateName: 'Portugal', beginDate: '23/03/2020', endDate: '30/04/2020', weekNumber: 5, price: '€18.17', pigClass: 'Piglet', unit: 'Head' };

/** Variations of one field of a record: each is accepted or refused by the parser, alone in a record. */
const VARIATIONS: Record<string, unknown[]> = {
  price: [
    '€524.00', '€524,00', '€18.1', '€0,123', '€1,234', '€1234,567', '€1.234,56', '€ 1,234.56', '524.00 EUR', '-€3.50', '€1.234.567', 18.17, 20, 1e3,
    '', '-', ':', null, '€abc', '€1.23456', '€123456789012345', true, {}, '€00,123', '€0524.00', 'EUR5', '€1 234,5',
  ],
  beginDate: ['1/2/2026', '01/02/2026', ' 05/01/2026 ', '31/02/2026', '29/02/2024', '05/01/1899', '2026-01-05', '', null, 20260105, '5/1/26'],
  endDate: ['02/08/2026', '', null, '01/01/2026', '27/07/2026', ' 02/08/2026', 'x', 5, '29/02/2025'],
  weekNumber: [5, '5', '05', 53, 54, 0, '', null, 20.0, 2.5, ' 7 ', '1e1', true, '099'],
  marketingYear: ['2026/2027', '2026/27', '2026-2027', '2026 / 2027', '2099/00', '2026/2028', '0999/1000', '', null, 2026, '2026/2027 '],
  memberStateCode: ['FR', 'fr', 'GR', 'gr', 'EL', 'GB', 'AUSTRIA', 'XX', 'X', '', null, 12, ' de ', 'true', 'NaN', 'A1', 'ß', 'D\u0130', true],
  memberStateName: ['France', ' France ', 'Two  Words', 'tab\there', '', null, 42, 1.5, false, { a: 1 }, 'NaN', '12345678901234567'],
  productName: ['Durum wheat', '  Durum   wheat ', '', null, 7, 7.5, 'x\u00a0y', ['a'], '1e3'],
  unit: ['Tonne', '', null, 100, 'true', 'EUR/t\u2028', '[x]'],
  marketName: ['Hamburg 2', null, '', 3, '{}'],
};

/**
 * Fields whose variations run alone on every sector: those only some sectors read, and the member
 * state's (the oilseed record has no name, so its code alone names the state there).
 */
const EVERY_SECTOR = new Set(['productName', 'marketName', 'memberStateCode', 'memberStateName']);

/** The sector's record, then one per variation (each with its field). */
function recordsFor(dataset: AgrifoodDataset): [Record<string, unknown>, ...Array<{ field: string; record: Record<string, unknown> }>] {
  const base: Record<string, unknown> = dataset === 'cereals_prices' ? cereal : dataset === 'oilseeds_prices' ? oilseed : pig;
  const variants = Object.entries(VARIATIONS).flatMap(([field, values]) => values.map((value) => {
    const record = { ...base, [field]: value };
    if (value === null && field !== 'productName') delete record[field];
    return { field, record };
  }));
  return [base, ...variants];
}

/**
 * The variations each sector runs alone: cereals (whose record has every field varied) every one; the
 * others, the fields read alike by every sector (the same SQL and parser code) at a stride of 3, each
 * from another start, and EVERY_SECTOR's fields whole.
 */
const ALONE_START: Record<AgrifoodDataset, number | null> = { cereals_prices: null, oilseeds_prices: 1, pigmeat_prices: 2 };

/** One folder for the exports, each written over the last (the cases run one at a time). */
let exportDir: string | undefined;
async function tempFile(name: string, text: string): Promise<string> {
  exportDir ??= await tempDirUntilExit('agrifood-duckdb-');
  const file = path.join(exportDir, name);
  await writeFile(file, text);
  return file;
}

type Outcome = { rows: unknown[]; dataset: string; rowCount: number } | { error: string };

/** The reference: parseAgrifoodJson, its records written through the old staging path. */
async function expected(db: Database, text: string, file: string, dataset?: AgrifoodDataset): Promise<Outcome> {
  let parsed;
  try {
    parsed = parseAgrifoodJson(text, file, dataset);
  } catch (error) {
    if (error instanceof MalformedSourceError) return { error: error.message };
    throw error;
  }
  const facts = AGRIFOOD_PRICES[parsed.dataset];
  await db.run(stagingTableSql(facts, 'expected_stage'));
  await db.appendRows('expected_stage', parsed.records.map((r) => [
    parsed.dataset, r.commodityId, r.productName, r.productCode, r.productType, r.pigClass, r.memberStateCode, r.memberStateName,
    r.marketName, r.marketCode, r.stageName, r.stageCode, r.beginDate, r.endDate, r.weekNumber, r.marketingYear,
    r.referencePeriod, r.unit, r.price, path.basename(file), r.sourceRow, HASH,
  ]));
  await db.run(createTableSql(facts, 'expected_facts'));
  await db.run(`INSERT INTO expected_facts SELECT ${stagedSelectSql(facts)} FROM expected_stage`);
  const rows = await db.all(`SELECT ${columnNames(facts).join(', ')} FROM expected_facts ORDER BY source_row`);
  await db.run('DROP TABLE expected_stage');
  await db.run('DROP TABLE expected_facts');
  return { rows, dataset: parsed.dataset, rowCount: parsed.records.length };
}

async function actual(db: Database, file: string, dataset?: AgrifoodDataset): Promise<Outcome> {
  let staged;
  try {
    const check = { strict: jsonFileCheck(file).then((c) => c.strict) };
    staged = await stageAgrifoodExport(db, { file, table: 'export_1', dataset, check });
  } catch (error) {
    if (error instanceof MalformedSourceError) return { error: error.message };
    throw error;
  }
  const facts = AGRIFOOD_PRICES[staged.dataset];
  await makeFactTable(db, staged, 'actual_facts', HASH);
  const rows = await db.all(`SELECT ${columnNames(facts).join(', ')} FROM actual_facts ORDER BY source_row`);
  const types = await db.all("SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'actual_facts' ORDER BY ordinal_position");
  await db.run('DROP TABLE actual_facts');
  // The declared types, column by column (the working columns aside).
  const declared = Object.fromEntries(facts.columns.map((c) => [c.name, c.type]));
  for (const { column_name, data_type } of types) if (String(column_name) in declared) assert.equal(data_type, declared[String(column_name)], String(column_name));
  return { rows, dataset: staged.dataset, rowCount: staged.rowCount };
}

async function same(db: Database, text: string, dataset?: AgrifoodDataset): Promise<void> {
  const file = await tempFile('prices.json', text);
  const want = await expected(db, text, file, dataset);
  const got = await actual(db, file, dataset);
  if ('error' in want && want.error.includes('not valid JSON')) {
    // The message quotes JSON.parse: of the whole text before, of the element (or the scanner) now.
    assert.ok('error' in got, `${text.slice(0, 200)}: expected a refusal`);
    assert.match(got.error, /^prices\.json: not valid JSON \(/);
    return;
  }
  assert.deepEqual(got, want, text.slice(0, 300));
}

describe('the DuckDB read gives parseAgrifoodJson\'s rows and messages', () => {
  for (const dataset of ['cereals_prices', 'oilseeds_prices', 'pigmeat_prices'] as const) {
    test(`${dataset}: variations alone after a good record (refused ones name their row), every accepted one together`, async () => {
      const db = await Database.open({ connections: 1 });
      try {
        const [base, ...variants] = recordsFor(dataset);
        const start = ALONE_START[dataset];
        const alone = variants.filter(({ field }, i) => start === null || i % 3 === start || EVERY_SECTOR.has(field));
        for (const { record } of alone) await same(db, JSON.stringify([base, record]));
        // All the accepted variations in one file, so that SQL and JavaScript rows mix.
        const accepted: unknown[] = [];
        for (const { record } of variants) {
          try {
            parseAgrifoodJson(JSON.stringify([base, record]), 'x.json');
            accepted.push(record);
          } catch {
            // refused: covered above
          }
        }
        await same(db, JSON.stringify([base, ...accepted, base]));
        await same(db, JSON.stringify([base, ...accepted]), dataset);
      } finally {
        await db.close();
      }
    });
  }

  test('file-level cases: not an array, empty, syntax errors, the sector, BOM, elements that are not objects', async () => {
    const db = await Database.open({ connections: 1 });
    try {
      const cases: Array<[string, AgrifoodDataset?]> = [
        ['{"data": []}'], ['[]'], ['"text"'], [''], ['{"broken"'], [`[${JSON.stringify(cereal)},`], [`[${JSON.stringify(cereal)}] x`],
        [`\uFEFF${JSON.stringify([cereal, cereal])}`], [JSON.stringify([cereal, 'text'])], [JSON.stringify(['text', cereal])],
        [JSON.stringify([cereal, [1]])], [JSON.stringify([cereal, null])],
        [JSON.stringify([{ memberStateCode: 'DE', beginDate: '05/01/2026' }])],
        [JSON.stringify([{ ...cereal, pigClass: 'S' }])], [JSON.stringify([{ ...cereal, pigClass: null }])],
        [JSON.stringify([{ ...cereal, pigClass: null }]), 'cereals_prices'],
        [JSON.stringify([cereal, { ...cereal, productName: null }])], [JSON.stringify([cereal, { ...cereal, productName: undefined }])],
        [JSON.stringify([cereal, oilseed])], [JSON.stringify([oilseed]), 'cereals_prices'], [JSON.stringify([cereal, pig]), 'cereals_prices'],
        // Repeated keys (JSON.parse keeps the last; DuckDB refuses them); NaN, trailing commas, a file cut after a comma (DuckDB reads them, JSON.parse does not).
        [`[${JSON.stringify(cereal).replace('"unit":"Tonne"', '"unit":"Tonne","unit":"Kg"')}]`],
        [`[${JSON.stringify(cereal).replace('"weekNumber":5', '"weekNumber":NaN')}]`],
        [`[${JSON.stringify(cereal).replace('"unit":"Tonne"', '"unit":Infinity')}]`],
        [`[${JSON.stringify(cereal).replace('"marketingYear":"2026/2027"', '"marketingYear":"2026/2027","extra":nan')}]`],
        [`[${JSON.stringify(cereal).replace('}', ',}')}]`], [`[${JSON.stringify(cereal)},`], [`[${JSON.stringify(cereal)}, \n `], [' '], ['['],
        [`[${JSON.stringify(cereal)},${JSON.stringify({ ...cereal, price: '€1x0' })},{"broken"]`],
        [`[${JSON.stringify(cereal).replace('"Rouen"', '"Rou\\u00e9n \\"quoted\\""')}]`],
      ];
      for (const [text, dataset] of cases) await same(db, text, dataset);
    } finally {
      await db.close();
    }
  });
});
