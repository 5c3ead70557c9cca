// The documents say per route that the licence gate can answer 451 (OpenAPI and Markdown), and only
// on the routes that read reserve-bank series.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildOpenApi } from '../../http/docs/openapi.ts';
import { routeMarkdown } from '../../http/docs/markdown.ts';
import { defaultPaymentInfo } from '../../http/docs/paymentInfo.ts';
import { routes } from '../../domains/index.ts';
import { macroRoutes } from '../../domains/macro/queries/routes.ts';

const GATED: Record<string, string> = {
  '/api/analytics/us/yield-curve': 'DGS10, DGS2',
  '/api/analytics/us-eu/inflation': 'CPIAUCSL',
  '/api/analytics/us/macro': 'CPIAUCSL, UNRATE, FEDFUNDS',
  '/api/analytics/market/volatility-regime': 'VIXCLS',
};

test('OpenAPI: 451 license_not_approved on the four reserve-bank routes, naming their series; nowhere else', () => {
  const doc = buildOpenApi({ routes, baseUrl: 'https://example.test', payment: defaultPaymentInfo() }) as any;
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const operation of Object.values<any>(item)) {
      const gate = operation.responses?.['451'];
      if (Object.hasOwn(GATED, path)) {
        assert.ok(gate, path);
        assert.match(gate.description, /license_not_approved/);
        assert.ok(gate.description.includes(`needs ${GATED[path]}`), gate.description);
        assert.ok(operation.responses['402'], `${path} is paid`);
      } else {
        assert.equal(gate, undefined, path);
      }
    }
  }
  for (const path of ['/api/v1/macro/eu-inflation-divergence', '/api/v1/rates/ecb-stance', '/api/v1/rates/eu-curve-slope', '/api/v1/fx/eurusd-analytics']) {
    assert.ok(doc.paths[path]?.get, path);
  }
});

test('Markdown: the gated routes state the 451', () => {
  for (const route of macroRoutes) {
    const text = routeMarkdown(route, 'https://example.test', defaultPaymentInfo());
    assert.equal(text.includes('451 `license_not_approved`'), Object.hasOwn(GATED, route.paths[0]!), route.id);
  }
});
