// The agri-food ingest: value parsers, the three real layouts (records quoted in the reference or
// built in its documented shape, with their quirks), sector detection, rejection of malformed files
// (naming file, row and problem, snapshot unchanged), versions, replacement and the CLI.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, test } from 'node:test';
import { Database } from '../../engine/database.ts';
import { parseAgrifoodJson } from '../../domains/agrifood/ingest/parse.ts';
import { ingestAgrifoodFiles } from '../../domains/agrifood/ingest/snapshot.ts';
import { parseMarketingYear, parsePortalDate, parsePrice, parseWeekNumber } from '../../domains/agrifood/ingest/values.ts';
import { IngestRejectedError, MalformedSourceError } from '../../ingest/errors.ts';
import { loadImports } from '../../queries/imports.ts';
import { loadAgrifood } from '../../domains/agrifood/queries/tables.ts';
import { oilseedsFixture, pigmeatFixture, writeAgrifoodFixtureSnapshot, writeJson } from './fixtures.ts';
import { scriptArgs } from '../helpers/cli.ts';
import { ingestInProcess } from '../helpers/ingestCli.ts';
import { tempDirUntilExit } from '../helpers/tmp.ts';

describe('value parsers', () => {
  test('prices: euro sign, spaces, thousands separators and decimal commas', () => {
    const cases: Array<[unknown, string | null]> = [
      ['€524.00', '524.00'], ['€18.17', '18.17'], ['€ 1,234.56', '1234.56'], ['€1.234,56', '1234.56'], ['€524,00', '524.00'],
      ['1 234,5', '1234.5'], ['€1,234', '1234'], ['€0,123', '0.123'], ['€1.234.567', '1234567'], ['€\u00a0308.56', '308.56'],
      ['524.00 EUR', '524.00'], ['-€3.50', '-3.50'], [18.17, '18.17'], ['', null], [null, null], [undefined, null], ['-', null], [':', null],
    ];
    for (const [input, expected] of cases) assert.equal(parsePrice(input), expected, JSON.stringify(input));
    for (const bad of ['€abc', '€1,23,4', '€1.23456', '12€34x', '€1,234.5.6', true, {}]) {
      assert.throws(() => parsePrice(bad), /price/, JSON.stringify(bad));
    }
  });

  test('dd/mm/yyyy dates, week numbers, marketing years', () => {
    assert.equal(parsePortalDate('27/07/2026', 'beginDate'), '2026-07-27');
    assert.equal(parsePortalDate('1/2/2026', 'beginDate'), '2026-02-01');
    assert.equal(parsePortalDate(undefined, 'endDate'), null);
    assert.throws(() => parsePortalDate('31/02/2026', 'beginDate'), /beginDate "31\/02\/2026" is not a calendar date/);
    assert.throws(() => parsePortalDate('2026-07-27', 'beginDate'), /not a dd\/mm\/yyyy date/);
    assert.equal(parseWeekNumber(5), 5);
    assert.equal(parseWeekNumber('53'), 53);
    assert.throws(() => parseWeekNumber(54), /weekNumber/);
    assert.equal(parseMarketingYear('2026/2027'), '2026/2027');
    assert.equal(parseMarketingYear('2026/27'), '2026/2027');
    assert.throws(() => parseMarketingYear('2026/2028'), /consecutive/);
  });
});

describe('real layouts', () => {
  test('cereals: productName, productCode, marketName, stageName (the reference shape)', () => {
    const record = {
      memberStateCode: 'FR', memberStateName: 'France', beginDate: '27/07/2026', endDate: '02/08/2026', referencePeriod: 'Week 5',
      weekNumber: 5, price: '€224.50', unit: 'Tonne', productName: 'Breadmaking common wheat', productCode: 'BLTPAN',
      marketName: 'Rouen', marketCode: 'ROU', stageName: 'Free on board', stageCode: 'FOB', marketingYear: '2026/2027',
    };
    const parsed = parseAgrifoodJson(JSON.stringify([record]), 'cereal.json');
    assert.equal(parsed.dataset, 'cereals_prices');
    assert.equal(parsed.detectedBy, 'fields');
    assert.deepEqual(parsed.records[0], {
      commodityId: 'cereals_prices:Breadmaking common wheat', productName: 'Breadmaking common wheat', productCode: 'BLTPAN',
      productType: null, pigClass: null, memberStateCode: 'FR', memberStateName: 'France', marketName: 'Rouen', marketCode: 'ROU',
      stageName: 'Free on board', stageCode: 'FOB', beginDate: '2026-07-27', endDate: '2026-08-02', weekNumber: 5,
      marketingYear: '2026/2027', referencePeriod: 'Week 5', unit: 'Tonne', price: '224.50', sourceRow: 1,
    });
  });

  test('oilseeds: the two records quoted from the portal (BG without memberStateName and endDate)', () => {
    const text = `[
      {"memberStateCode":"FR","memberStateName":"France","beginDate":"27/07/2026","endDate":"02/08/2026","price":"€524.00","unit":"national currency/ton","weekNumber":5,"product":"Rapeseed","productType":"N.A.","marketStage":"DELPROC","market":"Rouen","marketingYear":"2026/2027"},
      {"memberStateCode":"BG","beginDate":"27/07/2026","price":"€486.00","unit":"national currency/ton","weekNumber":5,"product":"Sunflower seed","productType":"Standard","marketStage":"FGATE","market":"National Average","marketingYear":"2026/2027"}
    ]`;
    const parsed = parseAgrifoodJson(text, 'oilseeds.json');
    assert.equal(parsed.dataset, 'oilseeds_prices');
    const [fr, bg] = parsed.records;
    assert.deepEqual([fr.commodityId, fr.productName, fr.productType, fr.marketName, fr.stageName, fr.unit, fr.price, fr.weekNumber],
      ['oilseeds_prices:Rapeseed|N.A.', 'Rapeseed', 'N.A.', 'Rouen', 'DELPROC', 'national currency/ton', '524.00', 5]);
    assert.deepEqual([bg.commodityId, bg.memberStateName, bg.endDate, bg.marketName, bg.stageName, bg.price, bg.sourceRow],
      ['oilseeds_prices:Sunflower seed|Standard', 'Bulgaria', null, 'National Average', 'FGATE', '486.00', 2]);
  });

  test('pigmeat: the documentation record (endDate weeks after beginDate, as published), pigClass', () => {
    const text = '[{"memberStateCode":"PT","memberStateName":"Portugal","beginDate":"23/03/2020","endDate":"30/04/2020","weekNumber":5,"price":"€18.17","pigClass":"Piglet","unit":"Head"}]';
    const [pt] = parseAgrifoodJson(text, 'pigmeat.json').records;
    assert.deepEqual([pt.commodityId, pt.productName, pt.pigClass, pt.beginDate, pt.endDate, pt.price, pt.marketName, pt.stageName],
      ['pigmeat_prices:Piglet', 'Piglet', 'Piglet', '2020-03-23', '2020-04-30', '18.17', null, null]);
  });

  test('an oilseed without productType gets the portal\'s N.A.; GR is folded to EL; a BOM is ignored', () => {
    const text = '\uFEFF[{"memberStateCode":"GR","beginDate":"05/01/2026","price":"€400.00","product":"Cotton seed","unit":"t"}]';
    const [record] = parseAgrifoodJson(text, 'x.json').records;
    assert.deepEqual([record.commodityId, record.memberStateCode, record.memberStateName], ['oilseeds_prices:Cotton seed|N.A.', 'EL', 'Greece']);
  });
});

describe('malformed files are rejected with file, row and problem', () => {
  const rejects = (text: string, dataset: Parameters<typeof parseAgrifoodJson>[2], pattern: RegExp) => {
    assert.throws(() => parseAgrifoodJson(text, '/some/dir/prices.json', dataset), (error: unknown) => {
      assert.ok(error instanceof MalformedSourceError);
      assert.match(error.message, pattern);
      return true;
    });
  };
  const good = { memberStateCode: 'DE', beginDate: '05/01/2026', price: '€150.00', pigClass: 'S', unit: '100KG' };
  test('each problem', () => {
    rejects('{"broken"', undefined, /^prices\.json: not valid JSON/);
    rejects('{"data": []}', undefined, /^prices\.json: expected a JSON array/);
    rejects('[]', undefined, /^prices\.json: the file holds no price records/);
    rejects('[{"memberStateCode":"DE","beginDate":"05/01/2026"}]', undefined, /^prices\.json, row 1: cannot tell the sector/);
    rejects(JSON.stringify([good, good, { ...good, beginDate: '2026-01-19' }]), undefined, /^prices\.json, row 3: beginDate "2026-01-19" is not a dd\/mm\/yyyy date/);
    rejects(JSON.stringify([good, { ...good, price: '€1x0' }]), undefined, /^prices\.json, row 2: price "€1x0" is not a price/);
    rejects(JSON.stringify([good, { ...good, memberStateCode: '' }]), undefined, /row 2: memberStateCode is missing/);
    rejects(JSON.stringify([good, 'text']), undefined, /row 2: a price record must be a JSON object/);
    rejects(JSON.stringify([good, { ...good, endDate: '01/01/2026' }]), undefined, /row 2: endDate 01\/01\/2026 is before beginDate/);
    rejects(JSON.stringify(oilseedsFixture()), 'cereals_prices', /row 1: productName is missing: not a cereals_prices record \(the fields are those of oilseeds_prices\)/);
  });

  test('a batch with one bad file writes nothing', async () => {
    const { dataDir, sourceDir } = await writeAgrifoodFixtureSnapshot();
    const before = await snapshotHashes(dataDir);
    const goodFile = await writeJson(sourceDir, 'e-pigmeat.json', pigmeatFixture().slice(0, 1));
    const badFile = await writeJson(sourceDir, 'f-bad.json', [good, { ...good, beginDate: '32/01/2026' }]);
    await assert.rejects(ingestAgrifoodFiles([goodFile, badFile], { dataDir }), (error: unknown) => {
      assert.ok(error instanceof IngestRejectedError);
      assert.equal(error.problems.length, 1);
      assert.match(error.message, /snapshot unchanged:\n {2}f-bad\.json, row 2: beginDate "32\/01\/2026" is not a calendar date/);
      return true;
    });
    assert.deepEqual(await snapshotHashes(dataDir), before);
  });
});

async function snapshotHashes(dataDir: string): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  for (const name of (await readdir(dataDir)).sort()) {
    hashes[name] = createHash('sha256').update(await readFile(path.join(dataDir, name))).digest('hex');
  }
  return hashes;
}

async function loaded(dataDir: string) {
  const db = await Database.open({ connections: 1 });
  await loadImports(db, dataDir);
  await loadAgrifood(db, dataDir);
  return db;
}

describe('versions and replacement', () => {
  test('re-ingesting the same bytes is a no-op', async () => {
    const { dataDir, sourceDir } = await writeAgrifoodFixtureSnapshot();
    const before = await snapshotHashes(dataDir);
    const result = await ingestAgrifoodFiles([path.join(sourceDir, 'd-pigmeat.json'), path.join(sourceDir, 'b-cereals.json')], { dataDir });
    assert.deepEqual([result.imported, result.skipped.length], [[], 2]);
    assert.deepEqual(await snapshotHashes(dataDir), before);
  });

  test('a new file of a dataset replaces its facts; the other datasets and every import record stay', async () => {
    const { dataDir, sourceDir } = await writeAgrifoodFixtureSnapshot();
    // Only Portugal's row: pigmeat goes from 3 rows to 1.
    const file = await writeJson(sourceDir, 'pigmeat-new.json', pigmeatFixture().slice(2));
    const result = await ingestAgrifoodFiles([file], { dataDir, dataset: 'pigmeat_prices', now: () => new Date('2026-11-21T00:00:00Z') });
    assert.deepEqual(result.current, { pigmeat_prices: 'pigmeat-new.json' });
    const db = await loaded(dataDir);
    try {
      const counts = await db.all('SELECT dataset, count(*)::INTEGER AS n FROM agri_prices GROUP BY dataset ORDER BY dataset');
      assert.deepEqual(counts, [{ dataset: 'cereals_prices', n: 16 }, { dataset: 'oilseeds_prices', n: 4 }, { dataset: 'pigmeat_prices', n: 1 }]);
      const records = await db.all("SELECT dataset, source_file, row_count FROM imports ORDER BY import_date");
      assert.deepEqual(records, [
        { dataset: 'cereals_prices', source_file: 'a-cereals-old.json', row_count: 1 },
        { dataset: 'cereals_prices', source_file: 'b-cereals.json', row_count: 16 },
        { dataset: 'oilseeds_prices', source_file: 'c-oilseeds.json', row_count: 4 },
        { dataset: 'pigmeat_prices', source_file: 'd-pigmeat.json', row_count: 3 },
        { dataset: 'pigmeat_prices', source_file: 'pigmeat-new.json', row_count: 1 },
      ]);
      const [hash] = await db.all("SELECT DISTINCT file_hash FROM agri_prices WHERE dataset = 'pigmeat_prices'");
      const [record] = await db.all("SELECT file_hash FROM imports WHERE source_file = 'pigmeat-new.json'");
      assert.equal(hash.file_hash, record.file_hash);
    } finally {
      await db.close();
    }
  });

  test('the contract table agri_prices has the agreed columns and types', async () => {
    const { dataDir } = await writeAgrifoodFixtureSnapshot();
    const db = await loaded(dataDir);
    try {
      const columns = await db.all("SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'agri_prices'");
      const types = Object.fromEntries(columns.map((c) => [c.column_name, c.data_type]));
      const agreed: Record<string, string> = {
        dataset: 'VARCHAR', commodity_id: 'VARCHAR', product_name: 'VARCHAR', product_type: 'VARCHAR', pig_class: 'VARCHAR',
        member_state_code: 'VARCHAR', member_state_name: 'VARCHAR', market_name: 'VARCHAR', stage_name: 'VARCHAR',
        begin_date: 'DATE', end_date: 'DATE', week_number: 'INTEGER', marketing_year: 'VARCHAR', unit: 'VARCHAR', price: 'DECIMAL(18,4)',
      };
      for (const [name, type] of Object.entries(agreed)) assert.equal(types[name], type, name);
      const [pig] = await db.all("SELECT product_name, pig_class, product_type FROM agri_prices WHERE dataset = 'pigmeat_prices' AND member_state_code = 'PT'");
      assert.deepEqual(pig, { product_name: 'E', pig_class: 'E', product_type: null });
    } finally {
      await db.close();
    }
  });
});

describe('npm run ingest -- agrifood', () => {
  const run = promisify(execFile);
  const cli = (args: string[]) =>
    run(process.execPath, [...scriptArgs('bin/ingest.ts'), 'agrifood', ...args], { cwd: process.cwd() }).then(
      ({ stderr }) => ({ code: 0, stderr }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
  // The first run as the child process npm starts; the others in this process (test/helpers/ingestCli.ts).
  const inProcess = (args: string[]) => ingestInProcess(['agrifood', ...args]);

  test('imports a folder (sector detected), rejects a malformed file with exit 1, a bad --dataset with exit 2', async () => {
    const root = await tempDirUntilExit('agrifood-cli-');
    const source = path.join(root, 'in');
    await mkdir(source);
    await writeJson(source, 'oilseeds.json', oilseedsFixture());
    await writeJson(source, 'pigmeat.json', pigmeatFixture());
    const dataDir = path.join(root, 'parquet');
    const first = await cli([source, '--data-dir', dataDir]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /oilseeds\.json: oilseeds_prices, 4 record\(s\)/);
    assert.match(first.stderr, /imported 2 file\(s\), 7 row\(s\)/);

    const bad = await writeJson(root, 'bad.json', [{ memberStateCode: 'DE', beginDate: '05/01/2026', price: 'abc', pigClass: 'S' }]);
    const rejected = await inProcess([bad, '--data-dir', dataDir]);
    assert.equal(rejected.code, 1);
    assert.match(rejected.stderr, /bad\.json, row 1: price "abc" is not a price/);

    const usage = await inProcess([bad, '--dataset', 'wine_prices', '--data-dir', dataDir]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--dataset must be one of cereals_prices, oilseeds_prices, pigmeat_prices/);
  });
});
