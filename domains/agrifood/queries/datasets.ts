// /api/v1/datasets (a JSON array, as the specification says) and /api/v1/datasets/{dataset_id}.
import type { Row } from '../../../engine/json.ts';
import { requiredHeldView } from '../../../engine/held.ts';
import { defineRoute, type ResponseBody } from '../../../queries/catalog.ts';
import { pagedList, type Resolved } from '../../../queries/kinds/index.ts';
import { dataset as datasetKind } from './params.ts';
import { datasetDetailResponse, datasetsResponse } from './schemas.ts';
import { AGRIFOOD_DATASETS } from './tables.ts';

const RECORD_SQL = `dataset, source, source_file, source_url, file_hash,
  strftime(import_date, '%Y-%m-%dT%H:%M:%S.%gZ') AS import_date, row_count`;

/** Import versions of the agri-food datasets: 1 = oldest; ties (none in practice) by file and hash. */
const VERSIONS_SQL = `SELECT *, row_number() OVER (PARTITION BY dataset ORDER BY import_date, source_file, file_hash)::INTEGER AS version,
    count(*) OVER (PARTITION BY dataset)::INTEGER AS versions
  FROM imports WHERE list_contains(string_split($datasets, ','), dataset)`;

const LIST_SQL = `SELECT ${RECORD_SQL}, versions FROM (${VERSIONS_SQL}) WHERE version = versions ORDER BY dataset
  LIMIT $page_limit OFFSET $page_offset`;

const DETAIL_SQL = `SELECT ${RECORD_SQL}, version, version = versions AS is_current
  FROM (${VERSIONS_SQL}) WHERE dataset = $dataset ORDER BY version DESC`;

/** The facts (counted once at load) with the import records: one row per record, or one row of nulls without any. */
const DETAIL_SQL_WITH_FACTS = `SELECT f.rows AS facts_rows, f.priced_rows AS facts_priced_rows, f.commodities AS facts_commodities,
    f.countries AS facts_countries, f.first_date AS facts_first_date, f.last_date AS facts_last_date, d.*
  FROM agri_dataset_facts f LEFT JOIN (${DETAIL_SQL}) AS d ON true
  WHERE f.dataset = $dataset ORDER BY d.version DESC`;

const FACT_COLUMNS = ['rows', 'priced_rows', 'commodities', 'countries', 'first_date', 'last_date'] as const;

const datasets = AGRIFOOD_DATASETS.join(',');

/** Above any number of agri-food datasets: the whole list in one read. */
const ALL_ROWS = 2_147_483_647;

/**
 * The two statements' rows held per database (a snapshot does not change while served): the whole
 * list, and each dataset's detail rows. A few rows each, read once, where each statement (windows
 * over the import ledger and a join) cost 5-8 ms of DuckDB's fixed work per request.
 */
const heldAnswers = requiredHeldView<{ list: Row[]; details: ReadonlyMap<string, Row[]> }>({
  name: 'agrifood.datasets',
  sql: { list: LIST_SQL, details: DETAIL_SQL_WITH_FACTS },
  // Parameterised: the whole list, and the detail rows of each dataset.
  read: async (db) => ({
    list: await db.all(LIST_SQL, { datasets, page_limit: ALL_ROWS, page_offset: 0 }),
    ...Object.fromEntries(await Promise.all(AGRIFOOD_DATASETS.map(async (dataset) => [`detail:${dataset}`, await db.all(DETAIL_SQL_WITH_FACTS, { dataset, datasets })] as const))),
  }),
  key: ['dataset'],
  order: 'dataset',
  rowsMax: 10_000,
  bytesMax: 16 * 2 ** 20,
  build: (rows) => ({ list: rows.list, details: new Map(AGRIFOOD_DATASETS.map((dataset) => [dataset, rows[`detail:${dataset}`]!])) }),
  parity: [
    {
      part: 'the list',
      probes: `SELECT '${datasets}' AS datasets, ${ALL_ROWS} AS page_limit, 0 AS page_offset`,
      keyed: LIST_SQL,
      answer: (held) => held.list,
    },
    {
      part: 'a dataset',
      probes: `SELECT unnest(string_split('${datasets}', ',')) AS dataset, '${datasets}' AS datasets ORDER BY dataset`,
      keyed: DETAIL_SQL_WITH_FACTS,
      answer: (held, probe) => held.details.get(String(probe.dataset)) ?? [],
    },
  ],
})

const listInputs = { page: pagedList() };

export const listDatasets = defineRoute<Resolved<typeof listInputs>>({
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
  params: {},
  inputs: listInputs,
  response: datasetsResponse,
  listRows: (body) => body as unknown as Row[],
  listColumns: () => ['dataset', 'source', 'source_file', 'source_url', 'file_hash', 'import_date', 'row_count', 'versions'],
  async handle(params, { db }) {
    // LIST_SQL's ORDER BY dataset, LIMIT and OFFSET, over its whole result.
    // Copies: the held rows stay as read.
    const rows = (await heldAnswers(db)).list.slice(params.page.offset, params.page.offset + params.page.limit).map((row) => ({ ...row }));
    // The specification's shape is a bare array; the catalog's body type is an object, so it is cast.
    return rows as unknown as ResponseBody;
  },
});

const detailInputs = { dataset: datasetKind('dataset_id', 'path') };

export const getDataset = defineRoute<Resolved<typeof detailInputs>>({
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
  params: {},
  inputs: detailInputs,
  response: datasetDetailResponse,
  listRows: (body) => body.results as Row[],
  listColumns: () => ['dataset', 'source', 'source_file', 'source_url', 'file_hash', 'import_date', 'row_count', 'version', 'is_current'],
  async handle(params, { db }) {
    const dataset = params.dataset!;
    const rows = (await heldAnswers(db)).details.get(dataset)!;
    const facts = Object.fromEntries(FACT_COLUMNS.map((column) => [column, rows[0][`facts_${column}`]]));
    const results = rows
      .filter((row) => row.dataset !== null)
      .map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => !key.startsWith('facts_'))));
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
