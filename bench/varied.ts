// Route families over varied parameters: the catalog examples are a handful of fixed requests per
// route, and a route can meet its target on them and miss it on the windows, codes and limits users
// send. A seeded draw (ingest/random.ts, a fixed seed) makes `perFamily` requests per route ("family")
// from the route's own examples: each keeps an example's path form and parameter names (so its
// cross-field rules hold) and redraws the values:
//   - dates and years of a window parameter (a value in a date form: 2025, 03-2026, 15-01-2026,
//     2026-03, 2026-01-31), in the same form, between the first and last year the examples of the
//     route's tag name and not after the bench's today, a pair (from/to, date_from/date_to,
//     period_from/period_to) put in order;
//   - limit, offset and lookback_days: an integer within the parameter's schema bounds (at most 100 values from its minimum);
//   - geos, registries, reporters and partners: one the examples of the route's tag give that
//     parameter, a comma list as a subset of their elements (two at least when the example had two);
//   - any other value (datasets, series, countries, codes, names): one the route's own examples give,
//     kept as the example has it when the example has family keys tied to it (dim.<key>).
// The values come from the examples, which answer 200 on the sample: codes and years that exist in
// the generated sample at every scale (a tier adds rows, markets or older history; it removes none).
// Family keys (dim.<key>) and bare flags (?days) are kept as the example has them; a POST route (a
// body, no parameters) is not drawn. A draw the route's validator refuses (a code of another route of the tag, a
// window its checks refuse) is drawn again, up to DRAW_ATTEMPTS times, then the example itself is
// sent: the measure times answers, not 400s. A drawn request may find nothing (404 not_found).
import { buildValidator } from '../http/validate.ts';
import { Random } from '../ingest/random.ts';
import type { Route } from '../queries/catalog.ts';
import { matchPathForm, rawQuery } from './examples.ts';
import { percentile } from './stats.ts';

/** The draw's seed: the issue that asked for it (32). */
export const VARIED_SEED = 32;

/** Integers drawn within the schema's bounds rather than from the examples. */
const RANGED = new Set(['limit', 'offset', 'lookback_days']);
/** At most this many values from a ranged parameter's minimum up (a limit of 100 rows is already a large page). */
const RANGE_SPAN = 100;
/** The parameters that take a date or a year (a code such as commodity=1001 looks like a year too). */
const WINDOW_PARAMS = new Set(['year', 'from', 'to', 'date_from', 'date_to', 'period_from', 'period_to', 'period', 'date']);
/**
 * Geos and registries every route of a tag reads from one table (Eurostat geos, ETS registries,
 * customs reporters and partners): drawn from the whole tag's examples. Any other code (a
 * series, a dataset, a country of the OECD beside one of the World Bank) only from the route's own.
 */
const TAG_WIDE = new Set(['geo', 'geos', 'registry', 'reporter', 'partner', 'countries']);
/** Pairs of window bounds: the second is put at or after the first. */
const WINDOW_PAIRS: ReadonlyArray<readonly [string, string]> = [['from', 'to'], ['date_from', 'date_to'], ['period_from', 'period_to']];

type DateForm = 'YYYY' | 'MM-YYYY' | 'DD-MM-YYYY' | 'YYYY-MM' | 'YYYY-MM-DD';
const DATE_FORMS: ReadonlyArray<readonly [DateForm, RegExp]> = [
  ['YYYY', /^(\d{4})$/],
  ['MM-YYYY', /^(0[1-9]|1[0-2])-(\d{4})$/],
  ['DD-MM-YYYY', /^(0[1-9]|[12]\d|3[01])-(0[1-9]|1[0-2])-(\d{4})$/],
  ['YYYY-MM', /^(\d{4})-(0[1-9]|1[0-2])$/],
  ['YYYY-MM-DD', /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/],
];

function dateFormOf(value: string): DateForm | null {
  for (const [form, pattern] of DATE_FORMS) if (pattern.test(value)) return form;
  return null;
}

/** The year a date-form value names. */
function yearOf(value: string): number {
  return Number(/\d{4}/.exec(value)![0]);
}

/** A value's first day as YYYY-MM-DD, to order a window's bounds. */
function firstDay(value: string, form: DateForm): string {
  const parts = value.split('-');
  switch (form) {
    case 'YYYY': return `${value}-01-01`;
    case 'MM-YYYY': return `${parts[1]}-${parts[0]}-01`;
    case 'DD-MM-YYYY': return `${parts[2]}-${parts[1]}-${parts[0]}`;
    case 'YYYY-MM': return `${value}-01`;
    case 'YYYY-MM-DD': return value;
  }
}

const two = (n: number) => String(n).padStart(2, '0');

/** A date in `form` between the first day of the first year and `today` (a window after today is refused). */
function drawDate(random: Random, form: DateForm, years: readonly [number, number], today: string): string {
  const last = Math.min(years[1], Number(today.slice(0, 4)));
  const first = Math.min(years[0], last);
  for (;;) {
    const value = dateIn(random, form, first, last);
    if (firstDay(value, form) <= today) return value;
  }
}

function dateIn(random: Random, form: DateForm, firstYear: number, lastYear: number): string {
  const year = firstYear + Math.floor(random.next() * (lastYear - firstYear + 1));
  const month = two(1 + Math.floor(random.next() * 12));
  const day = two(1 + Math.floor(random.next() * 28));
  switch (form) {
    case 'YYYY': return String(year);
    case 'MM-YYYY': return `${month}-${year}`;
    case 'DD-MM-YYYY': return `${day}-${month}-${year}`;
    case 'YYYY-MM': return `${year}-${month}`;
    case 'YYYY-MM-DD': return `${year}-${month}-${day}`;
  }
}

function pick<T>(random: Random, values: readonly T[]): T {
  return values[Math.floor(random.next() * values.length)]!;
}

/** What the examples of one tag give each parameter: whole values, comma-list elements, and their years. */
interface TagPool {
  values: Map<string, string[]>;
  /** Per route id, per parameter: the route's own examples' values. */
  own: Map<string, Map<string, string[]>>;
  elements: Map<string, string[]>;
  years: [number, number] | null;
}

interface ParsedExample {
  template: string;
  pathParams: Array<[string, string]>;
  query: Array<[string, string]>;
}

function parseExample(route: Route, url: string): ParsedExample {
  const parsed = new URL(url, 'http://bench.invalid');
  const form = matchPathForm(route, parsed.pathname);
  if (!form) throw new Error(`${route.id}: example ${url} matches none of its path forms`);
  return { template: form.template, pathParams: Object.entries(form.pathParams), query: [...parsed.searchParams] };
}

function addTo(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key) ?? [];
  if (!list.includes(value)) list.push(value);
  map.set(key, list);
}

function tagPools(routes: readonly Route[]): Map<string, TagPool> {
  const pools = new Map<string, TagPool>();
  for (const route of routes) {
    const pool = pools.get(route.tag) ?? { values: new Map(), own: new Map(), elements: new Map(), years: null };
    pools.set(route.tag, pool);
    const own = new Map<string, string[]>();
    pool.own.set(route.id, own);
    for (const url of route.examples) {
      const { pathParams, query } = parseExample(route, url);
      for (const [name, value] of [...pathParams, ...query]) {
        if (value === '') continue;
        addTo(pool.values, name, value);
        addTo(own, name, value);
        if (value.includes(',')) for (const element of value.split(',')) addTo(pool.elements, name, element);
        if (dateFormOf(value) && WINDOW_PARAMS.has(name)) {
          const year = yearOf(value);
          pool.years = pool.years ? [Math.min(pool.years[0], year), Math.max(pool.years[1], year)] : [year, year];
        }
      }
    }
  }
  return pools;
}

function drawValue(random: Random, route: Route, pool: TagPool, name: string, example: string, tied: boolean, today: string): string {
  if (example === '') return example; // a bare flag (?days)
  const schema = route.params[name]?.schema as { minimum?: number; maximum?: number } | undefined;
  if (RANGED.has(name) && schema) {
    const low = schema.minimum ?? 0;
    const high = Math.min(schema.maximum ?? Infinity, low + RANGE_SPAN - 1);
    return String(low + Math.floor(random.next() * (high - low + 1)));
  }
  const form = dateFormOf(example);
  if (form && WINDOW_PARAMS.has(name) && pool.years) return drawDate(random, form, pool.years, today);
  if (!TAG_WIDE.has(name)) return tied ? example : pick(random, pool.own.get(route.id)?.get(name) ?? [example]);
  const elements = pool.elements.get(name);
  if (elements && example.includes(',')) {
    const shuffled = [...elements];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(random.next() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    // A list of two or more stays one (a comparison needs two).
    const least = Math.min(example.split(',').length, 2);
    const most = Math.min(4, shuffled.length);
    return shuffled.slice(0, least + Math.floor(random.next() * (most - least + 1))).join(',');
  }
  return pick(random, pool.values.get(name) ?? [example]);
}

/** Puts each drawn window pair in order (to at or after from); the examples write both bounds of a pair in one form. */
function orderWindows(values: Map<string, string>): void {
  for (const [low, high] of WINDOW_PAIRS) {
    const from = values.get(low);
    const to = values.get(high);
    if (from === undefined || to === undefined) continue;
    const fromForm = dateFormOf(from);
    const toForm = dateFormOf(to);
    if (!fromForm || !toForm) continue;
    if (fromForm === toForm && firstDay(from, fromForm) > firstDay(to, toForm)) {
      values.set(low, to);
      values.set(high, from);
    }
  }
}

/** Draws per request before falling back to an example as it is. */
const DRAW_ATTEMPTS = 20;

/** Each route's validator per path form, built once (ajv compiles its schemas). */
const validators = new WeakMap<Route, Map<string, ReturnType<typeof buildValidator>>>();
function validatorOf(route: Route, template: string): ReturnType<typeof buildValidator> {
  const forms = validators.get(route) ?? new Map<string, ReturnType<typeof buildValidator>>();
  validators.set(route, forms);
  const known = forms.get(template);
  if (known) return known;
  const built = buildValidator(route, template);
  forms.set(template, built);
  return built;
}

/** A request the route's validator accepts, else the example drawn last as it is. */
function drawRequest(random: Random, route: Route, pool: TagPool, today: string): string {
  let example = '';
  for (let attempt = 0; attempt < DRAW_ATTEMPTS; attempt++) {
    example = pick(random, route.examples);
    const url = redraw(random, route, pool, example, today);
    const parsed = new URL(url, 'http://bench.invalid');
    const form = matchPathForm(route, parsed.pathname);
    try {
      if (form) {
        validatorOf(route, form.template)(rawQuery(parsed.search), form.pathParams);
        return url;
      }
    } catch {
      // refused: draw again
    }
  }
  return example;
}

/** One of a route's examples with its values redrawn. */
function redraw(random: Random, route: Route, pool: TagPool, url: string, today: string): string {
  const example = parseExample(route, url);
  const values = new Map<string, string>();
  // A family key (dim.siec) is kept, and ties the example's identifiers (its dataset) to it.
  const tied = example.query.some(([name]) => !(name in route.params));
  for (const [name, value] of [...example.pathParams, ...example.query]) {
    if (name in route.params) values.set(name, drawValue(random, route, pool, name, value, tied, today));
  }
  orderWindows(values);
  const path = example.template.replace(/\{([^{}]+)\}/g, (_, name: string) => encodeURIComponent(values.get(name)!));
  const pathNames = new Set(example.pathParams.map(([name]) => name));
  const query = new URLSearchParams();
  for (const [name, value] of example.query) query.append(name, pathNames.has(name) ? value : (values.get(name) ?? value));
  // A bare flag stays bare (?days, not ?days=).
  const search = [...query].map(([name, value]) => (value === '' ? encodeURIComponent(name) : `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)).join('&');
  return search ? `${path}?${search}` : path;
}

export interface VariedFamily {
  /** The route's operation id. */
  family: string;
  tag: string;
  /** Drawn requests, in the order they are sent. */
  urls: string[];
}

/** The bench's today (bench/target.ts BENCH_NOW): no drawn date is after it. */
export const VARIED_TODAY = '2026-11-22';

/**
 * `perFamily` drawn requests for each GET route, in catalog order; the same for the same seed and
 * routes. A POST route (a body, no parameters to draw) is left out.
 */
export function drawVaried(routes: readonly Route[], perFamily: number, seed = VARIED_SEED, today = VARIED_TODAY): VariedFamily[] {
  const pools = tagPools(routes);
  return routes.filter((route) => route.method === 'GET').map((route) => {
    const random = new Random(route.id, seed);
    const urls = Array.from({ length: perFamily }, () => drawRequest(random, route, pools.get(route.tag)!, today));
    return { family: route.id, tag: route.tag, urls };
  });
}

export interface VariedResult {
  family: string;
  tag: string;
  /** Timed requests (fewer than drawn when the family's time budget ran out). */
  n: number;
  p50: number;
  p99: number;
  max: number;
  /** Requests per HTTP status. */
  statuses: Record<string, number>;
  /** The drawn request of the slowest time, to reproduce it. */
  slowestUrl: string;
}

/**
 * Sends each family's drawn requests once, in order, through `request` (to an app with the answer
 * cache off), after one untimed request; stops a family once `budgetMs` of requests have passed.
 */
export async function measureVaried(request: (url: string) => Promise<Response>, families: readonly VariedFamily[], budgetMs: number): Promise<VariedResult[]> {
  const results: VariedResult[] = [];
  for (const { family, tag, urls } of families) {
    if (urls.length === 0) continue;
    await request(urls[0]!).then((response) => response.arrayBuffer());
    const times: Array<{ ms: number; url: string }> = [];
    const statuses: Record<string, number> = {};
    const started = performance.now();
    for (const url of urls) {
      const start = performance.now();
      const response = await request(url);
      await response.arrayBuffer();
      times.push({ ms: performance.now() - start, url });
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      if (performance.now() - started > budgetMs) break;
    }
    const sorted = times.map((t) => t.ms).sort((a, b) => a - b);
    const slowest = times.reduce((a, b) => (b.ms > a.ms ? b : a));
    results.push({ family, tag, n: times.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: slowest.ms, statuses, slowestUrl: slowest.url });
  }
  return results;
}
