// Named points in the snapshot commit where a test can inject a failure: a crash (the test's hook
// kills the process: nothing after runs, no cleanup) or an operator error (the hook throws ENOSPC,
// EROFS, ...). Production code never installs a hook; a point is then a no-op.

export type FaultHook = (point: string) => void;

let hook: FaultHook | null = null;

/** Installs (or with null removes) the hook called at every fault point. For tests. */
export function setFaultHook(next: FaultHook | null): void {
  hook = next;
}

/** A step of the commit: calls the installed hook, if any, with the step's name. */
export function faultPoint(point: string): void {
  hook?.(point);
}
