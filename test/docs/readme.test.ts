// The README and the docs pages may only name files that exist and routes that the catalog serves:
// a moved file or a renamed route fails here instead of misleading a reader.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { routes } from '../../domains/index.ts';
import { CLIENT_EXAMPLE_PATH, FREE_PATHS } from '../../http/docs/content.ts';
import { projectRoot } from '../helpers/cli.ts';

const documents = ['README.md', 'data/sources.md', ...readdirSync(path.join(projectRoot, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** Top-level folders of the project: a backticked path starting with one of them names a project file. */
const PROJECT_FOLDERS = ['bin', 'bench', 'data', 'devchain', 'docs', 'domains', 'engine', 'http', 'ingest', 'queries', 'reference', 'test', '.ci'];

/** Folders the project generates (git-ignored): their files need not exist in a checkout. */
const GENERATED = readFileSync(path.join(projectRoot, '.gitignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line.endsWith('/') && !line.includes('*'))
  .map((line) => line.replace(/^\//, ''));

function codeSpans(text: string): string[] {
  return [...text.matchAll(/`([^`\n]+)`/g)].map((match) => match[1].trim());
}

/** A span that names a concrete project path (no placeholders, no globs). */
function projectPath(span: string): string | null {
  const candidate = span.split(/\s/)[0].replace(/(?<![),.:;])[),.:;]+$/, '');
  if (/[<>{}*$]|\.\.\./.test(candidate)) return null;
  const [first] = candidate.split('/');
  if (!candidate.includes('/') || !PROJECT_FOLDERS.includes(first)) return null;
  if (GENERATED.some((folder) => `${candidate}/`.startsWith(folder))) return null;
  return candidate;
}

const templates = routes.flatMap((route) => route.paths);
const matchers = templates.map((template) => new RegExp(`^${template.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^{}]+\}/g, '[^/]+')}$`));
const FREE = new Set(FREE_PATHS.flatMap((free) => [free.path, ...(free.aliases ?? [])]));

/** A span that names an API path: `/api/...` with a concrete or templated path (query string ignored). */
function apiPath(span: string): string | null {
  const candidate = span.replace(/^(GET|POST|HEAD)\s+/, '').split(/[?\s]/)[0];
  if (!candidate.startsWith('/api') || candidate.includes('...')) return null;
  return candidate;
}

for (const document of documents) {
  const text = readFileSync(path.join(projectRoot, document), 'utf8');

  test(`${document} names only files that exist`, () => {
    const missing = codeSpans(text).map(projectPath).filter((file): file is string => file !== null && !existsSync(path.join(projectRoot, file)));
    assert.deepEqual([...new Set(missing)], [], `${document} names files that do not exist`);
  });

  test(`${document} names only routes of the catalog (or the free documentation paths)`, () => {
    const unknown = codeSpans(text)
      .map(apiPath)
      .filter((api): api is string => api !== null && !FREE.has(api) && !templates.includes(api) && !matchers.some((matcher) => matcher.test(api)));
    assert.deepEqual([...new Set(unknown)], [], `${document} names routes the catalog does not serve`);
  });
}

test('the checks catch what they are for', () => {
  assert.equal(projectPath('queries/ptp/places.ts'), 'queries/ptp/places.ts');
  assert.equal(existsSync(path.join(projectRoot, 'queries/ptp/places.ts')), false);
  assert.equal(projectPath('data/sample/<source>/'), null);
  assert.equal(projectPath('data/parquet/sebra_payments.parquet'), null);
  assert.equal(apiPath('GET /api/sebra/getTaxonomyForYear/2025?currency=EUR'), '/api/sebra/getTaxonomyForYear/2025');
  assert.ok(matchers.some((matcher) => matcher.test('/api/sebra/getTaxonomyForYear/2025')));
  assert.ok(!matchers.some((matcher) => matcher.test('/api/sebra/getTaxonomyForYears')));
  // The client snippet of the HTML and Markdown docs calls a real route.
  assert.ok(matchers.some((matcher) => matcher.test(CLIENT_EXAMPLE_PATH)));
});
