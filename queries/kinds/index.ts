// Parameter kinds: declare a route's inputs with these, and its handler receives typed, resolved values.
export { aliasCheck, aliased, aliasValue, requiredAliasCheck, type AliasedOptions, type AliasValue } from './alias.ts';
export { isoCountry, memberState, parseIsoCountry, resolveMemberState, type Country, type IsoForms, type MemberStateOptions } from './country.ts';
export { checkByResolving, defineKind, plain, type Kind, type KindValue, type Resolved } from './kind.ts';
export { knownId, type KnownIdOptions } from './known.ts';
export { commaList, parseCommaList, type CommaListKindOptions, type CommaListOptions } from './list.ts';
export {
  limitSpec, MAX_OPEN_LIMIT, offsetSpec, page, pagedBody, pagedBodySchema, pagedList, pageFieldSchemas, pageOfRows, paginate,
  PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, type ListPage, type Page, type PageOfRows, type PageOptions,
} from './page.ts';
export { threshold, type ThresholdOptions } from './threshold.ts';
export {
  dayWindow, isoDay, MAX_YEAR, MIN_YEAR, parsePeriodBound, periodWindow, yearSpec, type DayWindow, type PeriodWindow,
} from './window.ts';
