// The docs groups (catalog tags) with their titles and descriptions, as each domain declares them.
// Their order is the order of the docs; a tag no domain declares still gets a page (titled by its
// tag) so a route is never left out of the documents.
import type { DomainTag } from '../../domains/contract.ts';
import { DOMAINS as ALL_DOMAINS } from '../../domains/index.ts';
import { tagsOf } from '../../domains/registry.ts';
import type { Route } from '../../queries/catalog.ts';

/** The docs groups of the registered domains, in the list's order. */
const DOCS_GROUPS: readonly DomainTag[] = tagsOf(ALL_DOMAINS);

export function domainOf(tag: string): DomainTag {
  return DOCS_GROUPS.find((domain) => domain.tag === tag) ?? { tag, title: tag, description: '' };
}

export interface DomainRoutes {
  domain: DomainTag;
  routes: Route[];
}

/** The catalog grouped by tag: known domains in the table's order, then unknown tags alphabetically. */
export function groupByDomain(routes: readonly Route[]): DomainRoutes[] {
  const tags = [...new Set(routes.map((route) => route.tag))];
  const position = (tag: string) => {
    const index = DOCS_GROUPS.findIndex((domain) => domain.tag === tag);
    return index === -1 ? DOCS_GROUPS.length : index;
  };
  tags.sort((a, b) => position(a) - position(b) || a.localeCompare(b));
  return tags.map((tag) => ({ domain: domainOf(tag), routes: routes.filter((route) => route.tag === tag) }));
}
