// /api/v1/datasets (a JSON array, as the specification says) and /api/v1/datasets/{dataset_id}.
import type { Row } from '../../../engine/json.ts';
import { defineRoute, type ResponseBody } from '../../../queries/catalog.ts';
import { pageOf, paginate, paginationParams, type PageParams } from '../../../queries/shared/pagination.ts';
import { datasetIdPathParam, resolveDataset } from './params.ts';
import { datasetDetailResponse, datasetsResponse } from './schemas.ts';
import { AGRIFOOD_DATASETS } from './tables.ts';

const RECORD_SQL = `dataset, source, source_file, source_url, file_hash,
  strftime(import_date, '%Y-%m-%dT%H:%M:%S.%gZ') AS import_date, row_count`;

/** Import versions of the agri-food datasets: 1 = oldest; ties (none in practice) by file and hash. */
const VERSIONS_SQL = `SELECT *, row_number() OVER (PARTITION BY dataset ORDER BY import_date, source_file, file_hash)::INTEGER AS version,
    count(*) OVER (PARTITION BY dataset)::INTEGER AS versions
  FROM imports WHERE list_contains(string_split($datasets, ','), dataset)`;

const LIST_SQL = `SELECT ${RECORD_SQL}, versions FROM (${VERSIONS_SQL}) WHERE version = versions ORDER BY dataset`;

const DETAIL_SQL = `SELECT ${RECORD_SQL}, version, version = versions AS is_current
  FROM (${VERSIONS_SQL}) WHERE dataset = $dataset ORDER BY version DESC`;

const FACTS_SQL = `SELECT count(*)::INTEGER AS rows, count(price)::INTEGER AS priced_rows,
    count(DISTINCT commodity_id)::INTEGER AS commodities, count(DISTINCT member_state_code)::INTEGER AS countries,
    min(begin_date) AS first_date, max(begin_date) AS last_date
  FROM agri_prices WHERE dataset = $dataset`;

const datasets = AGRIFOOD_DATASETS.join(',');

export const listDatasets = defineRoute<PageParams>({
  id: 'listDatasets',
  method: 'GET',
  tag: 'agrifood',
  paths: ['/api/v1/datasets'],
  examples: ['/api/v1/datasets', '/api/v1/datasets?limit=2&offset=1'],
  summary: 'Agri-food datasets: the import record each is served from',
  description:
    'A JSON array (not an object) of import records, one per imported agri-food dataset (cereals_prices, oilseeds_prices, ' +
    'pigmeat_prices), ordered by dataset id: the latest import, whose file the facts come from, with dataset, source, ' +
    'source_file, source_url, file_hash, import_date, row_count, and the number of import versions. limit (default 100, ' +
    'at most 500) and offset page the array.',
  paid: true,
  params: { ...paginationParams },
  response: datasetsResponse,
  listRows: (body) => body as unknown as Row[],
  listColumns: () => ['dataset', 'source', 'source_file', 'source_url', 'file_hash', 'import_date', 'row_count', 'versions'],
  async handle(params, { db }) {
    const { rows } = await paginate(db, LIST_SQL, { datasets }, pageOf(params));
    // The specification's shape is a bare array; the catalog's body type is an object, so it is cast.
    return rows as unknown as ResponseBody;
  },
});

export const getDataset = defineRoute<{ dataset_id: string }>({
  id: 'getDataset',
  method: 'GET',
  tag: 'agrifood',
  paths: ['/api/v1/datasets/{dataset_id}'],
  examples: ['/api/v1/datasets/cereals_prices', '/api/v1/datasets/pigmeat_prices'],
  summary: 'One agri-food dataset: its import versions and the facts served',
  description:
    'The dataset\'s import records under `results`, newest first, each with its version (1 = first import) and whether it ' +
    'is the current one (only the latest import feeds the facts); `current` repeats that record, and `facts` counts the ' +
    'price rows served. An unknown dataset id is a 404; a known dataset never imported has no results.',
  paid: true,
  params: { dataset_id: datasetIdPathParam },
  response: datasetDetailResponse,
  listRows: (body) => body.results as Row[],
  listColumns: () => ['dataset', 'source', 'source_file', 'source_url', 'file_hash', 'import_date', 'row_count', 'version', 'is_current'],
  async handle(params, { db }) {
    const dataset = resolveDataset(params.dataset_id, 'dataset_id')!;
    const results = await db.all(DETAIL_SQL, { dataset, datasets });
    const [facts] = await db.all(FACTS_SQL, { dataset });
    const current = results.find((r) => r.is_current === true);
    return {
      endpoint: 'getDataset',
      dataset,
      current: current ? Object.fromEntries(Object.entries(current).filter(([key]) => key !== 'is_current')) : null,
      facts,
      count: results.length,
      results,
    };
  },
});
