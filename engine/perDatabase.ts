// Kept only for the importers outside engine/ that still name this file (http/server.ts, bench/target.ts):
// every holder is now a held view (engine/held.ts). Import from engine/held.ts; this file then goes.
export { warmHeldState, type WarmResult } from './held.ts';
