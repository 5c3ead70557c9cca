// A CPU profile of the measured process over one load run (node:inspector, in-process), written as a
// .cpuprofile (open it in Chrome DevTools or speedscope) and summarised as the functions with the
// most self time, so the report shows where a warm request's time goes.
import { Session } from 'node:inspector/promises';
import { writeFile } from 'node:fs/promises';

export interface ProfileLine {
  /** function (file:line), shortened to the project or package path. */
  where: string;
  selfMs: number;
  /** Share of the non-idle samples. */
  share: number;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The functions with the most self time (idle and the profiler's own excluded), largest first. */
export function topSelfTime(profile: CpuProfile, count = 15): ProfileLine[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const inspector = profilerOwnNodes(profile);
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    if (!frame || frame.functionName === '(idle)' || frame.functionName === '(program)' || inspector.has(id)) return;
    const file = frame.url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '').replace(/^.*\/main\//, '');
    const where = `${frame.functionName || '(anonymous)'} ${file ? `${file}:${frame.lineNumber + 1}` : ''}`.trim();
    const micros = profile.timeDeltas[i] ?? 0;
    self.set(where, (self.get(where) ?? 0) + micros);
    total += micros;
  });
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, count)
    .map(([where, micros]) => ({ where, selfMs: micros / 1000, share: total > 0 ? micros / total : 0 }));
}

/** The nodes called from node:inspector (the profiler stopping and serialising itself), not the measured work. */
function profilerOwnNodes(profile: CpuProfile): Set<number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const own = new Set<number>();
  const mark = (id: number, under: boolean) => {
    const node = byId.get(id);
    if (!node) return;
    const inside = under || node.callFrame.url === 'node:inspector';
    if (inside) own.add(id);
    for (const child of node.children ?? []) mark(child, inside);
  };
  const children = new Set(profile.nodes.flatMap((node) => node.children ?? []));
  for (const node of profile.nodes) if (!children.has(node.id)) mark(node.id, false);
  return own;
}

/** Starts profiling this process; the returned stop() writes the profile to `file` and summarises it. */
export async function startProfile(): Promise<{ stop(file: string): Promise<ProfileLine[]> }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      await writeFile(file, JSON.stringify(profile));
      return topSelfTime(profile as unknown as CpuProfile);
    },
  };
}
