// Ministry of Finance daily report as published (SEBRA-DDMMYYYY.xlsx): the first worksheet,
// read into plain rows and handed to the shared walker.
import ExcelJS from 'exceljs';
import { checkXlsxBounds } from '../../../ingest/zip.ts';
import { parseDailyReportRows, type SheetCell, type SheetRow } from './dailyReport.ts';
import { MalformedSourceError, type SebraDayReport } from './types.ts';

/** A cell's value as text or number: formulas give their cached result, rich text its plain text. */
function sheetCell(value: ExcelJS.CellValue): SheetCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('formula' in value || 'sharedFormula' in value) return sheetCell((value.result ?? null) as ExcelJS.CellValue);
  if ('hyperlink' in value) return value.text;
  if ('error' in value) return value.error;
  return null;
}

/** Rows of the first worksheet; index i is sheet row i+1 (missing rows are empty). */
export async function readFirstSheetRows(file: string): Promise<SheetRow[]> {
  // Entries, unzipped bytes, rows, cells and shared strings within ingest/bounds.ts before exceljs reads it whole.
  await checkXlsxBounds(file, file);
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.readFile(file);
  } catch (error) {
    throw new MalformedSourceError(file, null, `not a readable XLSX workbook: ${error instanceof Error ? error.message : String(error)}`);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new MalformedSourceError(file, null, 'the workbook has no worksheet');
  const rows: SheetRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const cells: SheetCell[] = [];
    for (let column = 1; column <= 4; column++) {
      const cell = row.getCell(column);
      // A merged cell repeats its master's value; only the master holds it.
      cells.push(cell.type === ExcelJS.ValueType.Merge ? null : sheetCell(cell.value));
    }
    while (rows.length < rowNumber - 1) rows.push([]);
    rows.push(cells);
  });
  return rows;
}

export async function parseMofXlsx(file: string): Promise<SebraDayReport> {
  return parseDailyReportRows(await readFirstSheetRows(file), file, 'mof-xlsx');
}
