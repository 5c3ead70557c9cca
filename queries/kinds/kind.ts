// A parameter kind bundles what one kind of input needs: the parameters it declares (JSON Schema,
// shown in the docs and checked by the validator), its cross-field checks (400s before any payment)
// and its resolver, which turns the validated text into the typed value a handler receives.
import type { CrossFieldCheck, ParamSpec, RouteContext } from '../catalog.ts';

export interface Kind<T> {
  params: Record<string, ParamSpec>;
  checks?: ReadonlyArray<CrossFieldCheck<Record<string, unknown>>>;
  resolve(params: Record<string, unknown>, context: RouteContext): T | Promise<T>;
}

/** The value type of a kind. */
export type KindValue<K> = K extends Kind<infer T> ? T : never;

/** The typed values of a route's inputs. */
export type Resolved<K> = { [N in keyof K]: KindValue<K[N]> };

/** Declares a kind (identity: the type is the contract). */
export function defineKind<T>(kind: Kind<T>): Kind<T> {
  return kind;
}

/** Parameters and checks of several kinds, for the route declaration. */
export function kindParams(inputs: Readonly<Record<string, Kind<unknown>>>): {
  params: Record<string, ParamSpec>;
  checks: Array<CrossFieldCheck<Record<string, unknown>>>;
} {
  const params: Record<string, ParamSpec> = {};
  const checks: Array<CrossFieldCheck<Record<string, unknown>>> = [];
  for (const kind of Object.values(inputs)) {
    Object.assign(params, kind.params);
    checks.push(...(kind.checks ?? []));
  }
  return { params, checks };
}

/** Resolves every input of a route, in declaration order. */
export async function resolveInputs(
  inputs: Readonly<Record<string, Kind<unknown>>>,
  params: Record<string, unknown>,
  context: RouteContext,
): Promise<Record<string, unknown>> {
  const resolved: Record<string, unknown> = {};
  for (const [name, kind] of Object.entries(inputs)) resolved[name] = await kind.resolve(params, context);
  return resolved;
}

/** A check that runs a resolver only for its 400s (pure resolvers: dates, lists). */
export function checkByResolving(name: string, description: string, resolve: (params: Record<string, unknown>) => unknown): CrossFieldCheck<Record<string, unknown>> {
  return {
    name,
    description,
    check: (params) => {
      try {
        resolve(params);
        return null;
      } catch (error) {
        if (error instanceof Error && error.name === 'ApiError') return error as never;
        throw error;
      }
    },
  };
}

/** A parameter that needs no resolution, as a kind: its validated value, or null when absent. */
export function plain<T>(name: string, spec: ParamSpec): Kind<T | null> {
  return defineKind({ params: { [name]: spec }, resolve: (raw) => (raw[name] === undefined ? null : (raw[name] as T)) });
}
