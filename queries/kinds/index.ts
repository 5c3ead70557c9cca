// Parameter kinds: declare a route's inputs with these, and its handler receives typed, resolved values.
export { aliasCheck, aliasValue, requiredAliasCheck, type AliasValue } from './alias.ts';
export { isoCountry, memberState, parseIsoCountry, resolveMemberState, type Country, type IsoForms } from './country.ts';
export { checkByResolving, defineKind, type Kind, type KindValue, type Resolved } from './kind.ts';
export { parseCommaList, type CommaListOptions } from './list.ts';
export { limitSpec, offsetSpec, page, pagedBody, pagedBodySchema, pagedList, pageFieldSchemas, type Page, type PageOptions } from './page.ts';
export { dayWindow, parsePeriodBound, periodWindow, yearSpec, type DayWindow, type PeriodWindow } from './window.ts';
