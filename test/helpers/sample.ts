// Shared by the parity tests that compare held answers with their statements: every combination of a few
// parameter lists repeats the same comparison many times over, so they check a deterministic part of the
// combinations and, always, the edge cases each test names.

/** Every combination of the lists, the last list varying fastest. */
export function combinations<T extends unknown[]>(...lists: { [K in keyof T]: readonly T[K][] }): T[] {
  let combos: unknown[][] = [[]];
  for (const list of lists) combos = combos.flatMap((combo) => list.map((value) => [...combo, value]));
  return combos as T[];
}

/**
 * Every `stride`-th item (the first included), and every item `keep` names: a stride coprime with the inner
 * lists' lengths still pairs each value of every list with several values of the others.
 */
export function strided<T>(items: readonly T[], stride: number, keep: (item: T) => boolean = () => false): T[] {
  return items.filter((item, i) => i % stride === 0 || keep(item));
}
