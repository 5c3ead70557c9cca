// The tables several domains read through a generic reader under ingest/, and the reader's ingest
// command. A domain that reads them lists them in `uses` (domains/contract.ts); none of them owns the
// command, so no domain has to be present for another's files to be ingestible.
import { eurostatIngestCommand } from '../ingest/eurostat/command.ts';
import { loadEurostat } from '../ingest/eurostat/load.ts';
import { worldBankIngestCommand } from '../ingest/worldbank/command.ts';
import { loadWorldBank } from '../ingest/worldbank/load.ts';
import type { SharedTables } from './contract.ts';

/** estat_observations and estat_datasets: any Eurostat dataset (energy's flagships, macro's HICP). */
export const eurostatTables: SharedTables = { name: 'eurostat', command: eurostatIngestCommand, load: loadEurostat };

/** wdi_observations, wdi_indicators and wdi_countries: World Bank WDI indicators (energy's profile, country's devbank). */
export const worldBankTables: SharedTables = { name: 'worldbank', command: worldBankIngestCommand, load: loadWorldBank };
