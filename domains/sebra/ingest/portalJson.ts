// The daily report as data.egov.bg serves it (getResourceData): {"success":true,"data":[[row...], ...]}
// with every cell a string; the first array is the sheet's first row. A bare array of rows is accepted too.
import { parseDailyReportRows, type SheetRow } from './dailyReport.ts';
import { readJson } from './readJson.ts';
import { MalformedSourceError, type SebraDayReport } from './types.ts';

/** Builds the report from an already parsed JSON value. */
export function reportFromPortalJson(value: unknown, file: string): SebraDayReport {
  let data: unknown = value;
  if (!Array.isArray(value)) {
    if (typeof value !== 'object' || value === null || !('data' in value)) {
      throw new MalformedSourceError(file, null, 'expected {"success":true,"data":[[...],...]} or an array of rows');
    }
    if ('success' in value && value.success === false) throw new MalformedSourceError(file, null, 'the portal answer says "success": false');
    data = value.data;
  }
  if (!Array.isArray(data)) throw new MalformedSourceError(file, null, '"data" is not an array of rows');
  const rows: SheetRow[] = data.map((row: unknown, index) => {
    if (!Array.isArray(row)) throw new MalformedSourceError(file, index + 1, 'row is not an array of cells');
    return row.map((cell: unknown, column) => {
      if (cell === null || typeof cell === 'string' || typeof cell === 'number') return cell;
      throw new MalformedSourceError(file, index + 1, `cell ${column + 1} is not a string`);
    });
  });
  return parseDailyReportRows(rows, file, 'portal-json');
}

export async function parsePortalJson(file: string): Promise<SebraDayReport> {
  return reportFromPortalJson(await readJson(file), file);
}
