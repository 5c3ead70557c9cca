// The free documentation and discovery paths, generated from the catalog. Each artefact is built
// once per app on first use (the catalog and the base address do not change while serving) and
// sent with public caching; their ETag and the 304 on a matching If-None-Match are the pipeline's one
// rule (http/pipeline/entityTags.ts). HEAD is answered by the same routes without a body.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Route } from '../../queries/catalog.ts';
import { readConfig } from '../config.ts';
import { errorBody } from '../errors.ts';
import { buildRobots, buildSitemap } from './crawler.ts';
import { buildWellKnownX402 } from './discovery.ts';
import { HTML_CSP, buildApiPage, buildDocsIndex, buildDomainPage, buildNotFoundPage } from './html.ts';
import { buildLlmsTxt } from './llms.ts';
import { buildMarkdown, type DocsInput } from './markdown.ts';
import { buildOpenApi } from './openapi.ts';
import type { SnapshotDocsFacts } from './exampleAnswers.ts';
import { paymentInfoFromSettings, type PaymentInfo, type PaymentRequirementsFor } from './paymentInfo.ts';
import { answeredWithDocument } from '../pipeline/documentAnswer.ts';

export { defaultPaymentInfo, paymentInfoFromSettings, type PaymentInfo, type PaymentRequirementsFor } from './paymentInfo.ts';

export interface DocsOptions {
  routes: readonly Route[];
  /** The public address (BASE_URL) used in every absolute link, without a trailing slash. */
  baseUrl: string;
  payment: PaymentInfo;
  /** The x402 route table's requirements per paid path form; default: built from `payment`. */
  paymentRequirementsFor?: PaymentRequirementsFor;
  /** Clock for the discovery items' lastUpdated (when the documents were built). */
  now?: () => Date;
  /**
   * The served snapshot's example answers and data origin (http/docs/exampleAnswers.ts), asked for
   * once, before the first document is built; without it the documents show no example answers.
   */
  facts?: () => Promise<SnapshotDocsFacts>;
}

/** Seconds a client or proxy may reuse a document before asking again (with its ETag). */
export const DOCS_MAX_AGE = 300;

interface Artefact {
  body: Buffer;
  type: string;
  html: boolean;
}

const HTML = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

function artefact(text: string, type: string): Artefact {
  return { body: Buffer.from(text, 'utf8'), type, html: type === HTML };
}

function send(ctx: Koa.Context, document: Artefact): void {
  // Cache-Control: public, max-age=DOCS_MAX_AGE (http/pipeline/responseHeaders.ts); ETag and 304: http/pipeline/entityTags.ts.
  answeredWithDocument(ctx, 'document');
  if (document.html) ctx.set('Content-Security-Policy', HTML_CSP);
  else ctx.set('Access-Control-Allow-Origin', '*');
  ctx.type = document.type;
  ctx.status = 200;
  ctx.body = document.body;
}

function notFound(ctx: Koa.Context, input: DocsInput): void {
  answeredWithDocument(ctx, 'missing-document'); // Cache-Control: no-cache (http/pipeline/responseHeaders.ts)
  ctx.vary('Accept'); // HTML or JSON by Accept
  if (ctx.accepts('json', 'html') === 'html') {
    ctx.set('Content-Security-Policy', HTML_CSP);
    ctx.type = HTML;
    ctx.body = buildNotFoundPage(input, ctx.path);
  } else {
    ctx.type = JSON_TYPE;
    ctx.body = errorBody(404, 'not_found', `no documentation for ${ctx.path}; the domains are listed at /docs`);
  }
  ctx.status = 404;
}

export function docsRouter(options: DocsOptions): Router {
  const baseUrl = options.baseUrl.replace(/(?<!\/)\/+$/, '');
  const input: DocsInput = { routes: options.routes, baseUrl, payment: options.payment };
  const now = options.now ?? (() => new Date());
  // The served snapshot's facts (example answers, sample or imported) join the input; without them, none.
  // The documents are built once per facts: a reload to another snapshot gives new facts, and they are rebuilt.
  const cache = new Map<string, Artefact | null>();
  let factsInUse: Promise<SnapshotDocsFacts> | undefined;
  let withFacts: Promise<DocsInput> = Promise.resolve(input);
  const documentInput = (): Promise<DocsInput> => {
    const facts = options.facts?.();
    if (facts && facts !== factsInUse) {
      factsInUse = facts;
      cache.clear();
      withFacts = facts.then((found) => ({ ...input, examples: found.examples, dataOrigin: found.dataOrigin }), () => input);
    }
    return withFacts;
  };
  const cached = async (key: string, build: (input: DocsInput) => Artefact | null): Promise<Artefact | null> => {
    const current = await documentInput();
    if (!cache.has(key)) cache.set(key, build(current));
    return cache.get(key)!;
  };
  const serve = (key: string, build: (input: DocsInput) => Artefact): Koa.Middleware => async (ctx) => send(ctx, (await cached(key, build))!);

  const apiPage = serve('api', (input) => artefact(buildApiPage(input), HTML));
  const docsIndex = serve('docs', (input) => artefact(buildDocsIndex(input), HTML));
  const tags = new Set(options.routes.map((route) => route.tag));

  const router = new Router({ strict: true });
  router.get('/api', apiPage);
  router.get('/api/', apiPage);
  router.get('/api/docs', apiPage);
  router.get('/api/docs.md', serve('markdown', (input) => artefact(buildMarkdown(input), 'text/markdown; charset=utf-8')));
  router.get('/docs', docsIndex);
  router.get('/docs/', docsIndex);
  router.get('/docs/:category/', async (ctx) => {
    const category = ctx.params.category!;
    const page = tags.has(category) ? await cached(`docs/${category}`, (input) => artefact(buildDomainPage(input, category)!, HTML)) : null;
    if (!page) return notFound(ctx, input);
    send(ctx, page);
  });
  router.get('/docs/:category', (ctx) => {
    if (!tags.has(ctx.params.category!)) return notFound(ctx, input);
    ctx.status = 301;
    ctx.redirect(`/docs/${encodeURIComponent(ctx.params.category!)}/`);
  });
  router.get('/openapi.json', serve('openapi', (input) => artefact(JSON.stringify(buildOpenApi(input), null, 2), JSON_TYPE)));
  router.get('/llms.txt', serve('llms', (input) => artefact(buildLlmsTxt(input), 'text/plain; charset=utf-8')));
  router.get('/.well-known/x402', serve('x402', (current) =>
    artefact(JSON.stringify(buildWellKnownX402({ ...current, paymentRequirementsFor: options.paymentRequirementsFor, lastUpdated: now().toISOString() }), null, 2), JSON_TYPE)));
  router.get('/robots.txt', serve('robots', () => artefact(buildRobots(baseUrl), 'text/plain; charset=utf-8')));
  router.get('/sitemap.xml', serve('sitemap', () => artefact(buildSitemap(options.routes, baseUrl), 'application/xml; charset=utf-8')));
  return router;
}

/** The router's routes and its 405 answers (with Allow) for other methods on the free paths. */
export function docsMiddleware(options: DocsOptions): Koa.Middleware {
  const router = docsRouter(options);
  const routes = router.routes() as unknown as Koa.Middleware;
  const allowed = router.allowedMethods() as unknown as Koa.Middleware;
  return (ctx, next) => routes(ctx, () => allowed(ctx, next));
}

/** The defaults of a server started from the environment: BASE_URL and the configured payment facts. */
export function docsDefaults(): Pick<DocsOptions, 'baseUrl' | 'payment'> {
  const config = readConfig();
  return { baseUrl: config.baseUrl, payment: paymentInfoFromSettings(config.payments) };
}
