// The catalog's example requests, resolved the way the router resolves them: the path form they
// match, the path and query parameters, and the validated parameters the handler receives.
import { exampleRequests, type Route } from '../queries/catalog.ts';
import { buildBodyValidator } from '../http/body.ts';
import { buildValidator, type RawQuery } from '../http/validate.ts';

export interface BenchCase {
  routeId: string;
  tag: string;
  /** The example as written in the catalog (path and query). */
  url: string;
  /** The path form it matches, e.g. /api/sebra/getTaxonomyForYear/{year}. */
  pathTemplate: string;
  /** Validated, typed parameters, as the handler receives them. */
  params: Record<string, unknown>;
  method: 'GET' | 'POST';
  /** The JSON body of a POST route's sample, validated, as the handler receives it (context.body). */
  body?: Record<string, unknown>;
}

function templateRegex(template: string): { regex: RegExp; names: string[] } {
  const names: string[] = [];
  const pattern = template
    .split(/(\{[^{}]+\})/)
    .map((part) => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (name) {
        names.push(name);
        return '([^/]+)';
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return { regex: new RegExp(`^${pattern}$`), names };
}

/** The path form of `route` that `pathname` matches, with its path parameters; null when none does. */
export function matchPathForm(route: Route, pathname: string): { template: string; pathParams: Record<string, string> } | null {
  for (const template of route.paths) {
    const { regex, names } = templateRegex(template);
    const match = regex.exec(pathname);
    if (!match) continue;
    const pathParams: Record<string, string> = {};
    names.forEach((name, i) => (pathParams[name] = decodeURIComponent(match[i + 1])));
    return { template, pathParams };
  }
  return null;
}

/** Query string -> the raw query Koa would hand the validator (repeated keys become arrays). */
export function rawQuery(search: string): RawQuery {
  const query: RawQuery = {};
  for (const [key, value] of new URLSearchParams(search)) {
    const seen = query[key];
    query[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return query;
}

/** Every sample request of every route (a POST route's paths with each sample body), in catalog order; one that matches no path form or fails validation throws. */
export function benchCases(routes: readonly Route[]): BenchCase[] {
  const cases: BenchCase[] = [];
  for (const route of routes) {
    const validateBody = route.requestBody ? buildBodyValidator(route.requestBody) : null;
    for (const { url, method, body } of exampleRequests(route)) {
      const parsed = new URL(url, 'http://bench.invalid');
      const form = matchPathForm(route, parsed.pathname);
      if (!form) throw new Error(`${route.id}: example ${url} matches none of its path forms`);
      const params = buildValidator(route, form.template)(rawQuery(parsed.search), form.pathParams);
      const validated = validateBody ? validateBody(body) : undefined;
      cases.push({ routeId: route.id, tag: route.tag, url, pathTemplate: form.template, params, method, ...(validated ? { body: validated } : {}) });
    }
  }
  return cases;
}
