// EU member states (code <-> English name) and a resolver that accepts either, in any case.
// Codes follow the EU's own convention (Eurostat / agri-food portal): Greece is EL, not GR;
// GR and GB/UK are accepted as aliases of EL and of the United Kingdom (present in old series).

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
