// How each sample source grows in the benchmark's tiers: the bench's own table, keyed by sample source
// name (domains/<name>/ingest/sampleSource.ts). The domains declare what a source is; how big the
// bench makes it, and in which of its real forms, is the bench's business. Every sample source has an
// entry (test/bench/scales.test.ts), so a new source is sized on purpose, not by omission.
import { generateSebraSample, SAMPLE_FIRST_DAY, workingDays } from '../domains/sebra/ingest/sample.ts';

/** The tiers above x1 (x1 is the sample itself, byte for byte). */
export type ScaledTier = 'x10' | 'x100';

/**
 * A source whose bulk above x1 is written in another of its real published forms, one DuckDB reads
 * (its floor then reads the bulk itself), while the sample's own form is timed on a probe: a slice of
 * the same data at the same scale.
 */
export interface BulkForm {
  /** Writes the whole sample at `scale` in the bulk form into dir. */
  write(dir: string, scale: number): Promise<void>;
  /** Writes the probe's slice at `scale`, in the sample's own form, into dir. */
  writeProbe(dir: string, scale: number): Promise<void>;
  /** What the probe is, for the log. */
  probe: string;
  /** The report's note beside the figures above x1. */
  note: string;
}

/** The same data in a form DuckDB reads, for the floor of a source whose own form it cannot read. */
export interface FloorCopy {
  /** Writes the sample at `scale` in that form into dir; returns the files. */
  write(dir: string, scale: number): Promise<string[]>;
  note: string;
}

export interface SourceScale {
  /** The generator's scale factor per tier; a tier without one (or no factors at all) gets the x1 sample. */
  factors: Readonly<Partial<Record<ScaledTier, number>>>;
  /** Why the scale is what it is (reported beside the figures). */
  note?: string;
  bulkForm?: BulkForm;
  /**
   * The floor's copy of a sample DuckDB cannot read; absent: the files themselves, an XLSX workbook
   * through a CSV copy of its first sheet's table (bench/data.ts).
   */
  floorCopy?: FloorCopy;
}

/** The sample's own form, unscaled at every tier: the generator takes no scale, or its data does not grow. */
const X1_ONLY: SourceScale = { factors: {} };

/** SEBRA days sampled in the XLSX form at tiers above x1 (the whole range is written as portal JSON there). */
export const SEBRA_XLSX_PROBE_DAYS = 20;

export const SOURCE_SCALES: Readonly<Record<string, SourceScale>> = {
  sebra: {
    // x100 >= 10 million payment rows: the sample's 37 214 rows x 285 = 10.6 million.
    factors: { x10: 28.5, x100: 285 },
    bulkForm: {
      write: async (dir, scale) => void (await generateSebraSample(dir, { scale, format: 'portal-json' })),
      async writeProbe(dir, scale) {
        const days = workingDays(SAMPLE_FIRST_DAY, '2026-12-31').slice(0, SEBRA_XLSX_PROBE_DAYS);
        await generateSebraSample(dir, { scale, from: days[0], to: days[days.length - 1] });
      },
      probe: `xlsx probe: the first ${SEBRA_XLSX_PROBE_DAYS} working days`,
      note: 'bulk written as the portal-JSON form of the same daily reports; XLSX measured on a probe of the first days',
    },
    floorCopy: {
      write: (dir, scale) => generateSebraSample(dir, { scale, format: 'portal-json' }),
      note: 'floor: DuckDB read_json of the portal-JSON copy of the same reports (DuckDB reads no XLSX without a downloaded extension)',
    },
  },
  // x100 >= 1 million accidents: the sample's 5 706 x 176 = 1.0 million.
  ptp: { factors: { x10: 17.6, x100: 176 } },
  cardgame: { factors: {}, note: 'a fixed catalogue of cards, not a series that grows: x1 at every scale' },
  agrifood: { factors: { x10: 10, x100: 100 }, note: 'scale multiplies the cereal and oilseed markets (pigmeat has none)' },
  trade: { factors: { x10: 10, x100: 100 } },
  ecb: { factors: { x10: 10, x100: 30 }, note: 'daily history 3 years x scale' },
  eurofxref: { factors: { x10: 10, x100: 30 }, note: 'daily history 3 years x scale' },
  fred: { factors: { x10: 10, x100: 30 }, note: 'daily history 3 years x scale; monthly series fixed' },
  hicp: X1_ONLY,
  'energy-eurostat': {
    factors: { x10: 10, x100: 100 },
    note: 'the bench-only nrg_bal_c grows with 5 x scale balance codes over 1990-2023 (x10: 53k, x100: 0.53M observations beside the 17k of the flagships, which stay at the sample size)',
  },
  ets: { factors: { x10: 10, x100: 100 }, note: 'installations per registry x scale (registry totals unchanged)' },
  'energy-worldbank': X1_ONLY,
  country: {
    factors: { x10: 10, x100: 40 },
    note:
      'scale = the number of monthly OECD Data Explorer vintages kept (every vintage is held, the newest served): rows grow with it, ' +
      'served series do not; the WDI sample is the same at every tier. x100 uses 40 vintages (about 1 million OECD rows) to keep the sample ingest short',
  },
};

/** A source's entry; a source without one is a programming error, named. */
export function scaleOf(source: string): SourceScale {
  const scale = SOURCE_SCALES[source];
  if (!scale) throw new Error(`bench/scales.ts has no entry for the sample source ${source}`);
  return scale;
}

/** True when the source's generator is given a factor at some tier. */
export function isScaled(source: string): boolean {
  return Object.keys(scaleOf(source).factors).length > 0;
}
