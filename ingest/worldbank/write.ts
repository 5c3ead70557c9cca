// Writers of the real WDI forms, for sample generators (country, energy, macro): parse.ts reads them back
// to the same values. Values are written with JS's shortest round-trip form.
//   await writeWdiBulkCsv(join(dir, 'API_NE.EXP.GNFS.ZS_DS2_en_csv_v2_1.csv'),
//     { code: 'NE.EXP.GNFS.ZS', name: 'Exports of goods and services (% of GDP)', lastUpdated: '2025-07-01' }, rows)
import { writeFile } from 'node:fs/promises';

export interface WdiWriteRow {
  country_code: string;
  country_name: string;
  year: number;
  /** null writes a blank year. */
  value: number | null;
}

export interface WdiIndicatorInfo {
  code: string;
  name: string;
  /** "Last Updated Date", YYYY-MM-DD. */
  lastUpdated: string;
  /** Year columns; default the smallest to the largest year of the rows. */
  firstYear?: number;
  lastYear?: number;
}

const quoted = (cells: readonly string[]) => `${cells.map((c) => `"${c.replaceAll('"', '""')}"`).join(',')},\r\n`;

/**
 * The bulk CSV form: UTF-8 BOM, CRLF, the 4 preamble lines, every cell quoted, a trailing comma, blank
 * years as "". Countries in the order of their first row.
 */
export async function writeWdiBulkCsv(file: string, indicator: WdiIndicatorInfo, rows: readonly WdiWriteRow[]): Promise<void> {
  const years = rows.map((r) => r.year);
  const first = indicator.firstYear ?? Math.min(...years);
  const last = indicator.lastYear ?? Math.max(...years);
  const yearList = Array.from({ length: last - first + 1 }, (_, i) => first + i);
  const countries = new Map<string, { name: string; values: Map<number, number | null> }>();
  for (const row of rows) {
    if (row.year < first || row.year > last) throw new Error(`writeWdiBulkCsv: year ${row.year} outside ${first}-${last}`);
    let entry = countries.get(row.country_code);
    if (!entry) countries.set(row.country_code, (entry = { name: row.country_name, values: new Map() }));
    if (entry.values.has(row.year)) throw new Error(`writeWdiBulkCsv: ${row.country_code} ${row.year} given twice`);
    entry.values.set(row.year, row.value);
  }
  let out = '\uFEFF';
  out += quoted(['Data Source', 'World Development Indicators']) + '\r\n';
  out += quoted(['Last Updated Date', indicator.lastUpdated]) + '\r\n';
  out += quoted(['Country Name', 'Country Code', 'Indicator Name', 'Indicator Code', ...yearList.map(String)]);
  for (const [code, { name, values }] of countries) {
    const cells = yearList.map((y) => {
      const v = values.get(y);
      return v === undefined || v === null ? '' : String(v);
    });
    out += quoted([name, code, indicator.name, indicator.code, ...cells]);
  }
  await writeFile(file, out);
}

export interface WdiCountryMetadataRow {
  code: string;
  /** null (blank) for an aggregate. */
  region: string | null;
  income_group: string | null;
  name: string;
  special_notes?: string;
}

/** The Metadata_Country_...csv form (BOM, quoted, trailing comma). */
export async function writeWdiCountryMetadata(file: string, rows: readonly WdiCountryMetadataRow[]): Promise<void> {
  let out = '\uFEFF' + quoted(['Country Code', 'Region', 'IncomeGroup', 'SpecialNotes', 'TableName']);
  for (const r of rows) out += quoted([r.code, r.region ?? '', r.income_group ?? '', r.special_notes ?? '', r.name]);
  await writeFile(file, out);
}

/** One JSON API page holding every row (page 1 of 1), as `country/all/indicator/<ID>?format=json` returns. */
export async function writeWdiApiJson(file: string, indicator: Omit<WdiIndicatorInfo, 'firstYear' | 'lastYear'>, rows: readonly WdiWriteRow[]): Promise<void> {
  const meta = { page: 1, pages: 1, per_page: Math.max(rows.length, 1), total: rows.length, sourceid: '2', lastupdated: indicator.lastUpdated };
  const data = rows.map((r) => ({
    indicator: { id: indicator.code, value: indicator.name },
    country: { id: r.country_code, value: r.country_name },
    countryiso3code: r.country_code,
    date: String(r.year),
    value: r.value,
    unit: '',
    obs_status: '',
    decimal: 1,
  }));
  await writeFile(file, JSON.stringify([meta, data]));
}
