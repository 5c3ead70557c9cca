// The PTP snapshot tables, declared once for the writer (ingest/snapshot.ts) and the loader
// (queries/tables.ts).
import { defineDataset } from '../../engine/dataset.ts';

/** One row per accident; location_id is the cluster set at ingest (null without coordinates). */
export const PTP_CRASHES = defineDataset({
  name: 'ptp_crashes',
  columns: [
    { name: 'crash_datetime', type: 'TIMESTAMP', notNull: true },
    { name: 'region_code', type: 'VARCHAR', notNull: true },
    { name: 'region', type: 'VARCHAR', notNull: true },
    { name: 'municipality', type: 'VARCHAR' },
    { name: 'location', type: 'VARCHAR' },
    { name: 'crash_type', type: 'VARCHAR' },
    { name: 'ptp_place', type: 'VARCHAR' },
    { name: 'latitude', type: 'DECIMAL(11,8)' },
    { name: 'longitude', type: 'DECIMAL(11,8)' },
    { name: 'died_count', type: 'INTEGER', notNull: true },
    { name: 'injured_count', type: 'INTEGER', notNull: true },
    { name: 'participant_count', type: 'INTEGER' },
    { name: 'is_major', type: 'BOOLEAN', notNull: true },
    { name: 'location_id', type: 'BIGINT' },
    { name: 'source_file', type: 'VARCHAR', notNull: true },
    { name: 'source_row', type: 'INTEGER', notNull: true },
  ],
  orderBy: [
    'crash_datetime', 'region_code', 'municipality', 'location', 'latitude', 'longitude', 'crash_type', 'ptp_place', 'died_count',
    'injured_count', 'participant_count', 'is_major', 'source_file', 'source_row',
  ],
});

/** One row per location cluster of the accidents with coordinates. */
export const PTP_LOCATIONS = defineDataset({
  name: 'ptp_locations',
  columns: [
    { name: 'location_id', type: 'BIGINT', notNull: true },
    { name: 'latitude', type: 'DECIMAL(11,8)', notNull: true },
    { name: 'longitude', type: 'DECIMAL(11,8)', notNull: true },
    { name: 'radius_m', type: 'INTEGER', notNull: true },
    { name: 'region', type: 'VARCHAR', notNull: true },
    { name: 'location', type: 'VARCHAR' },
    { name: 'crash_count', type: 'INTEGER', notNull: true },
  ],
  orderBy: ['location_id'],
  primaryKey: ['location_id'],
});
