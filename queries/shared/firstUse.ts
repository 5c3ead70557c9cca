// Modules loaded on first use rather than at import: a process that never needs one (a query CLI, a
// test, a server before its first such request) does not pay for loading it. Each is declared once,
// where it is used, with loadOnFirstUse; the server loads every declared one in the background once
// it listens (loadDeclaredModules, http/server.ts), so that no client's request waits for one.

const declared = new Set<() => Promise<unknown>>();

/** A loader of `load`'s module that loads it once (again after a failure), declared for loadDeclaredModules. */
export function loadOnFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  const get = (): Promise<T> => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  declared.add(get);
  return get;
}

/** Loads every module declared so far; one that fails is left for the request that needs it to report. */
export async function loadDeclaredModules(): Promise<void> {
  await Promise.all([...declared].map((get) => get().catch(() => undefined)));
}
