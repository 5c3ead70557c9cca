// Temp folders and small writers of OECD files in the real layouts, for the country tests.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), `country-${prefix}-`));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

export async function writeText(dir: string, name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, text);
  return file;
}

/** A legacy data.oecd.org export (BOM, quoted header, CRLF) of [LOCATION, INDICATOR, SUBJECT, MEASURE, FREQUENCY, TIME, Value]. */
export function legacyCsv(rows: ReadonlyArray<readonly [string, string, string, string, string, string, string]>): string {
  const header = '"LOCATION","INDICATOR","SUBJECT","MEASURE","FREQUENCY","TIME","Value","Flag Codes"';
  return '\uFEFF' + [header, ...rows.map(([l, i, s, m, f, t, v]) => `"${l}","${i}","${s}","${m}","${f}","${t}",${v},`)].join('\r\n') + '\r\n';
}

/** A Data Explorer csvfilewithlabels file of the CLI dataflow: rows [REF_AREA, label, MEASURE, ADJUSTMENT, TRANSFORMATION, TIME_PERIOD, OBS_VALUE]. */
export function sdmxLabelsCsv(rows: ReadonlyArray<readonly [string, string, string, string, string, string, string]>): string {
  const header =
    'STRUCTURE,STRUCTURE_ID,STRUCTURE_NAME,ACTION,REF_AREA,Reference area,FREQ,Frequency of observation,MEASURE,Measure,UNIT_MEASURE,Unit of measure,' +
    'ACTIVITY,Economic activity,ADJUSTMENT,Adjustment,TRANSFORMATION,Transformation,TIME_HORIZ,Time horizon,METHODOLOGY,Calculation methodology,' +
    'TIME_PERIOD,Time period,OBS_VALUE,Observation value,OBS_STATUS,Observation status,UNIT_MULT,Unit multiplier,DECIMALS,Decimals,BASE_PER,Base period';
  const lines = rows.map(([area, label, measure, adjustment, transformation, period, value]) =>
    `DATAFLOW,OECD.SDD.STES:DSD_STES@DF_CLI(4.1),Composite leading indicators,I,${area},"${label}",M,Monthly,${measure},Measure,IX,Index,_Z,Not applicable,` +
    `${adjustment},Adj,${transformation},Tr,_Z,Not applicable,H,OECD harmonised,${period},,${value},,A,Normal value,0,Units,2,Two,,`);
  return [header, ...lines].join('\n') + '\n';
}

/** A Data Explorer `format=csv` file: rows [REF_AREA, FREQ, MEASURE, UNIT_MEASURE, ACTIVITY, ADJUSTMENT, TRANSFORMATION, TIME_PERIOD, OBS_VALUE]. */
export function sdmxCsv(dataflow: string, rows: ReadonlyArray<readonly [string, string, string, string, string, string, string, string, string]>): string {
  const header = 'DATAFLOW,REF_AREA,FREQ,MEASURE,UNIT_MEASURE,ACTIVITY,ADJUSTMENT,TRANSFORMATION,TIME_HORIZ,METHODOLOGY,TIME_PERIOD,OBS_VALUE,OBS_STATUS,UNIT_MULT,DECIMALS';
  return [header, ...rows.map(([area, freq, measure, unit, activity, adjustment, transformation, period, value]) =>
    `${dataflow},${area},${freq},${measure},${unit},${activity},${adjustment},${transformation},_Z,H,${period},${value},A,0,2`)].join('\n') + '\n';
}
