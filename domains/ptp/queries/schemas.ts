// Response schemas of the PTP endpoints, as the specification's field tables give them.
import type { JsonSchema } from '../../../queries/catalog.ts';
import { integer, isoDate, listOf, nullable, object, text } from '../../../queries/shared/schema.ts';

/** Coordinates: decimal strings with 8 decimals. */
export const coordinate: JsonSchema = { type: 'string', pattern: '^-?\\d+\\.\\d{8}$', description: 'decimal degrees with 8 decimals' };
const localDatetime: JsonSchema = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$', description: 'local Sofia time, no zone' };

export const crashItem = object({
  crash_datetime: localDatetime,
  crash_type: nullable(text),
  ptp_place: nullable(text),
  region: text,
  municipality: nullable(text),
  location: nullable(text),
  latitude: nullable(coordinate),
  longitude: nullable(coordinate),
  died_count: integer,
  injured_count: integer,
  participant_count: nullable(integer),
  is_major: { type: 'boolean' },
});

const windowFilters = { year: nullable(integer), from: nullable(isoDate), to: nullable(isoDate) };

export const cityResponse: JsonSchema = object({
  endpoint: { const: 'getPtpPerCity' },
  filters: object({ city: text, matched_as: listOf(text), ...windowFilters, limit: nullable(integer) }),
  count: integer,
  items: listOf(crashItem),
});

export const regionResponse: JsonSchema = object({
  endpoint: { const: 'getPtpPerRegion' },
  filters: object({ region: text, ...windowFilters, limit: nullable(integer) }),
  count: integer,
  items: listOf(crashItem),
});

export const deadlyResponse: JsonSchema = object({
  endpoint: { const: 'getMostDeadlyLocations' },
  filters: object({ ...windowFilters, limit: integer }),
  count: integer,
  items: listOf(object({
    location_id: integer,
    latitude: coordinate,
    longitude: coordinate,
    radius_m: { const: 2000 },
    region: text,
    location: nullable(text),
    crash_count: integer,
    died_count: integer,
    injured_count: integer,
  })),
});
