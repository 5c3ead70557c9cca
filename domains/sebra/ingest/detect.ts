// Picks the SEBRA parser for a file: .xlsx is the Ministry of Finance sheet; .json is the report tree
// when it has "children", else the data.egov.bg copy of the sheet.
import { extname } from 'node:path';
import { reportFromPortalJson } from './portalJson.ts';
import { readJson } from './readJson.ts';
import { reportFromTree } from './reportTree.ts';
import { MalformedSourceError, type Currency, type SebraDayReport } from './types.ts';
import { parseMofXlsx } from './xlsx.ts';

export interface SebraParseOptions {
  /** Payment date for sources that carry none (the report tree). */
  date?: string;
  /** Currency for sources that do not state it (the report tree). */
  currency?: Currency;
}

export const SEBRA_FILE_EXTENSIONS = ['.xlsx', '.json'] as const;

export async function parseSebraFile(file: string, options: SebraParseOptions = {}): Promise<SebraDayReport> {
  const extension = extname(file).toLowerCase();
  if (extension === '.xlsx') return parseMofXlsx(file);
  if (extension === '.json') {
    const value = await readJson(file);
    const isTree = typeof value === 'object' && value !== null && !Array.isArray(value) && 'children' in value;
    return isTree
      ? reportFromTree(value, file, { paymentDate: options.date, currency: options.currency })
      : reportFromPortalJson(value, file);
  }
  throw new MalformedSourceError(file, null, `unsupported file type "${extension || '(none)'}": expected .xlsx or .json`);
}
