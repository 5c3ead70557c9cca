// The energy domain's own snapshot tables (the EU ETS), declared once for the writer
// (ingest/etsSnapshot.ts) and the loader. The Eurostat and WDI tables are the generic readers'
// (ingest/eurostat/tables.ts, ingest/worldbank/tables.ts).
import { defineDataset } from '../../engine/dataset.ts';

/** One row per installation, keyed on (registry_code, installation_identifier). */
export const ETS_INSTALLATIONS = defineDataset({
  name: 'ets_installations',
  columns: [
    { name: 'registry_code', type: 'VARCHAR', notNull: true },
    { name: 'installation_identifier', type: 'VARCHAR', notNull: true },
    { name: 'installation_name', type: 'VARCHAR' },
    { name: 'permit_identifier', type: 'VARCHAR' },
    { name: 'main_activity_code', type: 'INTEGER' },
    { name: 'city', type: 'VARCHAR' },
    { name: 'source_file', type: 'VARCHAR', notNull: true },
    { name: 'file_hash', type: 'VARCHAR', notNull: true },
  ],
  orderBy: ['registry_code', 'installation_identifier'],
});

/** One row per installation-year with a verified emission or an allocation (t CO2e / allowances; null when not published). */
export const ETS_EMISSIONS = defineDataset({
  name: 'ets_emissions',
  columns: [
    { name: 'registry_code', type: 'VARCHAR', notNull: true },
    { name: 'installation_identifier', type: 'VARCHAR', notNull: true },
    { name: 'year', type: 'INTEGER', notNull: true },
    { name: 'verified_emissions', type: 'BIGINT' },
    { name: 'allocation', type: 'BIGINT' },
    { name: 'source_file', type: 'VARCHAR', notNull: true },
    { name: 'source_row', type: 'INTEGER', notNull: true },
    { name: 'file_hash', type: 'VARCHAR', notNull: true },
  ],
  orderBy: ['registry_code', 'installation_identifier', 'year'],
});
