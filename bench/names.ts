// What the benchmark's usages name, kept apart from the modules that use it (bench/data.ts,
// bench/refresh.ts load the domains), so `--help` loads nothing heavy (bin/commandLine.ts).

/** The scales, smallest first: x1 is the sample itself; bench/data.ts gives each its factors. */
export const TIER_NAMES = ['x1', 'x10', 'x100'] as const;

/** The source the refresh measurement refreshes (bench/refresh.ts). */
export const REFRESH_SOURCE = 'ecb';
