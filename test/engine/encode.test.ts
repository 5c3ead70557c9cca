// The tabular encoders: rows -> CSV (RFC 4180) and rows -> Arrow IPC stream.
// Expected texts are written out by hand from RFC 4180's rules: a field holding a comma, a double
// quote or a line break is enclosed in double quotes, and an inner quote is doubled; records end in CRLF.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { tableFromIPC } from 'apache-arrow';
import { parse } from 'csv-parse/sync';
import type { Row } from '../../engine/json.ts';
import { rowsToArrowStream } from '../../engine/encode/arrow.ts';
import { rowsToCsv } from '../../engine/encode/csv.ts';

describe('rowsToCsv', () => {
  test('header line from the keys, CRLF records, plain values unquoted', () => {
    const rows: Row[] = [
      { programme: 'НОИ - ДОО', payment_count: 54, total_amount: '180.00', rank: 1 },
      { programme: 'Столична община', payment_count: 6, total_amount: '-120.50', rank: 2 },
    ];
    assert.equal(
      rowsToCsv(rows),
      'programme,payment_count,total_amount,rank\r\n' +
        'НОИ - ДОО,54,180.00,1\r\n' +
        'Столична община,6,-120.50,2\r\n',
    );
  });

  test('commas and quotes are quoted, inner quotes doubled', () => {
    const csv = rowsToCsv([{ a: 'x,y', b: 'say "hi"', c: '"', d: 'plain' }]);
    assert.equal(csv, 'a,b,c,d\r\n"x,y","say ""hi""","""",plain\r\n');
  });

  test('nulls are empty cells; booleans are true/false; numbers as written', () => {
    const csv = rowsToCsv([{ a: null, b: true, c: false, d: 1.5, e: -3, f: 0 }]);
    assert.equal(csv, 'a,b,c,d,e,f\r\n,true,false,1.5,-3,0\r\n');
  });

  test('nested lists and objects are written as JSON text', () => {
    const accounts = [{ code: '50', description: 'Капиталови, основен ремонт', total_amount: '300.00', rank: 1 }];
    const csv = rowsToCsv([{ category_key: 'capital', accounts, extra: { z: null } }]);
    // JSON text contains quotes and a comma, so the cell is quoted and its quotes doubled.
    assert.equal(
      csv,
      'category_key,accounts,extra\r\n' +
        'capital,"[{""code"":""50"",""description"":""Капиталови, основен ремонт"",""total_amount"":""300.00"",""rank"":1}]","{""z"":null}"\r\n',
    );
    const [record] = parse(csv, { columns: true }) as Array<Record<string, string>>;
    assert.deepEqual(JSON.parse(record.accounts), accounts);
  });

  test('Cyrillic text is written as UTF-8 text, not escaped', () => {
    const csv = rowsToCsv([{ label: 'Понеделник', category: 'Заплати и възнаграждения' }]);
    assert.equal(csv, 'label,category\r\nПонеделник,Заплати и възнаграждения\r\n');
    assert.ok(Buffer.from(csv, 'utf8').includes(Buffer.from('Понеделник', 'utf8')));
  });

  test('the columns are the union of the rows\' keys in first-seen order; missing cells are empty', () => {
    assert.equal(rowsToCsv([{ a: 1 }, { b: 2 }, { a: 3, c: 'x' }]), 'a,b,c\r\n1,,\r\n,2,\r\n3,,x\r\n');
  });

  test('CRLF inside a value is quoted; csv-parse reads every value back', () => {
    const rows: Row[] = [
      { a: 'cr\r\nlf', b: ' padded ', c: '', d: 'x,"y"\r\nz' },
      { a: 'Издръжка', b: null, c: 'ъ', d: '5' },
    ];
    const csv = rowsToCsv(rows);
    assert.ok(csv.includes('"cr\r\nlf"'));
    assert.deepEqual(parse(csv, { columns: true }), [
      { a: 'cr\r\nlf', b: ' padded ', c: '', d: 'x,"y"\r\nz' },
      { a: 'Издръжка', b: '', c: 'ъ', d: '5' },
    ]);
  });

  test('a bare LF (or CR) inside a value is a line break and is quoted (RFC 4180 rule 6)', () => {
    // BUG (reported): csv-stringify with record_delimiter 'windows' only quotes fields holding
    // CRLF, so "line1\nline2" is written bare and line-oriented readers (Python's csv, Excel,
    // csv-parse with record_delimiter ['\r\n', '\n']) split the record in two.
    const csv = rowsToCsv([{ a: 'line1\nline2', b: 'x' }, { a: 'one\rtwo', b: 'y' }]);
    assert.equal(csv, 'a,b\r\n"line1\nline2",x\r\n"one\rtwo",y\r\n');
    assert.deepEqual(parse(csv, { columns: true, record_delimiter: ['\r\n', '\n', '\r'] }), [
      { a: 'line1\nline2', b: 'x' },
      { a: 'one\rtwo', b: 'y' },
    ]);
  });
});

describe('rowsToArrowStream', () => {
  const rows: Row[] = [
    { day: 7, label: '7-мо число', amount: '400.00', ratio: 1.5, paid: true, note: null, accounts: [{ code: '01' }] },
    { day: 31, label: '31-во число', amount: '-100.25', ratio: 2, paid: false, note: 'x', accounts: [] },
    { day: null, label: 'Неделя', amount: null, ratio: null, paid: null, note: null, accounts: null },
  ];

  test('types: integers Int64, decimal strings Utf8, other numbers Float64, booleans Bool, nested Utf8', () => {
    const table = tableFromIPC(rowsToArrowStream(rows));
    assert.deepEqual(table.schema.fields.map((f) => `${f.name}:${f.type}`), [
      'day:Int64', 'label:Utf8', 'amount:Utf8', 'ratio:Float64', 'paid:Bool', 'note:Utf8', 'accounts:Utf8',
    ]);
  });

  test('round trip with tableFromIPC: values and nulls', () => {
    const table = tableFromIPC(rowsToArrowStream(rows));
    assert.equal(table.numRows, 3);
    assert.deepEqual([...table.getChild('day')!], [7n, 31n, null]);
    assert.deepEqual([...table.getChild('label')!], ['7-мо число', '31-во число', 'Неделя']);
    assert.deepEqual([...table.getChild('amount')!], ['400.00', '-100.25', null]);
    assert.deepEqual([...table.getChild('ratio')!], [1.5, 2, null]);
    assert.deepEqual([...table.getChild('paid')!], [true, false, null]);
    assert.deepEqual([...table.getChild('note')!], [null, 'x', null]);
    assert.deepEqual([...table.getChild('accounts')!], ['[{"code":"01"}]', '[]', null]);
  });

  test('Int64 holds negative and large safe integers exactly', () => {
    const table = tableFromIPC(rowsToArrowStream([{ n: 9007199254740991 }, { n: -9007199254740991 }, { n: 0 }]));
    assert.equal(String(table.schema.fields[0].type), 'Int64');
    assert.deepEqual([...table.getChild('n')!], [9007199254740991n, -9007199254740991n, 0n]);
  });

  test('rows with different keys: missing cells are null', () => {
    const table = tableFromIPC(rowsToArrowStream([{ a: 1 }, { b: 'x' }]));
    assert.deepEqual(table.schema.fields.map((f) => f.name), ['a', 'b']);
    assert.deepEqual([...table.getChild('a')!], [1n, null]);
    assert.deepEqual([...table.getChild('b')!], [null, 'x']);
  });

  test('no rows: a valid, empty stream', () => {
    const table = tableFromIPC(rowsToArrowStream([]));
    assert.equal(table.numRows, 0);
  });
});

describe('rowsToCsv: formula injection (OWASP)', () => {
  test('text cells beginning with = + - @ tab or CR get a leading single quote; numbers stay numbers', () => {
    const rows: Row[] = [
      { text: '=HYPERLINK("http://evil.example","click")', count: -5, amount: '-120.50' },
      { text: '+1+cmd', count: 0, amount: '+3' },
      { text: '-2-x', count: 2.5, amount: '-0.5e3' },
      { text: '@SUM(A1)', count: -0.25, amount: '7' },
      { text: '\tpadded', count: 1, amount: '.5' },
      { text: '\rreturn', count: 1, amount: '-' },
      { text: 'a=b, safe', count: 1, amount: '- 5' },
    ];
    const csv = rowsToCsv(rows);
    const records = parse(csv, { columns: true }) as Array<Record<string, string>>;
    assert.deepEqual(records.map((record) => record.text), [
      `'=HYPERLINK("http://evil.example","click")`, "'+1+cmd", "'-2-x", "'@SUM(A1)", "'\tpadded", "'\rreturn", 'a=b, safe',
    ]);
    assert.deepEqual(records.map((record) => record.count), ['-5', '0', '2.5', '-0.25', '1', '1', '1']);
    // Decimal text (money) stays as written; text that only starts like a number does not.
    assert.deepEqual(records.map((record) => record.amount), ['-120.50', '+3', '-0.5e3', '7', '.5', "'-", "'- 5"]);
    assert.ok(csv.startsWith('text,count,amount\r\n"\'=HYPERLINK(""http://evil.example"",""click"")",-5,-120.50\r\n'), csv);
  });

  test('a header taken from data is neutralised too', () => {
    assert.equal(rowsToCsv([{ '=1+1': 'x', '-2024': 1 }]), "'=1+1,-2024\r\nx,1\r\n");
  });
});
