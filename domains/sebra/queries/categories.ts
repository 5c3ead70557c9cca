// Taxonomy of SEBRA spend: each 2-digit payment code (and each line printed without a code)
// belongs to one bucket. docs/sebra-taxonomy.md explains the choices; keep the two in step
// (test/queries/sebra-taxonomy-doc.test.ts fails when they differ).

export type CategoryKey = 'salaries' | 'maintenance' | 'capital' | 'social' | 'transfers' | 'taxes' | 'other';

export interface Category {
  key: CategoryKey;
  /** Bulgarian label shown as `category`. */
  label: string;
  /** Shown with amount 0 even when a window has no spend in it. */
  alwaysPresent: boolean;
  /** Tie-break order when two buckets have equal amounts. */
  order: number;
}

export const CATEGORIES: readonly Category[] = [
  { key: 'salaries', label: 'Заплати и възнаграждения', alwaysPresent: true, order: 1 },
  { key: 'maintenance', label: 'Издръжка', alwaysPresent: true, order: 2 },
  { key: 'capital', label: 'Капиталови разходи', alwaysPresent: true, order: 3 },
  { key: 'social', label: 'Социални плащания', alwaysPresent: false, order: 4 },
  { key: 'transfers', label: 'Трансфери и субсидии', alwaysPresent: false, order: 5 },
  { key: 'taxes', label: 'Данъци и осигурителни вноски', alwaysPresent: false, order: 6 },
  { key: 'other', label: 'Други плащания', alwaysPresent: false, order: 7 },
];

/** Payment code -> bucket. Codes not listed fall into `other`. */
export const CATEGORY_BY_CODE: Readonly<Record<string, CategoryKey>> = {
  '01': 'salaries', // net pay to staff
  '03': 'salaries', // other deductions from pay, paid on the staff's behalf
  '02': 'taxes', // income tax and contributions withheld from pay
  '05': 'taxes', // social-security contributions paid by the employer
  '10': 'maintenance',
  '50': 'capital',
  '40': 'social', // scholarships, pensions, benefits to households
  '30': 'transfers', // current subsidies to enterprises
  '60': 'transfers', // transfers between budget and extra-budgetary accounts
};

/** Lines printed without a code (central-budget lines for municipalities), matched by description. */
const UNCODED_BY_DESCRIPTION: ReadonlyArray<[RegExp, CategoryKey]> = [
  [/капиталови/i, 'capital'], // "Целева субсидия за капиталови разходи"
  [/субсидия|трансфер/i, 'transfers'], // general subsidy for delegated activities, transfers for local activities
];

export function categoryKeyFor(accountCode: string, description: string): CategoryKey {
  if (accountCode !== '') return (Object.hasOwn(CATEGORY_BY_CODE, accountCode) ? CATEGORY_BY_CODE[accountCode] : undefined) ?? 'other';
  for (const [pattern, key] of UNCODED_BY_DESCRIPTION) if (pattern.test(description)) return key;
  return 'other';
}
