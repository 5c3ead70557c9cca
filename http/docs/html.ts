// The HTML documentation: /api (everything on one page), /docs (the domains) and /docs/<tag>/
// (one domain). Own template, no external CSS, scripts or fonts; the one inline style and script
// are allowed by hash in the Content-Security-Policy the router sends with every page.
import { createHash } from 'node:crypto';
import type { Route } from '../../queries/catalog.ts';
import { CLIENT_EXAMPLE_PATH, ERRORS_SUMMARY, FREE_PATHS, SERVICE_SUMMARY, SERVICE_TITLE, clientSnippet, paymentFacts, payingSteps } from './content.ts';
import { domainOf, groupByDomain, type DomainRoutes } from './domains.ts';
import { dataNotice, exampleLead, type DocsInput } from './markdown.ts';
import type { DataOrigin } from '../../engine/dataOrigin.ts';
import { routeExample, type ExampleAnswers } from './exampleAnswers.ts';
import { bodyRows, curlCommand, operationsOf, paramRows, schemaFields, type FieldNode } from './operations.ts';
import type { PaymentInfo } from './paymentInfo.ts';

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Escaped text with `backtick` spans as <code>. */
function inline(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

const STYLE = `
:root { color-scheme: light dark; --fg: #1d2330; --muted: #5b6476; --bg: #ffffff; --panel: #f5f7fa; --line: #dde2ea;
  --accent: #1f5fbf; --paid: #8a4b00; --paid-bg: #fff1dc; --free: #1d6b35; --free-bg: #e3f5e8; --code-bg: #f0f2f6; }
@media (prefers-color-scheme: dark) { :root { --fg: #e4e8ef; --muted: #a3acbb; --bg: #14171d; --panel: #1c2029; --line: #2e3441;
  --accent: #7fb0ff; --paid: #ffc77a; --paid-bg: #3a2a12; --free: #8fe0a6; --free-bg: #173322; --code-bg: #222734; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 0.9em; }
code { background: var(--code-bg); padding: 0.05em 0.3em; border-radius: 4px; overflow-wrap: anywhere; }
pre { background: var(--code-bg); padding: 0.75em 1em; border-radius: 6px; overflow-x: auto; margin: 0; }
pre code { background: none; padding: 0; }
header.top { border-bottom: 1px solid var(--line); padding: 1rem 1.5rem; display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; align-items: baseline; }
header.top .brand { font-weight: 700; font-size: 1.15rem; text-decoration: none; color: var(--fg); }
header.top nav a { margin-right: 1rem; }
.layout { display: grid; grid-template-columns: 17rem minmax(0, 1fr); max-width: 80rem; margin: 0 auto; }
aside { border-right: 1px solid var(--line); padding: 1rem 1.25rem; position: sticky; top: 0; align-self: start; max-height: 100vh; overflow-y: auto; font-size: 0.92rem; }
aside ul { list-style: none; padding-left: 0.75rem; margin: 0.25rem 0 0.75rem; }
aside > ul { padding-left: 0; }
aside a { text-decoration: none; }
main { padding: 1rem 2rem 4rem; min-width: 0; }
h1 { font-size: 1.9rem; margin: 0.5rem 0 0.5rem; }
h2 { font-size: 1.45rem; margin-top: 2.5rem; padding-top: 0.5rem; border-top: 1px solid var(--line); }
h3 { font-size: 1.15rem; margin: 0 0 0.25rem; }
.lead { font-size: 1.08rem; color: var(--muted); max-width: 50rem; }
.facts { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 0.75rem 1.25rem; }
.endpoint { border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.25rem; margin: 1.25rem 0; background: var(--bg); }
.endpoint h3 a { color: var(--fg); text-decoration: none; }
.summary { margin: 0 0 0.5rem; color: var(--muted); }
.paths { list-style: none; padding: 0; margin: 0.5rem 0; }
.paths li { margin: 0.2rem 0; }
.method { display: inline-block; min-width: 3.2rem; text-align: center; font-weight: 700; font-size: 0.78rem; padding: 0.1rem 0.4rem; border-radius: 4px; background: var(--accent); color: var(--bg); }
.badge { font-size: 0.75rem; font-weight: 600; padding: 0.1rem 0.5rem; border-radius: 999px; vertical-align: middle; margin-left: 0.4rem; }
.badge.paid { color: var(--paid); background: var(--paid-bg); }
.badge.free { color: var(--free); background: var(--free-bg); }
table { border-collapse: collapse; width: 100%; margin: 0.75rem 0; font-size: 0.92rem; }
th, td { border: 1px solid var(--line); padding: 0.35rem 0.55rem; text-align: left; vertical-align: top; }
th { background: var(--panel); }
.example { position: relative; margin: 0.5rem 0; }
.example button { position: absolute; top: 0.4rem; right: 0.4rem; font: inherit; font-size: 0.8rem; padding: 0.15rem 0.6rem; border: 1px solid var(--line); border-radius: 4px; background: var(--panel); color: var(--fg); cursor: pointer; }
.example pre { padding-right: 5rem; }
details { margin: 0.5rem 0; }
details ul { margin: 0.25rem 0; }
.domains { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); gap: 1rem; }
.domains li { border: 1px solid var(--line); border-radius: 8px; padding: 0.75rem 1rem; }
.muted { color: var(--muted); }
.notice { border: 2px solid var(--paid); background: var(--paid-bg); color: var(--fg); border-radius: 8px; padding: 0.6rem 1rem; margin: 0.75rem 0 1rem; }
.answer pre { max-height: 28rem; overflow: auto; }
@media (max-width: 50rem) { .layout { grid-template-columns: 1fr; } aside { position: static; max-height: none; border-right: 0; border-bottom: 1px solid var(--line); } main { padding: 1rem; } }
`;

// Copy buttons: the clipboard API where the page is a secure context, else select the command.
const SCRIPT = `
document.addEventListener('click', function (event) {
  var button = event.target.closest ? event.target.closest('button[data-copy]') : null;
  if (!button) return;
  var code = button.parentElement.querySelector('code');
  var text = code ? code.textContent : '';
  function selectIt() {
    var range = document.createRange();
    range.selectNodeContents(code);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    button.textContent = 'Press Ctrl+C';
  }
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(function () { button.textContent = 'Copied'; }, selectIt);
  } else {
    selectIt();
  }
  setTimeout(function () { button.textContent = 'Copy'; }, 2000);
});
`;

function sha256Base64(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}

/** The page policy: nothing but this server, and only our own inline style and script. */
export const HTML_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${sha256Base64(STYLE)}'`,
  `script-src 'sha256-${sha256Base64(SCRIPT)}'`,
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

interface PageParts {
  title: string;
  description: string;
  nav: string;
  body: string;
}

function page(parts: PageParts): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(parts.title)}</title>
<meta name="description" content="${escapeHtml(parts.description)}">
<link rel="icon" href="data:,">
<link rel="alternate" type="text/markdown" href="/api/docs.md">
<link rel="service-desc" type="application/json" href="/openapi.json">
<style>${STYLE}</style>
</head>
<body>
<header class="top">
<a class="brand" href="/api">${escapeHtml(SERVICE_TITLE)}</a>
<nav><a href="/api">Documentation</a><a href="/docs">Domains</a><a href="/openapi.json">OpenAPI</a><a href="/api/docs.md">Markdown</a><a href="/llms.txt">llms.txt</a><a href="/.well-known/x402">x402 discovery</a></nav>
</header>
<div class="layout">
<aside aria-label="Contents">${parts.nav}</aside>
<main>
${parts.body}
</main>
</div>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

function anchor(route: Route): string {
  return `${route.tag}-${route.id}`.replace(/[^A-Za-z0-9_-]/g, '_');
}

function fieldList(nodes: FieldNode[]): string {
  if (nodes.length === 0) return '';
  const items = nodes.map((node) => {
    const description = node.description ? ` - ${inline(node.description)}` : '';
    return `<li><code>${escapeHtml(node.name)}</code> <span class="muted">${escapeHtml(node.type)}</span>${description}${fieldList(node.children)}</li>`;
  });
  return `<ul>${items.join('')}</ul>`;
}

function routeSection(route: Route, baseUrl: string, payment: PaymentInfo, exampleAnswers?: ExampleAnswers, dataOrigin?: DataOrigin): string {
  const id = anchor(route);
  const badge = route.paid
    ? `<span class="badge paid">paid: USD ${escapeHtml(payment.price.usd)}</span>`
    : '<span class="badge free">free</span>';
  const paths = route.paths
    .map((path) => `<li><span class="method">${escapeHtml(route.method)}</span> <code>${escapeHtml(path)}</code></li>`)
    .join('');
  const rows = paramRows(route);
  const body = bodyRows(route);
  const bodyTable = body.length === 0
    ? ''
    : `<p>Request body (<code>Content-Type: application/json</code>):</p><table><thead><tr><th>Field</th><th>Required</th><th>Type and limits</th><th>Description</th></tr></thead><tbody>${body
        .map((row) => `<tr><td><code>${escapeHtml(row.name)}</code></td><td>${escapeHtml(row.required)}</td><td>${escapeHtml(row.type)}</td><td>${inline(row.description)}</td></tr>`)
        .join('')}</tbody></table>`;
  const table = rows.length === 0
    ? (body.length > 0 ? bodyTable : '<p class="muted">No parameters.</p>')
    : `<table><thead><tr><th>Parameter</th><th>In</th><th>Required</th><th>Type and limits</th><th>Description</th></tr></thead><tbody>${rows
        .map((row) => `<tr><td><code>${escapeHtml(row.name)}</code></td><td>${escapeHtml(row.location)}</td><td>${escapeHtml(row.required)}</td><td>${escapeHtml(row.type)}</td><td>${inline(row.description)}</td></tr>`)
        .join('')}</tbody></table>${bodyTable}`;
  const rules = (route.checks ?? []).map((check) => `<li>${inline(check.description)}</li>`).join('');
  const commands = operationsOf(route).flatMap((operation) => operation.examples.map((example) => curlCommand(baseUrl, operation, example)));
  const examples = commands
    .map((command) => `<div class="example"><pre><code>${escapeHtml(command)}</code></pre><button type="button" data-copy>Copy</button></div>`)
    .join('');
  const fields = fieldList(schemaFields(route.response));
  const example = routeExample(route, exampleAnswers);
  const exampleAnswer = example
    ? `<details class="answer"><summary>Example answer</summary><p class="muted">${inline(exampleLead(example, dataOrigin))}</p><pre><code>${escapeHtml(JSON.stringify(example.value, null, 2))}</code></pre></details>`
    : '';
  const answers = (route.paid ? '200 with the data; 400 invalid parameters (not charged); 402 payment required; 404 not found.' : '200 with the data; 400 invalid parameters; 404 not found.') +
    (body.length > 0 ? ' A body that is not JSON is a 415, one over the size limit a 413 (never charged).' : '');
  return `<section class="endpoint" id="${id}">
<h3><a href="#${id}">${escapeHtml(route.id)}</a>${badge}</h3>
<p class="summary">${inline(route.summary)}</p>
<ul class="paths">${paths}</ul>
<p>${inline(route.description)}</p>
${table}
${rules ? `<p>Rules:</p><ul>${rules}</ul>` : ''}
${examples ? `<p>Example${commands.length > 1 ? 's' : ''}:</p>${examples}` : ''}
<p class="muted">Answers: ${escapeHtml(answers)}</p>
${exampleAnswer}
${fields ? `<details><summary>Response fields</summary>${fields}</details>` : ''}
</section>`;
}

function domainSection(group: DomainRoutes, baseUrl: string, payment: PaymentInfo, heading: 'h1' | 'h2', input?: DocsInput): string {
  const { domain, routes } = group;
  return `<section class="domain" id="${escapeHtml(domain.tag)}" data-domain="${escapeHtml(domain.tag)}">
<${heading}>${escapeHtml(domain.title)} <span class="muted">(<code>${escapeHtml(domain.tag)}</code>)</span></${heading}>
${domain.description ? `<p>${inline(domain.description)}</p>` : ''}
<p class="muted">${routes.length} endpoint${routes.length === 1 ? '' : 's'}. <a href="/docs/${encodeURIComponent(domain.tag)}/">Page of this domain</a></p>
${routes.map((route) => routeSection(route, baseUrl, payment, input?.examples, input?.dataOrigin)).join('\n')}
</section>`;
}

function navOf(groups: DomainRoutes[], pageLinks: boolean): string {
  const items = groups.map(({ domain, routes }) => {
    const base = pageLinks ? `/docs/${encodeURIComponent(domain.tag)}/` : '';
    const links = routes.map((route) => `<li><a href="${base}#${anchor(route)}">${escapeHtml(route.id)}</a></li>`).join('');
    return `<li><a href="${pageLinks ? base : `#${escapeHtml(domain.tag)}`}"><strong>${escapeHtml(domain.title)}</strong></a><ul>${links}</ul></li>`;
  });
  const intro = pageLinks ? '<li><a href="/api#paying">Paying (x402)</a></li>' : '<li><a href="#paying">Paying (x402)</a></li><li><a href="#free">Free paths</a></li>';
  return `<ul>${intro}${items.join('')}</ul>`;
}

function payingSection(payment: PaymentInfo, baseUrl: string): string {
  const networks = payment.networks
    .map((network) => `<tr><td>${escapeHtml(network.name)}</td><td><code>${escapeHtml(network.network)}</code></td><td><code>${escapeHtml(network.asset)}</code></td></tr>`)
    .join('');
  return `<section id="paying">
<h2>Paying for requests (x402)</h2>
<div class="facts"><ul>${paymentFacts(payment).map((fact) => `<li>${inline(fact)}</li>`).join('')}</ul></div>
<table><thead><tr><th>Network</th><th>CAIP-2 id</th><th>USDC contract</th></tr></thead><tbody>${networks}</tbody></table>
<p>The 402 round trip:</p>
<ol>${payingSteps(payment).map((step) => `<li>${inline(step)}</li>`).join('')}</ol>
<p>Loopback clients of a development server and the operator's allowlisted addresses are served without payment.</p>
<h3>A client in TypeScript</h3>
<div class="example"><pre><code>${escapeHtml(clientSnippet(baseUrl, CLIENT_EXAMPLE_PATH))}</code></pre><button type="button" data-copy>Copy</button></div>
<h3>Errors</h3>
<p>Every failure is JSON: <code>{"error": {"status": 400, "code": "invalid_parameter", "message": "...", "param": "from"}}</code>.
${inline(ERRORS_SUMMARY)}</p>
</section>`;
}

function freeSection(): string {
  const items = FREE_PATHS.map((free) => `<li><a href="${escapeHtml(free.path)}"><code>${escapeHtml(free.path)}</code></a>: ${escapeHtml(free.title)}</li>`).join('');
  return `<section id="free"><h2>Free documentation and discovery</h2><ul>${items}</ul></section>`;
}

function domainList(groups: DomainRoutes[]): string {
  return `<ul class="domains">${groups
    .map(({ domain, routes }) => `<li data-domain="${escapeHtml(domain.tag)}"><a href="/docs/${encodeURIComponent(domain.tag)}/"><strong>${escapeHtml(domain.title)}</strong></a> <span class="muted">(<code>${escapeHtml(domain.tag)}</code>, ${routes.length} endpoint${routes.length === 1 ? '' : 's'})</span><br>${inline(domain.description)}</li>`)
    .join('')}</ul>`;
}

/** The sample-data banner (nothing when the served data are real imports). */
function banner(origin: DataOrigin | undefined): string {
  const notice = dataNotice(origin);
  return notice ? `<div class="notice" role="note" data-origin="${escapeHtml(origin ?? '')}"><strong>${inline(notice)}</strong></div>\n` : '';
}

function intro(baseUrl: string): string {
  return `<p class="lead">${inline(SERVICE_SUMMARY)}</p>
<p>Base address: <code>${escapeHtml(baseUrl)}</code>. Machine-readable: <a href="/openapi.json">OpenAPI 3.1</a>, <a href="/llms.txt">llms.txt</a>, <a href="/.well-known/x402">/.well-known/x402</a>.</p>`;
}

/** /api, /api/ and /api/docs: everything on one page. */
export function buildApiPage(input: DocsInput): string {
  const groups = groupByDomain(input.routes);
  const body = `${banner(input.dataOrigin)}<h1>${escapeHtml(SERVICE_TITLE)}</h1>
${intro(input.baseUrl)}
<h2>Domains</h2>
${domainList(groups)}
${payingSection(input.payment, input.baseUrl)}
${freeSection()}
${groups.map((group) => domainSection(group, input.baseUrl, input.payment, 'h2', input)).join('\n')}`;
  return page({ title: `${SERVICE_TITLE}: API documentation`, description: SERVICE_SUMMARY, nav: navOf(groups, false), body });
}

/** /docs: the domains, each linking to its page. */
export function buildDocsIndex(input: DocsInput): string {
  const groups = groupByDomain(input.routes);
  const body = `${banner(input.dataOrigin)}<h1>Domains</h1>
${intro(input.baseUrl)}
${domainList(groups)}
<p>How to pay: see <a href="/api#paying">Paying for requests</a>. Everything on one page: <a href="/api">/api</a>.</p>`;
  return page({ title: `${SERVICE_TITLE}: domains`, description: SERVICE_SUMMARY, nav: navOf(groups, true), body });
}

/** /docs/<tag>/: one domain; null for a tag the catalog does not have. */
export function buildDomainPage(input: DocsInput, tag: string): string | null {
  const groups = groupByDomain(input.routes);
  const group = groups.find((candidate) => candidate.domain.tag === tag);
  if (!group) return null;
  const domain = domainOf(tag);
  const body = `${banner(input.dataOrigin)}${domainSection(group, input.baseUrl, input.payment, 'h1', input)}
<p>How to pay: see <a href="/api#paying">Paying for requests</a>.</p>`;
  return page({ title: `${SERVICE_TITLE}: ${domain.title}`, description: domain.description || domain.title, nav: navOf(groups, true), body });
}

export function buildNotFoundPage(input: DocsInput, path: string): string {
  const groups = groupByDomain(input.routes);
  const body = `<h1>Not found</h1><p>There is no documentation page at <code>${escapeHtml(path)}</code>. The domains are:</p>${domainList(groups)}`;
  return page({ title: `${SERVICE_TITLE}: not found`, description: 'Not found', nav: navOf(groups, true), body });
}
