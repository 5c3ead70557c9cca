// Deterministic sample of the Comext cereals extract (DS-045409), in the real SDMX-CSV layout:
//   comext-ds045409-cereals-2016-2020.csv   annual 2016-2020 (LAST UPDATE 02/03/21)
//   comext-ds045409-cereals-2021-2025.csv   annual 2021-2025 (LAST UPDATE 15/09/26)
// Nine reporters (eight with agri-food prices, NL without), products 1001 wheat, 1003 barley,
// 1005 maize, both flows, and partners WORLD, the aggregates INT_EU27_2020 and EXT_EU27_2020, seven
// countries outside the EU and two member states. WORLD = INT + EXT; the listed partners cover part of
// each (the rest is unlisted trade), so partner shares add up to less than 100 %. Values follow a
// common price cycle (the 2021-2022 surge) with seeded noise; PLANTED_MOVES multiply one
// (reporter, product, flow, year) on every partner, large enough for the markets changes and
// anomalies endpoints. Two observations are confidential (empty OBS_VALUE, flag "c").
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { Random } from '../../../ingest/random.ts';

export const SAMPLE_TRADE_FILES = {
  early: 'comext-ds045409-cereals-2016-2020.csv',
  late: 'comext-ds045409-cereals-2021-2025.csv',
} as const;

export const SAMPLE_TRADE_YEARS = { first: 2016, last: 2025 } as const;
export const SAMPLE_PRODUCTS = ['1001', '1003', '1005'] as const;
export const SAMPLE_REPORTERS = ['DE', 'FR', 'BG', 'RO', 'PL', 'HU', 'ES', 'IT', 'NL'] as const;
const EXTRA_EU_PARTNERS = ['UA', 'RU', 'US', 'BR', 'RS', 'TR', 'EG'] as const;
const INTRA_EU_CANDIDATES = ['DE', 'FR', 'NL', 'IT', 'AT', 'BE'] as const;

/** Yearly value of WORLD trade in millions of euros at index 1.0: [imports, exports]. */
const BASE_MEUR: Record<(typeof SAMPLE_REPORTERS)[number], Record<(typeof SAMPLE_PRODUCTS)[number], [number, number]>> = {
  DE: { '1001': [700, 1400], '1003': [250, 400], '1005': [700, 150] },
  FR: { '1001': [120, 4200], '1003': [60, 1300], '1005': [200, 1100] },
  BG: { '1001': [30, 900], '1003': [10, 120], '1005': [40, 400] },
  RO: { '1001': [80, 1300], '1003': [20, 250], '1005': [150, 1100] },
  PL: { '1001': [120, 800], '1003': [30, 90], '1005': [250, 500] },
  HU: { '1001': [30, 500], '1003': [15, 120], '1005': [80, 900] },
  ES: { '1001': [1200, 80], '1003': [300, 60], '1005': [1500, 40] },
  IT: { '1001': [2200, 100], '1003': [150, 20], '1005': [900, 50] },
  NL: { '1001': [900, 400], '1003': [150, 90], '1005': [1000, 250] },
};

/** Cereal price cycle shared by every series (the 2021-2022 surge). */
const YEAR_INDEX: Record<number, number> = {
  2016: 1.0, 2017: 0.98, 2018: 1.04, 2019: 1.02, 2020: 1.06, 2021: 1.25, 2022: 1.6, 2023: 1.3, 2024: 1.08, 2025: 1.02,
};

/** Euros per 100 kg at index 1.0. */
const UNIT_VALUE: Record<string, number> = { '1001': 20, '1003': 18, '1005': 19 };

export interface PlantedTradeMove {
  reporter: string;
  product: string;
  flow: 1 | 2;
  year: number;
  factor: number;
  why: string;
}

export const PLANTED_MOVES: readonly PlantedTradeMove[] = [
  { reporter: 'PL', product: '1001', flow: 1, year: 2022, factor: 4.0, why: 'Ukrainian grain through the solidarity lanes' },
  { reporter: 'PL', product: '1001', flow: 1, year: 2023, factor: 3.0, why: 'the lanes, second year' },
  { reporter: 'BG', product: '1001', flow: 1, year: 2023, factor: 5.0, why: 'imports surge, one year' },
  { reporter: 'RO', product: '1001', flow: 2, year: 2022, factor: 1.8, why: 'exports jump' },
  { reporter: 'HU', product: '1005', flow: 2, year: 2022, factor: 0.35, why: 'drought: maize exports collapse' },
  { reporter: 'FR', product: '1003', flow: 2, year: 2020, factor: 1.7, why: 'barley demand from outside the EU' },
  { reporter: 'DE', product: '1005', flow: 1, year: 2019, factor: 0.5, why: 'one-year drop of maize imports' },
];

/** Observations published as confidential: empty OBS_VALUE with flag "c". */
export const CONFIDENTIAL: ReadonlyArray<{ reporter: string; partner: string; product: string; flow: 1 | 2; year: number; indicator: string }> = [
  { reporter: 'HU', partner: 'WORLD', product: '1003', flow: 1, year: 2017, indicator: 'VALUE_IN_EUROS' },
  { reporter: 'BG', partner: 'RS', product: '1005', flow: 2, year: 2018, indicator: 'QUANTITY_IN_100KG' },
];

const HEADER = ['DATAFLOW', 'LAST UPDATE', 'freq', 'reporter', 'partner', 'product', 'flow', 'indicators', 'TIME_PERIOD', 'OBS_VALUE', 'OBS_FLAG'];
const DATAFLOW = 'ESTAT:DS-045409(1.0)';

interface Flow {
  partner: string;
  value: number;
  quantity: number;
}

/** One year's partner breakdown of one (reporter, product, flow). */
function yearFlows(reporter: string, product: string, flow: 1 | 2, year: number, variant = 0): Flow[] {
  // A scaled variant (bench) draws its own numbers; variant 0 is the sample's own series.
  const tag = variant === 0 ? '' : `#${variant}`;
  const series = new Random(`trade:${reporter}:${product}:${flow}${tag}`);
  // Fixed per series: intra-EU share, partner weights and the two listed member states.
  const intraShare = 0.5 + series.next() * 0.3;
  const weights = EXTRA_EU_PARTNERS.map((partner) => (partner === 'UA' && flow === 1 ? 3 : 1) * (0.5 + series.next()));
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const members = INTRA_EU_CANDIDATES.filter((c) => c !== reporter).slice(0, 2);

  const noise = new Random(`trade:${reporter}:${product}:${flow}:${year}${tag}`);
  const [g1, g2] = noise.gaussianPair();
  const planted = PLANTED_MOVES.filter((m) => variant === 0 && m.reporter === reporter && m.product === product && m.flow === flow && m.year === year)
    .reduce((f, m) => f * m.factor, 1);
  const base = BASE_MEUR[reporter as keyof typeof BASE_MEUR][product as keyof (typeof BASE_MEUR)['DE']][flow - 1];
  const world = base * 1e6 * YEAR_INDEX[year] * (1 + 0.06 * g1) * planted;
  const unitValue = UNIT_VALUE[product] * YEAR_INDEX[year] * (1 + 0.03 * g2);

  const intra = world * intraShare;
  const extra = world - intra;
  const parts: Array<[string, number]> = [
    ['WORLD', world],
    ['INT_EU27_2020', intra],
    ['EXT_EU27_2020', extra],
    // Listed partners outside the EU share 80 % of extra-EU trade, the two member states 60 % of intra.
    ...EXTRA_EU_PARTNERS.map((partner, i): [string, number] => [partner, extra * 0.8 * (weights[i] / weightSum) * (0.85 + 0.3 * noise.next())]),
    [members[0], intra * 0.35],
    [members[1], intra * 0.25],
  ];
  return parts.map(([partner, value]) => ({ partner, value: Math.round(value), quantity: Math.round((value / unitValue) * 100) / 100 }));
}

/**
 * The products of the extract: at scale 1 the sample's three; above, each also in round(scale) - 1
 * six-digit variants ("100101", "100102", ...) with their own numbers and no planted moves.
 */
function scaledProducts(scale: number): Array<{ code: string; base: string; variant: number }> {
  if (!Number.isFinite(scale) || scale < 1) throw new RangeError(`sample scale must be a number >= 1 (got ${scale})`);
  return SAMPLE_PRODUCTS.flatMap((base) =>
    Array.from({ length: Math.round(scale) }, (_, variant) => ({ code: variant === 0 ? base : `${base}${String(variant).padStart(2, '0')}`, base, variant })));
}

function rows(years: readonly number[], lastUpdate: string, scale: number): string[][] {
  const out: string[][] = [];
  for (const reporter of SAMPLE_REPORTERS) {
    for (const { code: product, base, variant } of scaledProducts(scale)) {
      for (const flow of [1, 2] as const) {
        for (const year of years) {
          for (const { partner, value, quantity } of yearFlows(reporter, base, flow, year, variant)) {
            for (const [indicator, amount] of [['QUANTITY_IN_100KG', quantity.toFixed(2)], ['VALUE_IN_EUROS', String(value)]] as const) {
              const secret = CONFIDENTIAL.some((c) =>
                c.reporter === reporter && c.partner === partner && c.product === product && c.flow === flow && c.year === year && c.indicator === indicator);
              out.push([DATAFLOW, lastUpdate, 'A', reporter, partner, product, String(flow), indicator, String(year), secret ? '' : amount, secret ? 'c' : '']);
            }
          }
        }
      }
    }
  }
  return out;
}

const range = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, i) => first + i);

export interface TradeSampleOptions {
  /** Product variants per sample product (>= 1, default 1: the sample itself). */
  scale?: number;
}

export async function generateTradeSample(dir: string, options: TradeSampleOptions = {}): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files: Array<[string, number[], string]> = [
    [SAMPLE_TRADE_FILES.early, range(2016, 2020), '02/03/21 11:00:00'],
    [SAMPLE_TRADE_FILES.late, range(2021, 2025), '15/09/26 11:00:00'],
  ];
  const written: string[] = [];
  for (const [name, years, lastUpdate] of files) {
    const file = join(dir, name);
    await writeFile(file, stringify([HEADER, ...rows(years, lastUpdate, options.scale ?? 1)]));
    written.push(file);
  }
  return written;
}
