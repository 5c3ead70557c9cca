// Eurostat / SDMX time periods: every spelling seen in the wild, normalised to one label and a start date.
//   annual 2023 | quarterly 2023-Q1, 2023Q1 | monthly 2023-01, 2023M01, 2023M1 | half-yearly 2023-S1, 2023S1, 2023-H1
//   | daily 2023-01-31.
// The frequency code is the SDMX one (A, Q, M, S, D).

export type PeriodFrequency = 'A' | 'S' | 'Q' | 'M' | 'D';

export interface Period {
  /** Normalised label: 2023, 2023-Q1, 2023-01, 2023-S1 or 2023-01-31. */
  label: string;
  freq: PeriodFrequency;
  /** First day of the period, YYYY-MM-DD. */
  start: string;
}

const ANNUAL = /^(\d{4})$/;
const QUARTER = /^(\d{4})-?Q([1-4])$/;
const MONTH = /^(\d{4})(?:-|M)(0?[1-9]|1[0-2])$/;
const HALF = /^(\d{4})-?[SH]([12])$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

const pad2 = (n: number) => String(n).padStart(2, '0');

/** The period of a label (surrounding spaces ignored, case-insensitive), or null when it is none of the kinds above. */
export function parsePeriod(text: string): Period | null {
  const t = text.trim().toUpperCase();
  let m = ANNUAL.exec(t);
  if (m) return { label: m[1]!, freq: 'A', start: `${m[1]}-01-01` };
  m = QUARTER.exec(t);
  if (m) {
    const q = Number(m[2]);
    return { label: `${m[1]}-Q${q}`, freq: 'Q', start: `${m[1]}-${pad2(q * 3 - 2)}-01` };
  }
  m = MONTH.exec(t);
  if (m) {
    const month = pad2(Number(m[2]));
    return { label: `${m[1]}-${month}`, freq: 'M', start: `${m[1]}-${month}-01` };
  }
  m = HALF.exec(t);
  if (m) {
    const s = Number(m[2]);
    return { label: `${m[1]}-S${s}`, freq: 'S', start: `${m[1]}-${s === 1 ? '01' : '07'}-01` };
  }
  m = DAY.exec(t);
  if (m) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const date = new Date(Date.UTC(y, mo - 1, d));
    if (date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
    return { label: t, freq: 'D', start: t };
  }
  return null;
}

/** SDMX frequency codes whose periods this reader checks against the label (other codes are not checked). */
const CHECKED_FREQUENCIES: ReadonlySet<string> = new Set(['A', 'S', 'Q', 'M', 'D']);

/** True when a series' `freq` code and a period label disagree (A with 2023-Q1, ...). Unknown codes never disagree. */
export function freqMismatch(freqCode: string, period: Period): boolean {
  const code = freqCode.toUpperCase();
  // Eurostat also writes half-years under H in a few datasets.
  if (code === 'H') return period.freq !== 'S';
  return CHECKED_FREQUENCIES.has(code) && code !== period.freq;
}
