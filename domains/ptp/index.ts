// PTP: road accident reports of the national interior ministry and clusters of deadly crash locations.
import { defineDomain } from '../contract.ts';
import { ptpIngestCommand } from './ingest/command.ts';
import { ptpSampleSource } from './ingest/sampleSource.ts';
import { getPtpPerCity, getPtpPerRegion } from './queries/crashes.ts';
import { getMostDeadlyLocations } from './queries/deadly.ts';
import { loadPtp } from './queries/tables.ts';

export const ptpDomain = defineDomain({
  name: 'ptp',
  tags: [{ tag: 'ptp', title: 'Road accidents (PTP)', description: 'Road accident reports of a national interior ministry and clusters of deadly crash locations.' }],
  routes: [getPtpPerCity, getPtpPerRegion, getMostDeadlyLocations],
  load: loadPtp,
  sources: [{ command: ptpIngestCommand, sample: ptpSampleSource }],
});
