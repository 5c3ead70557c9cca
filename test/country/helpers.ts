// Country tests: temp folders, an app over a snapshot loaded with the country domain (and the domains
// it depends on), and small writers of source files in the real layouts.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Database } from '../../engine/database.ts';
import { createApp } from '../../http/app.ts';
import { countryDomain } from '../../domains/country/index.ts';
import { loadDomains, loadOrder } from '../../domains/registry.ts';
import { FIXED_NOW, type TestApp } from '../helpers/app.ts';

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

/**
 * The country domain and every domain it depends on (from the list of domains, imported only then, so
 * these tests do not load the other domains' code), in load order.
 */
async function countryDomains() {
  if (!countryDomain.dependsOn?.length) return [countryDomain];
  const { DOMAINS } = await import('../../domains/index.ts');
  const byName = new Map(DOMAINS.map((d) => [d.name, d]));
  const needed = new Map([[countryDomain.name, countryDomain]]);
  const visit = (names: readonly string[] = []) => {
    for (const name of names) {
      const domain = byName.get(name);
      if (!domain) throw new Error(`the country domain depends on ${name}, which is not in domains/index.ts`);
      if (!needed.has(name)) {
        needed.set(name, domain);
        visit(domain.dependsOn);
      }
    }
  };
  visit(countryDomain.dependsOn);
  return loadOrder([...needed.values()]);
}

/** An app serving the country routes over the snapshot in dataDir, on an ephemeral loopback port. */
export async function startCountryApp(dataDir: string): Promise<TestApp> {
  const domains = await countryDomains();
  const db = await Database.open({ connections: 2 });
  await loadDomains(domains, db, dataDir);
  const app = await createApp({ db, routes: countryDomain.routes, now: () => FIXED_NOW, logError: () => undefined });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const request = (p: string, init?: RequestInit) => fetch(base + p, init);
  return {
    db,
    request,
    async get(p, headers = {}) {
      const response = await request(p, { headers });
      const raw = await response.arrayBuffer();
      const text = new TextDecoder().decode(raw);
      const type = response.headers.get('content-type') ?? '';
      return { status: response.status, headers: response.headers, body: type.includes('json') ? JSON.parse(text) : text, raw };
    },
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await db.close();
    },
  };
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
