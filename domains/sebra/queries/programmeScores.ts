// unusual_programmes over any window, from every programme's daily payouts held in memory per
// database (a snapshot does not change while served): no statement per request.
//
// Per programme (rows sorted by day): running sums of the payouts and of their squares give the
// window's n, S and Q in two binary searches; within one programme the z-score
// z = (n x - S) / sqrt(n Q - S^2) only rises with the payout x, so its best days in the window are its
// largest payouts there (a range-maximum tree per programme, laid out beside its rows so that a query
// reads a few kilobytes, not a path through a tree over every row). The list is a merge over
// programmes: a heap of (programme, run of rows) keyed by the best score in the run; popping a run's
// best day splits the run around it. Runs enter with a cheap upper bound on their score and are
// scored exactly (big integers) only when they reach the top, so a request scores few programmes
// exactly. Almost every programme has some payout with z >= 2 in a window, so a programme becomes a
// run only while its bound can beat the limit-th best score seen so far (a lower estimate of each
// programme's best): the heap holds a few runs, not one per programme.
//
// The arithmetic is the statement's it replaces (tested against it on many windows): sums in cents
// as 128-bit integers, cast to double as DuckDB casts HUGEINT (the low and high 64 bits converted
// apart), one division by the square root; the mean is CAST(s AS DOUBLE) / (n * 100); both cast to
// DECIMAL(38,2) as DuckDB does (round half away from zero of the value times 100; the score rounded
// to two places first, as round(z, 2) does).
import type { Database } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';
import { requiredHeldView, type HeldRows } from '../../../engine/held.ts';
import { hugeintAsDouble } from '../../../engine/heldGuards.ts';
import { firstAtOrAfter } from '../../../queries/shared/sortedDays.ts';

interface ProgrammeIndex {
  /** Per programme (by programme_id order): its currency, name, rank by (name, currency), first row. */
  currency: string[];
  name: string[];
  nameOrder: Int32Array;
  start: Int32Array;
  /** Per row (programme by programme, days ascending): days since 1970-01-01 and the payout in cents. */
  day: Int32Array;
  cents: Float64Array;
  /** Per programme, where its running sums start: entry base[p] + k sums its first k rows. */
  base: Int32Array;
  /** Running sums per programme: cents, and cents squared split at 2^52. */
  sum: Float64Array;
  squaresHigh: Float64Array;
  squaresLow: Float64Array;
  /**
   * Per programme p of m rows, a range-maximum tree over its payouts at 2 start[p] (leaves at
   * 2 start[p] + m + k for its row k, root at 2 start[p] + 1): the row of the largest payout, earliest on ties.
   */
  tree: Int32Array;
}

const MASK52 = (1n << 52n) - 1n;
const TWO52 = 2 ** 52;
const DAY_MS = 86_400_000;

/** Round half away from zero (C's round). */
function roundAway(value: number): number {
  return value < 0 ? -Math.round(-value) : Math.round(value);
}

/** An integer number of cents as DuckDB renders DECIMAL(38,2). */
function centsText(cents: number): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** CAST(double AS DECIMAL(38,2)) as DuckDB does it (the value times 100, rounded half away from zero). */
export function moneyText(value: number): string {
  return centsText(roundAway(value * 100));
}

/** CAST(round(value, 2) AS DECIMAL(38,2)). */
export function decimal2Text(value: number): string {
  return moneyText(roundAway(value * 100) / 100);
}

/** Programme ids read per statement (ids run 1..count: sebra_programmes numbers them). */
const PROGRAMMES_PER_READ = 1000;

const dayNumber = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
const isoDay = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

const PROGRAMMES_SQL = `SELECT programme_id, currency, programme,
    CAST(row_number() OVER (ORDER BY programme, currency) AS INTEGER) AS name_order
  FROM sebra_programmes ORDER BY programme_id`;
// One row per programme, its days and payouts as comma-separated text: parsing text is far cheaper
// (time and memory) than converting millions of list elements into JS values. Read in runs of
// programme ids so that no statement nears the query timeout at 100 times the sample.
const SERIES_SQL = `SELECT programme_id, count(*) AS rows,
    string_agg(CAST(date_diff('day', DATE '1970-01-01', payment_date) AS VARCHAR), ',' ORDER BY payment_date) AS days,
    string_agg(CAST(CAST(total_amount * 100 AS BIGINT) AS VARCHAR), ',' ORDER BY payment_date) AS cents
  FROM sebra_programme_daily WHERE programme_id BETWEEN $first AND $last GROUP BY programme_id`;

async function readProgrammes(db: Database): Promise<HeldRows> {
  const programmes = await db.all(PROGRAMMES_SQL);
  const series: Row[] = [];
  for (let first = 1; first <= programmes.length; first += PROGRAMMES_PER_READ) {
    series.push(...(await db.all(SERIES_SQL, { first, last: first + PROGRAMMES_PER_READ - 1 })));
  }
  return { programmes, series };
}

function buildIndex({ programmes, series }: HeldRows): ProgrammeIndex {
  const byId = new Map(series.map((row) => [Number(row.programme_id), row]));
  const rows = series.reduce((total, row) => total + Number(row.rows), 0);
  const index: ProgrammeIndex = {
    currency: programmes.map((p) => String(p.currency)),
    name: programmes.map((p) => String(p.programme)),
    nameOrder: Int32Array.from(programmes, (p) => Number(p.name_order)),
    start: new Int32Array(programmes.length + 1),
    day: new Int32Array(rows),
    cents: new Float64Array(rows),
    base: new Int32Array(programmes.length),
    sum: new Float64Array(rows + programmes.length),
    squaresHigh: new Float64Array(rows + programmes.length),
    squaresLow: new Float64Array(rows + programmes.length),
    tree: new Int32Array(2 * rows),
  };
  let at = 0;
  programmes.forEach((p, i) => {
    index.start[i] = at;
    const base = at + i;
    index.base[i] = base;
    const row = byId.get(Number(p.programme_id));
    const days = row ? String(row.days).split(',').map(Number) : [];
    const cents = row ? String(row.cents).split(',').map(Number) : [];
    let sum = 0;
    let squares = 0n;
    let largest = 0;
    for (let k = 0; k < days.length; k++, at++) {
      const x = cents[k];
      index.day[at] = days[k];
      index.cents[at] = x;
      sum += x;
      squares += BigInt(x) * BigInt(x);
      largest = Math.max(largest, Math.abs(x));
      index.sum[base + k + 1] = sum;
      index.squaresHigh[base + k + 1] = Number(squares >> 52n);
      index.squaresLow[base + k + 1] = Number(squares & MASK52);
    }
    // The scores need n x - S exact in doubles (below 2^53); far above any snapshot, the check keeps it honest.
    if (Math.abs(sum) >= Number.MAX_SAFE_INTEGER || largest * days.length >= Number.MAX_SAFE_INTEGER) {
      throw new Error('SEBRA programme payouts too large for the in-memory scores');
    }
  });
  index.start[programmes.length] = at;
  const { tree, start, cents } = index;
  for (let p = 0; p < programmes.length; p++) {
    const first = start[p];
    const m = start[p + 1] - first;
    const base = 2 * first;
    for (let k = 0; k < m; k++) tree[base + m + k] = first + k;
    for (let i = m - 1; i >= 1; i--) tree[base + i] = better(cents, tree[base + 2 * i], tree[base + 2 * i + 1]);
  }
  return index;
}

/** The row with the larger payout, the earlier one on ties (rows of one programme are in day order). */
function better(cents: Float64Array, a: number, b: number): number {
  const x = cents[a];
  const y = cents[b];
  return x > y || (x === y && a < b) ? a : b;
}

/** The row of the largest payout among programme p's rows lo..hi (inclusive, row numbers), earliest on ties. */
function rangeMax(index: ProgrammeIndex, p: number, lo: number, hi: number): number {
  const { tree, cents, start } = index;
  const first = start[p];
  const m = start[p + 1] - first;
  const base = 2 * first;
  let best = -1;
  for (let l = lo - first + m, r = hi - first + m + 1; l < r; l >>= 1, r >>= 1) {
    if (l & 1) {
      best = best < 0 ? tree[base + l] : better(cents, best, tree[base + l]);
      l++;
    }
    if (r & 1) {
      --r;
      best = best < 0 ? tree[base + r] : better(cents, best, tree[base + r]);
    }
  }
  return best;
}

/**
 * unusual_programmes as one statement (window functions over exact cents): what the index answers, and
 * what the generated parity test (test/engine/held-parity.test.ts) compares it with.
 */
export const UNUSUAL_PROGRAMMES_SQL = `
  WITH lines AS (
    SELECT p.programme, p.currency, d.payment_date, d.total_amount, CAST(d.total_amount * 100 AS HUGEINT) AS x
    FROM sebra_programme_daily d JOIN sebra_programmes p USING (programme_id)
    WHERE d.payment_date BETWEEN CAST($from AS DATE) AND CAST($to AS DATE) AND ($currency = '' OR p.currency = $currency)
  ), summed AS (
    SELECT *, count(*) OVER w AS n, sum(x) OVER w AS s, sum(x * x) OVER w AS q
    FROM lines WINDOW w AS (PARTITION BY programme, currency)
  ), scored AS (
    SELECT *, CAST(n * x - s AS DOUBLE) / sqrt(CAST(n * q - s * s AS DOUBLE)) AS z FROM summed WHERE n >= $min_days AND n * q - s * s > 0
  )
  SELECT programme, payment_date, currency, total_amount, CAST(CAST(s AS DOUBLE) / (n * 100) AS DECIMAL(38,2)) AS mean_amount,
         CAST(round(z, 2) AS DECIMAL(38,2)) AS zscore, n::BIGINT AS observed_days,
         row_number() OVER (ORDER BY z DESC, payment_date, programme, currency) AS rank
  FROM scored WHERE z >= 2 - 1e-9 ORDER BY rank LIMIT CAST($limit AS BIGINT)`;

/** Every programme's payouts by day (required: unusual_programmes has no other statement at request time). */
export const programmeIndex = requiredHeldView<ProgrammeIndex>({
  name: 'sebra.programmeIndex',
  sql: { programmes: PROGRAMMES_SQL, series: SERIES_SQL },
  read: readProgrammes,
  key: ['programme_id'],
  order: 'programme_id, payment_date',
  rowsMax: 200_000,
  bytesMax: 512 * 2 ** 20,
  build: buildIndex,
  bytesOf: (index) => [index.nameOrder, index.start, index.day, index.cents, index.base, index.sum, index.squaresHigh, index.squaresLow, index.tree]
    .reduce((bytes, array) => bytes + array.byteLength, 0) + index.name.reduce((bytes, name) => bytes + 64 + 2 * name.length, 0),
  parity: {
    // Two-month windows from each month of the data, every currency filter, a limit that cuts ties.
    probes: `SELECT CAST(month AS VARCHAR) AS "from", CAST(CAST(month + INTERVAL 2 MONTH - INTERVAL 1 DAY AS DATE) AS VARCHAR) AS "to",
        currency, 25 AS "limit", 5 AS min_days
      FROM (SELECT DISTINCT CAST(date_trunc('month', payment_date) AS DATE) AS month FROM sebra_programme_daily),
        (VALUES (''), ('BGN'), ('EUR')) c(currency)
      ORDER BY hash(month, currency), month, currency LIMIT 24`,
    keyed: UNUSUAL_PROGRAMMES_SQL,
    answer: (index, probe) => programmeItems(index, {
      from: String(probe.from), to: String(probe.to), currency: String(probe.currency), limit: Number(probe.limit),
    }, Number(probe.min_days)),
  },
});

/** The running-sum entries of programme p before row lo and through row hi. */
function sumPositions(index: ProgrammeIndex, p: number, lo: number, hi: number): [number, number] {
  const offset = index.base[p] - index.start[p];
  return [lo + offset, hi + 1 + offset];
}

/** A programme's sums over the window; `spread` = n Q - S^2 (exact) once scored exactly. */
interface Stats {
  programme: number;
  n: number;
  s: number;
  /** sqrt(CAST(n Q - S^2 AS DOUBLE)), or NaN until the programme is scored exactly. */
  denominator: number;
  /** n Q - S^2 as a double (approximate), for bounds. */
  approxSpread: number;
}

/** A run of one programme's rows in the window, keyed by its best row's score (exact) or a bound on it. */
interface Run {
  stats: Stats;
  lo: number;
  hi: number;
  best: number;
  key: number;
  exact: boolean;
}

/** Heap order: key descending; at equal keys a bound before an exact score (it may tie), then day, then name. */
function before(index: ProgrammeIndex, a: Run, b: Run): boolean {
  if (a.key !== b.key) return a.key > b.key;
  if (a.exact !== b.exact) return !a.exact;
  const dayA = index.day[a.best];
  const dayB = index.day[b.best];
  if (dayA !== dayB) return dayA < dayB;
  return index.nameOrder[a.stats.programme] < index.nameOrder[b.stats.programme];
}

class RunHeap {
  /** The runs, heap-ordered in place (bottom-up: linear in the number of programmes, not n log n). */
  constructor(
    private readonly index: ProgrammeIndex,
    private readonly items: Run[],
  ) {
    for (let i = (items.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }
  get length(): number {
    return this.items.length;
  }
  push(run: Run): void {
    const items = this.items;
    let i = items.push(run) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(this.index, items[i], items[parent])) break;
      [items[i], items[parent]] = [items[parent], items[i]];
      i = parent;
    }
  }
  pop(): Run {
    const items = this.items;
    const top = items[0];
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      this.siftDown(0);
    }
    return top;
  }
  private siftDown(start: number): void {
    const items = this.items;
    for (let i = start; ; ) {
      const left = 2 * i + 1;
      const right = left + 1;
      let first = i;
      if (left < items.length && before(this.index, items[left], items[first])) first = left;
      if (right < items.length && before(this.index, items[right], items[first])) first = right;
      if (first === i) break;
      [items[i], items[first]] = [items[first], items[i]];
      i = first;
    }
  }
}

/** The threshold as the statement compares it: z >= (2 - 1e-9). */
const Z_MIN = 2 - 1e-9;
/** A spread computed in doubles is trusted for bounds only when cancellation left it this large relative to n Q. */
const WELL_CONDITIONED = 1e-9;
/** Relative slack on bounds computed in doubles (their error is below 1e-6 of the spread when well conditioned). */
const BOUND_SLACK = 1e-4;

/** Scores the programme exactly: n Q - S^2 in big integers, cast as DuckDB casts; false when it has no spread. */
function scoreExactly(index: ProgrammeIndex, stats: Stats, lo: number, hi: number): boolean {
  const [a, b] = sumPositions(index, stats.programme, lo, hi);
  const squares = (BigInt(index.squaresHigh[b] - index.squaresHigh[a]) << 52n) + BigInt(index.squaresLow[b] - index.squaresLow[a]);
  const s = BigInt(stats.s);
  const spread = BigInt(stats.n) * squares - s * s;
  if (spread <= 0n) return false;
  stats.denominator = Math.sqrt(hugeintAsDouble(spread));
  return true;
}

/**
 * The exact score of row `row` (n x - S is exact in doubles: both below 2^53, checked at load). Distinct
 * payouts of a programme differ in n x - S by at least n >= 5 out of < 2^53, far above a rounding step,
 * so a larger payout scores strictly higher: the largest payout of a run is its best score.
 */
function exactScore(index: ProgrammeIndex, stats: Stats, row: number): number {
  return (stats.n * index.cents[row] - stats.s) / stats.denominator;
}

/**
 * An upper bound on the score of a payout of `cents` among n payouts summing to s, from the spread in
 * doubles (approxSpread = n Q - S^2 from squaresApprox = Q); Infinity when that is not trustworthy.
 */
function boundScore(n: number, s: number, approxSpread: number, cents: number, squaresApprox: number): number {
  const numerator = n * cents - s;
  const scale = n * squaresApprox;
  if (!(approxSpread > WELL_CONDITIONED * scale)) return Infinity;
  if (numerator <= 0) return numerator; // negative or zero scores never qualify; the bound stays below 2
  return (numerator / Math.sqrt(approxSpread)) * (1 + BOUND_SLACK) + 1e-9;
}

/** A lower bound on the same score, for a bound boundScore gave (finite and positive). */
function lowerScore(bound: number): number {
  return ((bound - 1e-9) / (1 + BOUND_SLACK)) * (1 - BOUND_SLACK) - 1e-9;
}

/**
 * The `count` largest values seen (a min-heap): its least is the score that the limit-th item of the
 * list reaches at least, once `count` programmes have a best payout known to score that much.
 */
class LargestValues {
  private readonly values: Float64Array;
  private size = 0;
  constructor(private readonly count: number) {
    this.values = new Float64Array(count);
  }
  /** The least of the `count` largest, or -Infinity until `count` values were seen. */
  get least(): number {
    return this.size < this.count ? -Infinity : this.values[0];
  }
  add(value: number): void {
    const values = this.values;
    if (this.size < this.count) {
      let i = this.size++;
      while (i > 0 && values[(i - 1) >> 1] > value) {
        values[i] = values[(i - 1) >> 1];
        i = (i - 1) >> 1;
      }
      values[i] = value;
      return;
    }
    if (!(value > values[0])) return;
    // Replace the least and sift down.
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= this.count) break;
      const child = left + 1 < this.count && values[left + 1] < values[left] ? left + 1 : left;
      if (!(values[child] < value)) break;
      values[i] = values[child];
      i = child;
    }
    values[i] = value;
  }
}

export interface ProgrammeWindow {
  from: string;
  to: string;
  currency: string;
  limit: number;
}

/**
 * Every programme's run of rows in the window that may qualify and place (one pass over the programmes,
 * kept apart from the merge so that the pass is compiled on its own).
 */
function candidateRuns(index: ProgrammeIndex, from: number, to: number, currency: string, limit: number, minDays: number): Run[] {
  const runs: Run[] = [];
  // The limit-th item scores at least the limit-th largest lower bound of a programme's best payout: a
  // programme whose bound is below it cannot place (ties included: its scores are strictly below).
  const placed = new LargestValues(limit);
  const { day, sum, squaresHigh, squaresLow, start, base, cents, tree } = index;
  const programmes = index.currency.length;
  for (let p = 0; p < programmes; p++) {
    const first = start[p];
    const end = start[p + 1];
    // Half the programmes of a short window have no day in it (or too few days in all): no search.
    if (end - first < minDays || day[first] > to || day[end - 1] < from) continue;
    if (currency !== '' && index.currency[p] !== currency) continue;
    const lo = firstAtOrAfter(day, from, first, end);
    const hi = firstAtOrAfter(day, to + 1, lo, end) - 1;
    const n = hi - lo + 1;
    if (n < minDays) continue;
    // Cheap bounds first, once the threshold is up: no score of n values exceeds sqrt(n - 1), and none
    // exceeds that of the programme's largest payout of all.
    const least = placed.least;
    if (Math.sqrt(n - 1) * (1 + BOUND_SLACK) + 1e-9 < least) continue;
    // sumPositions, without allocating a pair per programme.
    const a = lo + base[p] - first;
    const b = hi + 1 + base[p] - first;
    const s = sum[b] - sum[a];
    const squaresApprox = (squaresHigh[b] - squaresHigh[a]) * TWO52 + (squaresLow[b] - squaresLow[a]);
    const approxSpread = n * squaresApprox - s * s;
    if (least > -Infinity && boundScore(n, s, approxSpread, cents[tree[2 * first + 1]], squaresApprox) < least) continue;
    const best = rangeMax(index, p, lo, hi);
    const bound = boundScore(n, s, approxSpread, cents[best], squaresApprox);
    // Most programmes stop here: their stats are only made for a run that may qualify and place.
    if (bound !== Infinity && !(bound >= Z_MIN && bound >= placed.least)) continue;
    const stats: Stats = { programme: p, n, s, denominator: NaN, approxSpread };
    if (bound === Infinity) {
      if (!scoreExactly(index, stats, lo, hi)) continue;
      const z = exactScore(index, stats, best);
      if (z >= Z_MIN && z >= placed.least) {
        runs.push({ stats, lo, hi, best, key: z, exact: true });
        placed.add(z);
      }
    } else {
      runs.push({ stats, lo, hi, best, key: bound, exact: false });
      placed.add(lowerScore(bound));
    }
  }
  // Runs taken before the threshold rose: those still below it cannot place.
  const threshold = placed.least;
  return runs.filter((run) => run.key >= threshold);
}

/**
 * unusual_programmes: each payout scored against its programme's payment days in the window
 * (n >= minDays, spread > 0), z >= 2, ordered by z descending, then day, programme name and currency,
 * the first `limit`, in the response's fields.
 */
export async function unusualProgrammeItems(db: Database, window: ProgrammeWindow, minDays: number): Promise<Row[]> {
  return programmeItems(await programmeIndex(db), window, minDays);
}

function programmeItems(index: ProgrammeIndex, window: ProgrammeWindow, minDays: number): Row[] {
  if (window.limit < 1) return [];
  const heap = new RunHeap(index, candidateRuns(index, dayNumber(window.from), dayNumber(window.to), window.currency, window.limit, minDays));
  const items: Row[] = [];
  while (items.length < window.limit && heap.length > 0) {
    const run = heap.pop();
    const { stats } = run;
    if (!run.exact) {
      // Only a programme's first run (its whole window) enters with a bound: score the programme
      // exactly now and put the run back with its score.
      if (!scoreExactly(index, stats, run.lo, run.hi)) continue; // no spread: never unusual
      const z = exactScore(index, stats, run.best);
      if (z >= Z_MIN) heap.push({ ...run, key: z, exact: true });
      continue;
    }
    const row = run.best;
    items.push({
      programme: index.name[stats.programme],
      payment_date: isoDay(index.day[row]),
      currency: index.currency[stats.programme],
      total_amount: centsText(index.cents[row]),
      mean_amount: moneyText(hugeintAsDouble(BigInt(stats.s)) / (stats.n * 100)),
      zscore: decimal2Text(run.key),
      observed_days: stats.n,
      rank: items.length + 1,
    });
    // The rest of the run: the rows before and after its best, each keyed by its own best (exact: same programme).
    for (const [lo, hi] of [[run.lo, row - 1], [row + 1, run.hi]]) {
      if (lo > hi) continue;
      const best = rangeMax(index, stats.programme, lo, hi);
      const z = exactScore(index, stats, best);
      if (z >= Z_MIN) heap.push({ stats, lo, hi, best, key: z, exact: true });
    }
  }
  return items;
}
