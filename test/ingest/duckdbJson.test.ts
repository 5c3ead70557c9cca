// The shared JSON reading (ingest/duckdbJson.ts): the streaming reader agrees with JSON.parse on every
// text (elements, values, which texts are refused), across read chunks; the SQL text helpers agree with
// the JavaScript they stand for; NOT_PLAINLY_TEXT leaves unflagged only what DuckDB prints as JavaScript
// would; readNewFiles skips known and repeated files as parseNewFiles does.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Database } from '../../engine/database.ts';
import { sqlStringLiteral } from '../../engine/parquet.ts';
import {
  firstJsonArrayElement, jsonArraySource, jsonFileCheck, JsonSyntaxError, NOT_PLAINLY_TEXT, NOT_TIDY, readNewJsonFiles, runJsonRead, sqlFieldList,
  sqlJsTrimCollapse, streamJsonArray,
} from '../../ingest/duckdbJson.ts';
import { sha256OfFile } from '../../ingest/commit.ts';
import { IngestRejectedError, MalformedSourceError } from '../../ingest/errors.ts';
import { tempDirUntilExit } from '../helpers/tmp.ts';

async function tempFile(name: string, content: string | Buffer): Promise<string> {
  const dir = await tempDirUntilExit('duckdb-json-');
  const file = path.join(dir, name);
  await writeFile(file, content);
  return file;
}

async function streamed(file: string): Promise<{ elements: unknown[]; result: unknown } | { error: string }> {
  const elements: unknown[] = [];
  try {
    const result = await streamJsonArray(file, (value, ordinal) => {
      assert.equal(ordinal, elements.length + 1);
      elements.push(value);
    });
    return { elements, result };
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { error: error.message };
    throw error;
  }
}

/** What streamJsonArray must give for a text: JSON.parse's elements, its value, or an error exactly when JSON.parse fails. */
function expectedOf(text: string): { elements: unknown[]; result: unknown } | { error: true } {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return { error: true };
  }
  return Array.isArray(value) ? { elements: value, result: { kind: 'array', elements: value.length } } : { elements: [], result: { kind: 'value', value } };
}

describe('streamJsonArray', () => {
  const texts = [
    '[]', ' [ ] ', '\uFEFF[1]', '[1,2,3]', '[ 1 , -2.5e3 ,true,false,null ]', '["a","b\\"]c","[{,}]","\\\\"]',
    '[{"a":[1,{"b":"}"}]},{"c":"\\u00e9"},[],{}]', '[[1,[2,[3]]]]', '{"data":[1]}', '"text"', '42', 'null', '  [ "x" ]  \n',
    '', '[', '[1', '[1,]', '[,1]', '[1 2]', '[1]x', '[1] [2]', '{"a":1', '[{"a":1}', '[{"a":}]', '["unterminated]', '[01]', '[NaN]',
    '[Infinity]', '[tru]', '[1,,2]', '[{"a" 1}]', '[[1,2}]', '["a"b]', '["\\x"]', '[1]]', 'x', '[-]', '[1.]', '[.5]', '["tab\tin"]',
  ];
  for (const text of texts) {
    test(`${JSON.stringify(text)} reads as JSON.parse reads it`, async () => {
      const actual = await streamed(await tempFile('t.json', text));
      const expected = expectedOf(text);
      if ('error' in expected) assert.ok('error' in actual, `JSON.parse refuses ${JSON.stringify(text)}; the stream gave ${JSON.stringify(actual)}`);
      else assert.deepEqual(actual, expected);
    });
  }

  test('elements that straddle read chunks (long strings, escapes, multi-byte characters) and bytes that are not UTF-8', async () => {
    const piece = 'é€𝄞 "quoted" \\ back [{}], ';
    const elements = Array.from({ length: 40 }, (_, i) => ({ i, text: piece.repeat(200 + i * 37), nested: [i, { deep: piece.slice(0, i % 20) }] }));
    const text = JSON.stringify(elements, null, 3);
    const actual = await streamed(await tempFile('big.json', text));
    assert.deepEqual(actual, expectedOf(text));
    // An invalid byte reads as U+FFFD, as readFile(..., 'utf8') would give it to JSON.parse.
    const bytes = Buffer.concat([Buffer.from('["a'), Buffer.from([0xff]), Buffer.from('b"]')]);
    assert.deepEqual(await streamed(await tempFile('bad-utf8.json', bytes)), { elements: ['a\uFFFDb'], result: { kind: 'array', elements: 1 } });
  });

  /** With member 'data': the elements of a top-level array, or of a top-level object's "data" array (the rest parsed with it as []), else the value. */
  function expectedWithMember(text: string): { elements: unknown[]; result: unknown } | { error: true } {
    const plain = expectedOf(text);
    if ('error' in plain) return plain;
    const { value } = plain.result as { value?: unknown };
    if (value === null || typeof value !== 'object' || !Array.isArray((value as { data?: unknown }).data)) return plain;
    const data = (value as { data: unknown[] }).data;
    return { elements: data, result: { kind: 'member', elements: data.length, value: { ...value, data: [] }, occurrences: 1 } };
  }

  async function streamedMember(file: string): Promise<{ elements: unknown[]; result: unknown } | { error: string }> {
    const elements: unknown[] = [];
    try {
      const result = await streamJsonArray(file, (value) => void elements.push(value), { member: 'data' });
      return { elements, result };
    } catch (error) {
      if (error instanceof JsonSyntaxError) return { error: error.message };
      throw error;
    }
  }

  const memberTexts = [
    ...texts,
    '{"success":true,"data":[["h1","h2"],["a","b"]]}', ' { "data" : [ ] , "success" : true } ', '\uFEFF{"data":[1,2]}', '{"d\\u0061ta":[1]}',
    '{"meta":{"data":[9]},"data":[{"x":"]"}]}', '{"list":["data",":"],"data":[]}', '{"data":{"rows":[1]}}', '{"data":"[1]"}', '{"other":[1]}',
    '{}', '{"data":[1],}', '{"data":[1]', '{"data":[1]]}', '{"data":[1,]}', '{"data" [1]}', '{"data":[1]} x', '{"a" "data":[1]}', '{"data":[1}',
    '{"success":false,"errors":["no such resource"]}',
  ];
  for (const text of memberTexts) {
    test(`with member "data": ${JSON.stringify(text)} reads as JSON.parse reads it`, async () => {
      const actual = await streamedMember(await tempFile('m.json', text));
      const expected = expectedWithMember(text);
      if ('error' in expected) assert.ok('error' in actual, `JSON.parse refuses ${JSON.stringify(text)}; the stream gave ${JSON.stringify(actual)}`);
      else assert.deepEqual(actual, expected);
    });
  }

  test('with member "data": the object read across chunk boundaries, wherever they fall, and a repeated member', async () => {
    const rows = Array.from({ length: 50 }, (_, i) => [`${i}`, 'é€ "q" \\ ]}', String(i * 7)]);
    const tail = `,"data":${JSON.stringify(rows)},"success":true}`;
    // The first read is 64 KiB: the boundary falls in turn inside "data", before and after its colon, at its '[', and in the first row.
    for (let shift = -12; shift <= 12; shift++) {
      const head = '{"pad":"';
      const text = `${head}${'x'.repeat(65_536 - head.length - 2 + shift)}"${tail}`;
      assert.deepEqual(await streamedMember(await tempFile('shifted.json', text)), expectedWithMember(text), `shift ${shift}`);
    }
    // JSON.parse keeps the last of a repeated key: the first array's elements are handed out, the later one stays in the value.
    assert.deepEqual(await streamedMember(await tempFile('twice.json', '{"data":[1,2],"data":[3]}')), {
      elements: [1, 2], result: { kind: 'member', elements: 2, value: { data: [3] }, occurrences: 2 },
    });
  });

  test('firstJsonArrayElement: the first element from the first bytes, or null', async () => {
    assert.deepEqual(await firstJsonArrayElement(await tempFile('a.json', '[{"a":1},{"b":2}')), { value: { a: 1 } });
    assert.equal(await firstJsonArrayElement(await tempFile('b.json', '[]')), null);
    assert.equal(await firstJsonArrayElement(await tempFile('c.json', '{"a":1}')), null);
    assert.equal(await firstJsonArrayElement(await tempFile('d.json', '[{"a":}]')), null);
  });
});

describe('SQL helpers', () => {
  test('sqlJsTrimCollapse and NOT_TIDY agree with JavaScript\'s trim().replace(/\\s+/g, " ")', async () => {
    const db = await Database.open({ connections: 1 });
    try {
      const samples = [
        'plain', 'two words', ' lead', 'trail ', '  both  ', 'in  side', 'tab\there', 'new\nline', '\u00a0nbsp\u00a0', 'thin\u202fspace',
        'ideo\u3000graphic', 'line\u2028sep', 'bom\ufeff', 'vt\u000bff\u000c', '', '   ', 'é ü', 'nel\u0085kept', 'zwsp\u200bkept', 'ogham\u1680x',
      ];
      for (const text of samples) {
        const [row] = await db.all(`SELECT ${sqlJsTrimCollapse('$text')} AS tidy, regexp_matches(${sqlFieldList(['$text'])}, '${NOT_TIDY}') AS untidy`, { text });
        const js = text.trim().replace(/\s+/g, ' ');
        assert.equal(row!.tidy, js === '' ? null : js, JSON.stringify(text));
        assert.equal(row!.untidy, js !== text, JSON.stringify(text));
      }
    } finally {
      await db.close();
    }
  });

  test('a VARCHAR-read value NOT_PLAINLY_TEXT leaves unflagged is a string, or a number JavaScript prints the same', async () => {
    // Written as text so that the numbers keep the forms a source may use (20.0, 1e3, 1.50).
    const literals = [
      '"text"', '"20"', '"1.5"', '"true"', '"{x}"', '"[x]"', '"NaN"', '""', '0', '-0', '7', '-12', '123456789012345', '1234567890123456',
      '12345678901234567890', '1.5', '1.50', '20.0', '1e3', '2.5E-7', '-0.0', 'true', 'false', '{"k":1}', '[1,"x"]', '[]', '{}',
    ];
    const file = await tempFile('values.json', `[${literals.map((literal) => `{"v":${literal}}`).join(',')}]`);
    const db = await Database.open({ connections: 1 });
    try {
      const rows = await db.all(`SELECT ordinal, v, regexp_matches(${sqlFieldList(['v'])}, '${NOT_PLAINLY_TEXT}') AS flagged FROM ${jsonArraySource(file, ['v'], 'VARCHAR')} ORDER BY ordinal`);
      assert.equal(rows.length, literals.length);
      const flagged: string[] = [];
      for (const row of rows) {
        const literal = literals[Number(row.ordinal) - 1]!;
        const value: unknown = JSON.parse(literal);
        if (row.flagged) {
          flagged.push(literal);
          continue;
        }
        assert.ok(typeof value === 'string' || typeof value === 'number', `${literal} is not flagged`);
        assert.equal(row.v, String(value), `${literal} prints as ${String(row.v)}`);
      }
      for (const literal of ['true', 'false', '{"k":1}', '[1,"x"]', '[]', '{}', '20.0', '1e3', '12345678901234567890', '"true"', '"NaN"']) {
        assert.ok(flagged.includes(literal), `${literal} is flagged`);
      }
    } finally {
      await db.close();
    }
  });

  test('runJsonRead returns DuckDB\'s refusal of a file that is not an array of objects, and file paths are quoted', async () => {
    const db = await Database.open({ connections: 1 });
    try {
      const odd = await tempFile("it's.json", '[{"a":"x"},"text"]');
      const refused = await runJsonRead(db, `CREATE TABLE t AS SELECT * FROM ${jsonArraySource(odd, ['a'], 'VARCHAR')}`);
      assert.match(refused ?? '', /Expected OBJECT/);
      const good = await tempFile("it's.json", '[{"a":"x","b":1},{"b":null},{}]');
      assert.equal(await runJsonRead(db, `CREATE TABLE t AS SELECT * FROM ${jsonArraySource(good, ['a', 'b'], 'JSON')}`), null);
      assert.deepEqual(await db.all('SELECT ordinal, a, CAST(b AS VARCHAR) AS b FROM t ORDER BY ordinal'), [
        { ordinal: 1, a: '"x"', b: '1' }, { ordinal: 2, a: null, b: null }, { ordinal: 3, a: null, b: null },
      ]);
      assert.equal(sqlStringLiteral(good).includes("it''s"), true);
    } finally {
      await db.close();
    }
  });
});

describe('jsonFileCheck', () => {
  // Texts DuckDB's reader may take: read by DuckDB and judged strict must mean JSON.parse takes them too.
  const texts = [
    '[]', '[{"a":1}]', '[{"a":1},', '[{"a":1}, ', '[{"a":1,}]', '[{"a":[1,]}]', '[{"a":{"b":1,}}]', ' ', '[', '[{"a":NaN}]', '[{"a":nan}]',
    '[{"a":-Infinity}]', '[{"a":inf}]', '[{"a":1e5,"b":2E-3,"c":-0.5e+2}]', '[{"a":"NaN, } ] ,]"}]', '[{"a":"\\\\"},{"b":"\\""}]',
    '[{"a":true,"b":false,"c":null}]', '[{"a":tru}]', '[{"a":nulls}]', '[{"a":1.E5}]', '\uFEFF[{"a":1}]', '[{"a":1}]\n', '[{"a":1}]x',
    '{"a":1}', '[{"a":"x"}]]', '[{"a":"unterminated}]', '{"success":true,"data":[["a","b"]],"children":null}', '{"a":{"b":1},"c\\u0064":2}',
    '{"a":1,}', '{"a":1}x', '{"a":[1,2]', '{"q\\"k":"v:","k2" : 3}', '{}', '{"data":[["x"],]}',
  ];
  for (const text of texts) {
    test(`${JSON.stringify(text)}`, async () => {
      const file = await tempFile('c.json', text);
      const check = await jsonFileCheck(file);
      assert.equal(check.hash, await sha256OfFile(file));
      let parses = true;
      try {
        JSON.parse(text.replace(/^\uFEFF/, ''));
      } catch {
        parses = false;
      }
      const db = await Database.open({ connections: 1 });
      const refused = await runJsonRead(db, `CREATE TABLE t AS SELECT * FROM ${jsonArraySource(file, ['a'], 'VARCHAR')}`);
      await db.close();
      if (check.strict && refused === null) assert.ok(parses, 'DuckDB read it, judged strict, but JSON.parse refuses it');
      const trimmed = text.replace(/^\uFEFF/, '').trim();
      if (parses && /^[[{]/.test(trimmed)) assert.ok(check.strict, 'a valid JSON array or object judged not strict');
      const value: unknown = parses ? JSON.parse(text.replace(/^\uFEFF/, '')) : null;
      if (parses) assert.deepEqual(check.topKeys, value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : []);
    });
  }

  test('strings with quotes and backslashes across read chunks', async () => {
    const value = Array.from({ length: 30000 }, (_, n) => ({ s: `${'\\'.repeat(n % 5)}"${n % 7 === 0 ? 'NaN,]' : 'x'}` }));
    const file = await tempFile('long.json', JSON.stringify(value));
    assert.equal((await jsonFileCheck(file)).strict, true);
    const cut = await tempFile('cut.json', `${JSON.stringify(value).slice(0, -1)},`);
    assert.equal((await jsonFileCheck(cut)).strict, false);
  });
});

describe('readNewJsonFiles', () => {
  test('skips known and repeated files, reads the others (hashing alongside or before), collects problems', async () => {
    const a = await tempFile('a.json', '[1]');
    const b = await tempFile('b.json', '[2]');
    const aCopy = await tempFile('a-copy.json', '[1]');
    const bad = await tempFile('bad.json', '[3]');
    for (const known of [new Set<string>(), new Set(['0'.repeat(64)])]) {
      const read: string[] = [];
      const discarded: string[] = [];
      const result = await readNewJsonFiles<string>(
        [a, b, aCopy],
        known,
        async (file, accepted) => {
          read.push(path.basename(file));
          return `${path.basename(file)} after ${accepted.length}`;
        },
        async (value) => void discarded.push(value),
      );
      assert.deepEqual(result.parsed.map((p) => p.parsed), ['a.json after 0', 'b.json after 1']);
      assert.deepEqual(result.skipped, [aCopy]);
      // Hashing alongside reads the repeat and discards it; hashing first never reads it.
      assert.deepEqual(discarded, known.size === 0 ? ['a-copy.json after 2'] : []);
    }
    await assert.rejects(
      readNewJsonFiles<string>([a, bad, b], new Set(), async (file) => {
        if (file === bad) throw new MalformedSourceError('bad.json', 1, 'no');
        return file;
      }, async () => undefined),
      (error: unknown) => error instanceof IngestRejectedError && error.problems.length === 1,
    );
  });
});
