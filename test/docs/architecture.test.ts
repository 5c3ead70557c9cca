// docs/architecture.md lists every held view and every cache: a view declared through engine/held.ts,
// a held slot, a class that keeps answers or bytes, or a module-level Map/Set that code adds to, which
// the page does not name, fails here (issue 32: a page a newcomer can trust).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import '../../domains/index.ts';
import { heldViews } from '../../engine/held.ts';

const root = path.resolve(import.meta.dirname, '../..');
const page = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
const SOURCE_DIRS = ['engine', 'http', 'queries', 'domains', 'ingest', 'bin'];

function sourceFiles(): string[] {
  return SOURCE_DIRS.flatMap((dir) => readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => path.posix.join(dir, name.split(path.sep).join('/'))));
}

/** The page's lines that name `file` (in backticks), joined: where a cache of that file must be named. */
function linesNaming(file: string): string {
  return page.split('\n').filter((line) => line.includes('`' + file)).join('\n');
}

test('every declared held view is listed on the page', () => {
  const names = [...heldViews().keys()];
  assert.ok(names.length >= 20, `the domains declare their views on import (found ${names.length})`);
  const missing = names.filter((name) => !page.includes('`' + name + '`'));
  assert.deepEqual(missing, [], 'held views missing from docs/architecture.md');
});

test('every held slot, cache class and growing module-level map is listed on the page with its file', () => {
  const missing: string[] = [];
  for (const file of sourceFiles()) {
    const text = readFileSync(path.join(root, file), 'utf8');
    const named: string[] = [];
    for (const match of text.matchAll(/heldSlot\(\s*'([^']+)'/g)) if (file !== 'engine/held.ts') named.push(match[1]!);
    for (const match of text.matchAll(/^export class (\w*(?:Cache|Store|Answers|Bound|Memo))\b/gm)) named.push(match[1]!);
    for (const match of text.matchAll(/^(?:export )?const (\w+) = new (?:Map|WeakMap|Set|WeakSet)\b/gm)) {
      const name = match[1]!;
      // A constant table is filled where it is declared; a cache is added to later.
      if (new RegExp(`\\b${name}\\.(?:set|add)\\(`).test(text) || new RegExp(`memoised\\(${name}\\b`).test(text)) named.push(name);
    }
    if (named.length === 0) continue;
    const lines = linesNaming(file);
    for (const name of named) if (!lines.includes(name)) missing.push(`${file}: ${name}`);
  }
  assert.deepEqual(missing, [], 'caches missing from docs/architecture.md (name them on a line with their file)');
});

test('the page names only files that exist', () => {
  const files = [...page.matchAll(/`((?:engine|http|queries|domains|ingest|bin|bench|test)\/[\w./-]+\.ts)`/g)].map((match) => match[1]!);
  assert.ok(files.length > 10);
  const absent = files.filter((file) => !sourceFiles().includes(file) && !readdirSafe(file));
  assert.deepEqual(absent, []);
});

function readdirSafe(file: string): boolean {
  try {
    readFileSync(path.join(root, file));
    return true;
  } catch {
    return false;
  }
}
