// The PTP domain (road accidents): its routes and how its tables are loaded.
import { getPtpPerCity, getPtpPerRegion } from './crashes.ts';
import { getMostDeadlyLocations } from './deadly.ts';
import { loadPtp } from './tables.ts';

export const ptpRoutes = [getPtpPerCity, getPtpPerRegion, getMostDeadlyLocations];

export { loadPtp };
