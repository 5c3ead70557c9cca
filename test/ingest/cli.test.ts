import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readImportRecords } from '../../domains/sebra/ingest/snapshot.ts';
import { countLayoutRows, currentLayoutRows, tempDir, writeJson, writeXlsx } from './fixtures.ts';
import { runCli } from '../helpers/cli.ts';
import { ingestInProcess } from '../helpers/ingestCli.ts';

// One child process (npm's way), the malformed input: its exit code 1 is the process's. The other
// runs are the same command in this process (test/helpers/ingestCli.ts), DATA_DIR set in its environment.
const ingestCli = (args: string[], env: Record<string, string> = {}) => runCli('bin/ingest.ts', args, env);

test('usage errors exit 2', async () => {
  const unknown = await ingestInProcess(['nosuchsource', 'x']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown source "nosuchsource"/);
  const missing = await ingestInProcess(['sebra']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /missing <file-or-folder>/);
  const absent = await ingestInProcess(['sebra', '/nonexistent/sebra']);
  assert.equal(absent.code, 2);
  assert.match(absent.stderr, /no such file or folder/);
});

test('a folder is imported, then skipped; malformed input exits 1 and names the problem', async () => {
  const sources = await tempDir();
  const dataDir = join(await tempDir(), 'parquet');
  await writeXlsx(join(sources, 'SEBRA-15032024.xlsx'), currentLayoutRows());
  await writeXlsx(join(sources, 'SEBRA-03022026.xlsx'), countLayoutRows());
  const first = await ingestInProcess(['sebra', sources], { DATA_DIR: dataDir });
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stderr, /imported 2 file\(s\), 7 row\(s\); skipped 0 already imported/);
  const second = await ingestInProcess(['sebra', sources, '--data-dir', dataDir]);
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stderr, /imported 0 file\(s\), 0 row\(s\); skipped 2 already imported/);

  const tree = await writeJson(join(await tempDir(), 'report.json'), { name: 'x', children: [{ name: 'НЗОК', children: [{ name: 'Издръжка', count: 1, amount: 2 }] }] });
  const noDate = await ingestCli(['sebra', tree, '--data-dir', dataDir]);
  assert.equal(noDate.code, 1);
  assert.ok(noDate.stderr.includes(`${tree}: no payment date: pass --date`), noDate.stderr);
  const withDate = await ingestInProcess(['sebra', tree, '--date', '2012-07-10', '--source-url', 'https://example.org/report1.json', '--data-dir', dataDir]);
  assert.equal(withDate.code, 0, withDate.stderr);
  const records = await readImportRecords(dataDir);
  assert.equal(records.at(-1)?.sourceUrl, 'https://example.org/report1.json');
  const badDate = await ingestInProcess(['sebra', tree, '--date', '10.07.2012', '--data-dir', dataDir]);
  assert.equal(badDate.code, 2);
});
