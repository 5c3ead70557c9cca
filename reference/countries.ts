// EU member states (code <-> English name) and a resolver that accepts either, in any case.
// Codes follow the EU's own convention (Eurostat / agri-food portal): Greece is EL, not GR;
// GR and GB/UK are accepted as aliases of EL and of the United Kingdom (present in old series).

import isoCountries from './isoCountries.ts';

export interface MemberState {
  code: string;
  name: string;
}

/** The 27 member states, in code order, with the United Kingdom (member until 2020, in older data). */
export const MEMBER_STATES: readonly MemberState[] = [
  { code: 'AT', name: 'Austria' },
  { code: 'BE', name: 'Belgium' },
  { code: 'BG', name: 'Bulgaria' },
  { code: 'CY', name: 'Cyprus' },
  { code: 'CZ', name: 'Czechia' },
  { code: 'DE', name: 'Germany' },
  { code: 'DK', name: 'Denmark' },
  { code: 'EE', name: 'Estonia' },
  { code: 'EL', name: 'Greece' },
  { code: 'ES', name: 'Spain' },
  { code: 'FI', name: 'Finland' },
  { code: 'FR', name: 'France' },
  { code: 'HR', name: 'Croatia' },
  { code: 'HU', name: 'Hungary' },
  { code: 'IE', name: 'Ireland' },
  { code: 'IT', name: 'Italy' },
  { code: 'LT', name: 'Lithuania' },
  { code: 'LU', name: 'Luxembourg' },
  { code: 'LV', name: 'Latvia' },
  { code: 'MT', name: 'Malta' },
  { code: 'NL', name: 'Netherlands' },
  { code: 'PL', name: 'Poland' },
  { code: 'PT', name: 'Portugal' },
  { code: 'RO', name: 'Romania' },
  { code: 'SE', name: 'Sweden' },
  { code: 'SI', name: 'Slovenia' },
  { code: 'SK', name: 'Slovakia' },
  { code: 'UK', name: 'United Kingdom' },
];

/** Other spellings seen in EU sources, folded to the canonical code. */
const ALIASES: Record<string, string> = {
  gr: 'EL',
  gb: 'UK',
  'czech republic': 'CZ',
  'the netherlands': 'NL',
  'slovak republic': 'SK',
  'great britain': 'UK',
};

const byKey = new Map<string, MemberState>();
for (const state of MEMBER_STATES) {
  byKey.set(state.code.toLowerCase(), state);
  byKey.set(state.name.toLowerCase(), state);
}
for (const [alias, code] of Object.entries(ALIASES)) byKey.set(alias, byKey.get(code.toLowerCase())!);

function key(input: string): string {
  return input.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The member state with this code or name (any case, surrounding spaces ignored), or null. */
export function findMemberState(input: string): MemberState | null {
  return byKey.get(key(input)) ?? null;
}

/** The member state's name for a code (any case), or null when the code is not a member state. */
export function memberStateName(code: string): string | null {
  return findMemberState(code)?.name ?? null;
}

/** A country of ISO 3166-1 (codes and English names from the maintained i18n-iso-countries tables). */
export interface IsoCountry {
  /** ISO 3166-1 alpha-2 (Greece GR, the United Kingdom GB). */
  iso2: string;
  iso3: string;
  /** The code EU statistics use: alpha-2 except Greece EL and the United Kingdom UK. */
  eu: string;
  name: string;
}

const EU_CODE_OF_ISO2 = new Map([['GR', 'EL'], ['GB', 'UK']]);
const ISO2_OF_EU_CODE = new Map([['EL', 'GR'], ['UK', 'GB']]);

function isoCountry(iso2: string): IsoCountry | null {
  const iso3 = isoCountries.alpha2ToAlpha3(iso2);
  const name = isoCountries.getName(iso2, 'en');
  if (!iso3 || !name) return null;
  return { iso2, iso3, eu: EU_CODE_OF_ISO2.get(iso2) ?? iso2, name };
}

/** An ISO alpha-2 code (EL and UK accepted as the EU's codes for GR and GB), any case; null when none. */
export function findIsoCountryByAlpha2(code: string): IsoCountry | null {
  const upper = code.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(upper)) return null;
  return isoCountry(ISO2_OF_EU_CODE.get(upper) ?? upper);
}

/** An ISO alpha-3 code, any case; null when none. */
export function findIsoCountryByAlpha3(code: string): IsoCountry | null {
  const upper = code.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(upper)) return null;
  const iso2 = isoCountries.alpha3ToAlpha2(upper);
  return iso2 ? isoCountry(iso2) : null;
}
