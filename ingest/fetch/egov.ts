// The listing API of the Bulgarian open-data portal (data.egov.bg), for sources whose files are
// resources of a portal dataset rather than one stable address (PTP: one resource, replaced as it grows;
// SEBRA: one resource per file). `listResources` is asked page by page (POST, records_per_page 100)
// until `total_records` are listed; each resource becomes a dataset plan whose one page is a POST to
// `getResourceData` ({"success":true,"data":[[header...],[row...]]}, the form both ingests read).
// A plan carries the resource's uri, version and updated_at: when they equal those of the version last
// ingested, run.ts asks nothing. Every request goes through the polite client (the portal answers 429
// when called fast: one request per 8 s, sources.ts hostIntervals).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FetchFailedError, type HttpClient } from './http.ts';
import type { DatasetPlan } from './sources.ts';

export const EGOV_API = 'https://data.egov.bg/api';
export const EGOV_LIST_URL = `${EGOV_API}/listResources`;
export const EGOV_DATA_URL = `${EGOV_API}/getResourceData`;
/** The portal's largest page; the listing follows total_records, so a smaller page from the portal is fine. */
export const EGOV_PAGE_SIZE = 100;
/** A listing longer than this many pages is refused (a portal answering the same page forever). */
const MAX_LISTING_PAGES = 1_000;
/** The interior ministry's per-accident dataset (sources-bulgaria.md §3.1), the PTP default. */
export const PTP_DATASET_URI = '4b948dd7-c9ef-4239-b2de-9b8e1c312467';
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const UUID = new RegExp(UUID_PATTERN);

export interface EgovResource {
  uri: string;
  name: string;
  version: string;
  updated_at: string;
}

/** Which of a dataset's resources are fetched: the current one (PTP) or every one (SEBRA). */
export type EgovPick = 'current' | 'all';

export interface EgovListing {
  datasetUri: string;
  pick: EgovPick;
  /** The dataset name (and ingest file) of a resource. */
  datasetOf: (resource: EgovResource) => { dataset: string; file: string };
  options?: Record<string, string>;
}

/** The portal's page of a dataset (what import records and reports name). */
export const resourcePageOf = (uri: string) => `https://data.egov.bg/data/resourceView/${uri}`;

const textOf = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

/** One listResources answer's resources and total, or why it is not one. */
export function parseListingPage(value: unknown, url: string): { resources: EgovResource[]; total: number } {
  const fail = (why: string) => new FetchFailedError(url, `not a listResources answer: ${why}`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail('not a JSON object');
  const answer = value as { success?: unknown; resources?: unknown; total_records?: unknown };
  if (answer.success === false) throw fail('"success": false');
  if (!Array.isArray(answer.resources)) throw fail('no "resources" array');
  const total = Number(answer.total_records);
  if (!Number.isSafeInteger(total) || total < 0) throw fail(`"total_records" ${JSON.stringify(answer.total_records)} is not a count`);
  const resources = answer.resources.map((item: unknown, index) => {
    if (typeof item !== 'object' || item === null) throw fail(`resource ${index + 1} is not an object`);
    const entry = item as Record<string, unknown>;
    const uri = textOf(entry.uri);
    if (!UUID.test(uri)) throw fail(`resource ${index + 1} has no uuid "uri"`);
    return { uri: uri.toLowerCase(), name: textOf(entry.name), version: textOf(entry.version), updated_at: textOf(entry.updated_at) };
  });
  return { resources, total };
}

/**
 * Every resource of a portal dataset, page by page until total_records are listed (a page with no new
 * resource ends it too). Listing answers are written in `folder` (a scratch folder of the caller).
 */
export async function listEgovResources(
  client: HttpClient, datasetUri: string, folder: string, maxBytes: number,
): Promise<{ resources: EgovResource[]; requests: number }> {
  const byUri = new Map<string, EgovResource>();
  let requests = 0;
  for (let page = 1; page <= MAX_LISTING_PAGES; page++) {
    const file = join(folder, `listing-${datasetUri}-${page}.json`);
    const result = await client.get({
      url: EGOV_LIST_URL, file, method: 'POST', accept: 'application/json',
      json: { criteria: { dataset_uri: datasetUri }, records_per_page: EGOV_PAGE_SIZE, page_number: page },
    });
    requests += result.requests;
    if (result.status !== 'downloaded') throw new FetchFailedError(EGOV_LIST_URL, 'answered 304 Not Modified to an unconditional request');
    if (result.bytes > maxBytes) throw new FetchFailedError(EGOV_LIST_URL, `listing over ${maxBytes} bytes`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      throw new FetchFailedError(EGOV_LIST_URL, `listing page ${page} of ${datasetUri} is not JSON: ${(error as Error).message}`);
    }
    const { resources, total } = parseListingPage(parsed, EGOV_LIST_URL);
    const before = byUri.size;
    for (const resource of resources) byUri.set(resource.uri, resource);
    if (byUri.size >= total || byUri.size === before) return { resources: [...byUri.values()], requests };
  }
  throw new FetchFailedError(EGOV_LIST_URL, `the listing of ${datasetUri} did not end within ${MAX_LISTING_PAGES} pages`);
}

/**
 * The resource in force: the latest updated_at (compared as instants; an unreadable one counts as the
 * oldest); a tie goes to the higher version string, then to the greater uri, so the pick is total.
 */
export function currentResource(resources: readonly EgovResource[]): EgovResource | undefined {
  const instant = (resource: EgovResource) => {
    const at = Date.parse(resource.updated_at.replace(' ', 'T'));
    return Number.isNaN(at) ? -Infinity : at;
  };
  return [...resources].sort((a, b) => instant(b) - instant(a)
    || b.version.localeCompare(a.version, 'en', { numeric: true })
    || (b.uri < a.uri ? -1 : b.uri > a.uri ? 1 : 0))[0];
}

/** The version key stored in the archive: a resource unchanged when uri, version and updated_at are. */
export const resourceVersionOf = (resource: EgovResource) => `${resource.uri} ${resource.version} ${resource.updated_at}`;

/** The dataset plans of a listing: the current resource, or every one (sorted by uri: a stable order). */
export function egovPlans(listing: EgovListing, resources: readonly EgovResource[]): DatasetPlan[] {
  const chosen = listing.pick === 'current'
    ? [currentResource(resources)].filter((r): r is EgovResource => r !== undefined)
    : [...resources].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  return chosen.map((resource) => {
    const { dataset, file } = listing.datasetOf(resource);
    return {
      dataset, file, packing: 'file' as const, options: listing.options,
      pages: [{ url: EGOV_DATA_URL, json: { resource_uri: resource.uri } }],
      sourceUrl: resourcePageOf(resource.uri),
      version: resourceVersionOf(resource),
    };
  });
}
