// Where `npm run fetch` downloads each ingest source from: the publishers' official addresses (data/sources.md,
// ../shared/reference/sources-*.md), one dataset per file the ingest reads, with the ingest options it
// needs and the default refresh schedule (croner, Europe/Berlin time). Sources without one stable address
// (SEBRA daily files, PTP resources, the Union Registry's yearly workbook, the Bulgarian card set) take
// theirs from the operator file data/config/sources.json (ingest/fetch/config.ts).
import type { SourceConfig } from './config.ts';
import { PTP_DATASET_URI, type EgovListing } from './egov.ts';

export interface PageRequest {
  /** The official address; what the archive and the import records name. */
  url: string;
  /** Query parameters added only when asking (an API key): never archived, logged or recorded. */
  secret?: Record<string, string>;
  /** A JSON body: the page is asked with POST (the data.egov.bg API). */
  json?: unknown;
}

/** How a dataset's downloads become the file (or folder) its ingest command reads. */
export type Packing =
  /** One download, ingested as it is. */
  | 'file'
  /** Several pages, each a JSON array: concatenated into one array. */
  | 'json-pages'
  /** A World Bank bulk zip: its API_*.csv and Metadata_Country_*.csv are unpacked into a folder. */
  | 'worldbank-zip';

export interface DatasetPlan {
  /** Unique within the source; file-name safe. */
  dataset: string;
  pages: PageRequest[];
  /** The name the ingest reads it under (its extension tells the reader the format). */
  file: string;
  packing: Packing;
  /** Ingest options of the source's command (besides --source-url). */
  options?: Record<string, string>;
  /** The address import records name when it is not the first page's (a portal resource's page). */
  sourceUrl?: string;
  /** A publisher's version key (data.egov.bg: resource uri, version, updated_at): unchanged, nothing is asked. */
  version?: string;
}

export interface PlanContext {
  env: NodeJS.ProcessEnv;
  now: Date;
  config: SourceConfig | undefined;
}

export interface FetchSource {
  /** The ingest command's name. */
  name: string;
  /** Croner expression, Europe/Berlin time, when data/config/sources.json gives none. */
  schedule: string;
  /** What it needs from the operator (README, `npm run fetch -- --help`). */
  needs: string;
  /** Minimum milliseconds between two requests to a host of this publisher. */
  hostIntervals?: Record<string, number>;
  /** The built-in datasets; [] when the addresses come from the operator file only. */
  plan(context: PlanContext): DatasetPlan[];
  /** A data.egov.bg dataset whose resources are listed (listResources) and fetched (getResourceData). */
  listing?(config: SourceConfig | undefined): EgovListing | null;
}

export const SCHEDULE_TIMEZONE = 'Europe/Berlin';

const ECB_API = 'https://data-api.ecb.europa.eu/service/data';
const EUROSTAT_API = 'https://ec.europa.eu/eurostat/api/dissemination/sdmx/2.1/data';
const COMEXT_API = 'https://ec.europa.eu/eurostat/api/comext/dissemination/sdmx/2.1/data/DS-045409';
const AGRIFOOD_API = 'https://api.tech.ec.europa.eu/agrifood/api';
const OECD_API = 'https://sdmx.oecd.org/public/rest/data';

/** The ECB series the macro routes read (domains/macro/queries/tables.ts ECB_SERIES), one request per flow. */
export const ECB_REQUESTS: ReadonlyArray<{ dataset: string; flow: string; key: string }> = [
  { dataset: 'key_rates', flow: 'FM', key: 'B.U2.EUR.4F.KR.MRR_FR+DFR+MLFR.LEV' },
  { dataset: 'estr', flow: 'EST', key: 'B.EU000A2X2A25.WT' },
  { dataset: 'yield_curve', flow: 'YC', key: 'B.U2.EUR.4F.G_N_A.SV_C_YM.SR_2Y+SR_10Y+SR_30Y' },
  { dataset: 'exr_usd', flow: 'EXR', key: 'D.USD.EUR.SP00.A' },
];

/** The FRED series the macro routes read. */
export const FRED_SERIES: readonly string[] = ['DGS10', 'DGS2', 'CPIAUCSL', 'UNRATE', 'FEDFUNDS', 'VIXCLS'];

/** Eurostat datasets: the energy flagships and the HICP annual rates of the macro routes. */
export const EUROSTAT_DATASETS: readonly string[] = ['nrg_bal_s', 'nrg_cb_e', 'nrg_ind_ei', 'nrg_ind_ren', 'nrg_pc_204', 'prc_hicp_manr'];

/** Every WDI indicator the energy and country routes read (domains/country/indicators.ts, domains/energy/queries/constants.ts). */
export const WDI_INDICATORS: readonly string[] = [
  'NY.GDP.PCAP.CD', 'NY.GDP.MKTP.KD.ZG', 'FP.CPI.TOTL.ZG', 'SL.UEM.TOTL.ZS', 'NE.EXP.GNFS.ZS', 'NE.IMP.GNFS.ZS', 'GC.DOD.TOTL.GD.ZS',
  'EG.IMP.CONS.ZS', 'EG.FEC.RNEW.ZS', 'BX.KLT.DINV.WD.GD.ZS', 'SP.POP.TOTL', 'SP.POP.GROW', 'EN.GHG.CO2.RT.GDP.PP.KD', 'EN.ATM.CO2E.KD.GD',
];

/** OECD Data Explorer queries (csvfilewithlabels); ids of INDSERV and the labour force as in data/sources.md. */
export const OECD_REQUESTS: ReadonlyArray<{ dataset: string; path: string }> = [
  { dataset: 'DF_CLI', path: 'OECD.SDD.STES,DSD_STES@DF_CLI,4.1/.M.LI+BCICP+CCICP...AA...' },
  { dataset: 'DF_INDSERV', path: 'OECD.SDD.STES,DSD_STES@DF_INDSERV,4.1/.M.PRVM+TOVM.....' },
  { dataset: 'DF_IALFS_UNE_M', path: 'OECD.SDD.TPS,DSD_LFS@DF_IALFS_UNE_M,1.0/.UNE_LF_M...Y._T.Y_GE15.' },
];

const AGRIFOOD_SECTORS: ReadonlyArray<{ dataset: string; path: string }> = [
  { dataset: 'cereals_prices', path: 'cereal/prices' },
  { dataset: 'oilseeds_prices', path: 'oilseeds/prices' },
  { dataset: 'pigmeat_prices', path: 'pigmeat/prices' },
];

/** The agri-food history fetched, from this year on (AGRIFOOD_FROM_YEAR or the operator file's from_year). */
export const AGRIFOOD_FROM_YEAR = 2016;
/** Comext trade: products, reporters and partners of the cereals extract (data/sources.md), in five-year chunks (an unfiltered request answers 413). */
const TRADE_KEY = 'A.AT+BE+BG+CY+CZ+DE+DK+EE+EL+ES+FI+FR+HR+HU+IE+IT+LT+LU+LV+MT+NL+PL+PT+RO+SE+SI+SK.WORLD+INT_EU27_2020+EXT_EU27_2020+UA+RU+US+BR+RS+TR+EG+AR+CA+AU+KZ+MD.1001+1003+1005.1+2.VALUE_IN_EUROS+QUANTITY_IN_100KG';
export const TRADE_FROM_YEAR = 2016;

function yearWindows(from: number, to: number, size: number): Array<[number, number]> {
  const windows: Array<[number, number]> = [];
  for (let start = from; start <= to; start += size) windows.push([start, Math.min(to, start + size - 1)]);
  return windows;
}

export const FETCH_SOURCES: readonly FetchSource[] = [
  {
    name: 'eurofxref',
    schedule: '30 16 * * 1-5',
    needs: 'nothing (ECB, free reuse with attribution)',
    plan: () => [{ dataset: 'eurofxref-hist', pages: [{ url: 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.zip' }], file: 'eurofxref-hist.zip', packing: 'file' }],
  },
  {
    name: 'ecb',
    schedule: '0 17 * * 1-5',
    needs: 'nothing (ECB Data API, no key)',
    plan: () => ECB_REQUESTS.map(({ dataset, flow, key }) => ({
      dataset, pages: [{ url: `${ECB_API}/${flow}/${key}?format=csvdata` }], file: `ecb_${dataset}.csv`, packing: 'file' as const,
    })),
  },
  {
    name: 'fred',
    schedule: '0 8 * * 2-6',
    needs: 'nothing (fredgraph.csv); FRED_API_KEY uses the API instead. Series new to the snapshot are PENDING: approve them with npm run license',
    plan: ({ env }) => {
      const key = env.FRED_API_KEY?.trim();
      return FRED_SERIES.map((id) => key
        ? { dataset: id, pages: [{ url: `https://api.stlouisfed.org/fred/series/observations?series_id=${id}&file_type=json`, secret: { api_key: key } }], file: `${id}.json`, packing: 'file' as const, options: { series: id } }
        : { dataset: id, pages: [{ url: `https://fred.stlouisfed.org/graph/fredgraph.csv?id=${id}` }], file: `${id}.csv`, packing: 'file' as const });
    },
  },
  {
    name: 'eurostat',
    schedule: '0 12 * * 3',
    needs: 'nothing (Eurostat dissemination API)',
    plan: () => EUROSTAT_DATASETS.map((code) => ({
      dataset: code, pages: [{ url: `${EUROSTAT_API}/${code}?format=TSV&compressed=true` }], file: `estat_${code}.tsv.gz`, packing: 'file' as const, options: { dataset: code },
    })),
  },
  {
    name: 'worldbank',
    schedule: '0 4 * * 0',
    needs: 'nothing (World Bank bulk downloads, CC BY 4.0)',
    plan: () => WDI_INDICATORS.map((id) => ({
      dataset: id, pages: [{ url: `https://api.worldbank.org/v2/en/indicator/${id}?downloadformat=csv` }], file: `API_${id}.zip`, packing: 'worldbank-zip' as const,
    })),
  },
  {
    name: 'oecd',
    schedule: '0 5 * * 1',
    needs: 'nothing (OECD Data Explorer; about 20 requests a minute, so requests are 4 s apart)',
    hostIntervals: { 'sdmx.oecd.org': 4_000 },
    plan: () => OECD_REQUESTS.map(({ dataset, path }) => ({
      dataset, pages: [{ url: `${OECD_API}/${path}?startPeriod=2000-01&format=csvfilewithlabels` }], file: `${dataset}.csv`, packing: 'file' as const,
    })),
  },
  {
    name: 'cardgame',
    schedule: '0 3 * * *',
    needs: 'nothing for English (HearthstoneJSON); the Bulgarian set: its address in data/config/sources.json (datasets, options lang bg)',
    plan: () => [{ dataset: 'enUS', pages: [{ url: 'https://api.hearthstonejson.com/v1/latest/enUS/cards.collectible.json' }], file: 'cards.enUS.json', packing: 'file', options: { lang: 'en' } }],
  },
  {
    name: 'agrifood',
    schedule: '0 9 * * 4',
    needs: 'nothing (agri-food data portal API, no key); from_year in data/config/sources.json sets the history (default 2016)',
    plan: ({ now, config }) => {
      const from = config?.from_year ?? AGRIFOOD_FROM_YEAR;
      const to = now.getUTCFullYear();
      // The portal has no page parameter: the history is asked for a year at a time (a page each) and joined.
      return AGRIFOOD_SECTORS.map(({ dataset, path }) => ({
        dataset,
        pages: yearWindows(from, to, 1).map(([year]) => ({ url: `${AGRIFOOD_API}/${path}?beginDate=01/01/${year}&endDate=31/12/${year}` })),
        file: `${dataset}.json`,
        packing: 'json-pages' as const,
        options: { dataset },
      }));
    },
  },
  {
    name: 'trade',
    schedule: '0 8 16 * *',
    needs: 'nothing (Comext SDMX API); from_year in data/config/sources.json sets the history (default 2016)',
    plan: ({ now, config }) => {
      const from = config?.from_year ?? TRADE_FROM_YEAR;
      return yearWindows(from, now.getUTCFullYear(), 5).map(([start, end]) => ({
        dataset: `ds045409-${start}-${end}`,
        pages: [{ url: `${COMEXT_API}/${TRADE_KEY}?format=SDMX-CSV&startPeriod=${start}&endPeriod=${end}` }],
        file: `comext-ds045409-${start}-${end}.csv`,
        packing: 'file' as const,
      }));
    },
  },
  {
    name: 'sebra',
    schedule: '0 19 * * 1-5',
    needs: 'the daily files\' addresses (Ministry of Finance pages or data.egov.bg resources), or egov_dataset (a data.egov.bg dataset uri whose resources are listed), in data/config/sources.json',
    hostIntervals: { 'data.egov.bg': 8_000 },
    plan: () => [],
    // Every resource of the operator's portal dataset, each its own dataset; one already ingested at the same version is not asked again.
    listing: (config) => (config?.egov_dataset === undefined ? null : {
      datasetUri: config.egov_dataset, pick: 'all',
      datasetOf: (resource) => ({ dataset: `egov-${resource.uri}`, file: `sebra-${resource.uri}.json` }),
    }),
  },
  {
    name: 'ptp',
    schedule: '0 7 * * *',
    needs: 'nothing: the current resource of the interior ministry\'s data.egov.bg dataset is listed (egov_dataset in data/config/sources.json names another dataset)',
    hostIntervals: { 'data.egov.bg': 8_000 },
    plan: () => [],
    // One resource, replaced as it grows: the current one (latest updated_at) under one dataset name, so a replacement supersedes it.
    listing: (config) => (config?.builtin === false && config.egov_dataset === undefined ? null : {
      datasetUri: config?.egov_dataset ?? PTP_DATASET_URI, pick: 'current',
      datasetOf: () => ({ dataset: 'accidents', file: 'ptp-accidents.json' }),
    }),
  },
  {
    name: 'ets',
    schedule: '0 6 1 * *',
    needs: 'the yearly verified_emissions_<YYYY>_en.xlsx address (climate.ec.europa.eu, a UUID per year) in data/config/sources.json',
    plan: () => [],
  },
];

export const FETCH_SOURCE_NAMES: readonly string[] = FETCH_SOURCES.map((source) => source.name);

export function fetchSourceNamed(name: string): FetchSource | undefined {
  return FETCH_SOURCES.find((source) => source.name === name);
}

/** A file name from an address: the `filename` query parameter, else the last path segment; unsafe characters replaced. */
export function fileNameOf(url: string): string {
  const parsed = new URL(url);
  const segment = parsed.pathname.split('/').filter(Boolean).pop();
  let last = segment;
  try {
    last = segment === undefined ? undefined : decodeURIComponent(segment);
  } catch {
    // a malformed escape: the segment as written
  }
  const named = parsed.searchParams.get('filename') ?? last ?? 'download';
  return named.replace(/[^\w.-]/g, '_').replace(/^\.+/, '') || 'download';
}

/** The built-in datasets of a source and those the operator file adds (same dataset name: the operator's wins). */
export function plansOf(source: FetchSource, context: PlanContext): DatasetPlan[] {
  const builtIn = context.config?.builtin === false ? [] : source.plan(context);
  const configured: DatasetPlan[] = (context.config?.datasets ?? []).map((entry) => ({
    dataset: entry.dataset ?? fileNameOf(entry.url),
    pages: [{ url: entry.url }],
    file: entry.file ?? fileNameOf(entry.url),
    packing: 'file',
    options: entry.options,
  }));
  const names = new Set(configured.map((plan) => plan.dataset));
  return [...builtIn.filter((plan) => !names.has(plan.dataset)), ...configured];
}

