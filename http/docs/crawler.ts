// /robots.txt and /sitemap.xml: crawlers may read the documentation, not the paid data routes.
import type { Route } from '../../queries/catalog.ts';
import { groupByDomain } from './domains.ts';

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** The documentation pages, absolute: /api, /api/docs.md, /docs, /docs/<tag>/, /openapi.json, /llms.txt. */
export function documentationUrls(routes: readonly Route[], baseUrl: string): string[] {
  return [
    `${baseUrl}/api`,
    `${baseUrl}/api/docs.md`,
    `${baseUrl}/docs`,
    ...groupByDomain(routes).map(({ domain }) => `${baseUrl}/docs/${encodeURIComponent(domain.tag)}/`),
    `${baseUrl}/openapi.json`,
    `${baseUrl}/llms.txt`,
  ];
}

export function buildSitemap(routes: readonly Route[], baseUrl: string): string {
  const urls = documentationUrls(routes, baseUrl).map((url) => `  <url><loc>${escapeXml(url)}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

export function buildRobots(baseUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /api$',
    'Allow: /api/$',
    'Allow: /api/docs',
    'Allow: /docs',
    'Allow: /openapi.json',
    'Allow: /llms.txt',
    'Allow: /.well-known/x402',
    '# Data routes are paid per request (x402); crawling them only yields 402 challenges.',
    'Disallow: /api/',
    '',
    `Sitemap: ${baseUrl}/sitemap.xml`,
    '',
  ].join('\n');
}
