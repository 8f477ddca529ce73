import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetricsService } from '../../src/metrics/metrics.service.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/** The value of one sample line of a Prometheus text exposition, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)\{(.*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = match[2].split(',');
    if (wanted.every((pair) => present.includes(pair))) return Number(match[3]);
  }
  return undefined;
}

type Operation = { security?: Record<string, string[]>[]; tags?: string[]; summary?: string };
type OpenApi = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; scheme: string }> };
  servers: { url: string }[];
};

const JWT = 'access-token';
const API = 'api-token';
const INTENT = 'intent-token';

/** The 12 seed endpoints (docs/api.md) and the credentials each accepts. */
const SEED_ENDPOINTS: [string, string, string[]][] = [
  ['post', '/v1/tokens', [JWT]],
  ['post', '/v1/login', []],
  ['post', '/v1/carts', [JWT, INTENT]],
  // An intent token is refused (403 after the body's check): not documented as accepted.
  ['post', '/v1/companies', [JWT]],
  ['post', '/v1/suppliers/{}/models', [JWT, API]],
  ['post', '/v1/suppliers/{}', [JWT, API]],
  ['get', '/v1/companies/{}', [JWT, INTENT]],
  ['get', '/v1/companies', [JWT, INTENT]],
  ['get', '/v1/companies/{}/suppliers', [JWT, INTENT]],
  ['post', '/v1/carts/new', [JWT, INTENT]],
  ['get', '/v1/carts', [JWT, INTENT]],
  ['get', '/v1/carts/default', [JWT, INTENT]],
];

/** The only routes that take no credential (deny by default everywhere else). */
// The refresh token is a body field, so /v1/refresh needs no Authorization header.
const PUBLIC_ROUTES = [
  'post /v1/login',
  'post /v1/refresh',
  'get /health/live',
  'get /health/ready',
  'get /metrics',
  // A signed asset URL: its signature is the credential (an <img src> sends no header).
  'get /v1/assets/{companyId}/{modelId}/{version}/{path}',
];

/** `/v1/companies/{id}` and `/v1/companies/:id` both become `/v1/companies/{}`. */
const normalize = (path: string): string =>
  path.replace(/\{[^}]+\}/g, '{}').replace(/\/[:*]\w+/g, '/{}');

/** The credentials docs/api.md allows on a path: JWT everywhere, others by path family. */
function allowedSchemes(path: string): string[] {
  const allowed = [JWT];
  if (/^\/v1\/(carts|companies)(\/|$)/.test(path)) allowed.push(INTENT);
  if (/^\/v1\/(suppliers|models)(\/|$)/.test(path)) allowed.push(API);
  return allowed;
}

const schemesOf = (operation: Operation): string[] =>
  (operation.security ?? []).flatMap((requirement) => Object.keys(requirement)).sort();

describe('ops: metrics, OpenAPI document, Swagger UI', () => {
  let ctx: TestContext;
  let doc: OpenApi;

  beforeAll(async () => {
    ctx = await createTestApp();
    doc = (await ctx.http.get('/docs-json').expect(200)).body as OpenApi;
  });
  afterAll(() => ctx?.close());

  const scrape = async (): Promise<string> => {
    const res = await ctx.http.get('/metrics');
    expect(res.status).toBe(200);
    return res.text;
  };

  it('serves /metrics without credentials as Prometheus text, not an envelope', async () => {
    const res = await ctx.http.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(() => JSON.parse(res.text)).toThrow();
    expect(res.text).toContain('# TYPE http_requests_total counter');
    expect(res.text).toContain('# TYPE http_request_duration_seconds histogram');
    // Default process metrics.
    expect(res.text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(res.text).toContain('# TYPE nodejs_heap_size_total_bytes gauge');
  });

  it('counts each request once, by method, route and status', async () => {
    const labels = { method: 'GET', route: '/health/live', status: '200' };
    const before = sample(await scrape(), 'http_requests_total', labels) ?? 0;
    await ctx.http.get('/health/live').expect(200);
    const text = await scrape();
    expect(sample(text, 'http_requests_total', labels)).toBe(before + 1);
    const histogramCount = sample(text, 'http_request_duration_seconds_count', labels);
    expect(histogramCount).toBe(before + 1);
    const infBucket = sample(text, 'http_request_duration_seconds_bucket', {
      ...labels,
      le: '+Inf',
    });
    expect(infBucket).toBe(before + 1);
  });

  it('labels by route pattern, never the raw URL, and counts refused and unmatched requests', async () => {
    await ctx.http.delete('/v1/tokens/987654').expect(401);
    await ctx.http.get('/no/such/path/5551234').expect(404);
    const text = await scrape();
    expect(
      sample(text, 'http_requests_total', {
        method: 'DELETE',
        route: '/v1/tokens/:id',
        status: '401',
      }),
    ).toBe(1);
    expect(
      sample(text, 'http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('987654');
    expect(text).not.toContain('5551234');
  });

  it('exposes engine evaluation timings recorded through MetricsService', async () => {
    const metrics = ctx.app.get(MetricsService);
    metrics.observeEvaluation(3);
    metrics.observeEvaluation(40, 'invalid');
    const text = await scrape();
    const name = 'configurator_engine_evaluation_duration_seconds';
    expect(sample(text, `${name}_count`, { outcome: 'valid' })).toBe(1);
    expect(sample(text, `${name}_sum`, { outcome: 'valid' })).toBeCloseTo(0.003, 6);
    expect(sample(text, `${name}_bucket`, { outcome: 'valid', le: '0.0025' })).toBe(0);
    expect(sample(text, `${name}_bucket`, { outcome: 'valid', le: '0.005' })).toBe(1);
    expect(sample(text, `${name}_count`, { outcome: 'invalid' })).toBe(1);
  });

  it('keeps each app instance in its own registry', async () => {
    const other = await createTestApp();
    try {
      await other.http.get('/health/ready').expect(200);
      await other.http.get('/health/ready').expect(200);
      const labels = { method: 'GET', route: '/health/ready', status: '200' };
      const otherText = (await other.http.get('/metrics').expect(200)).text;
      expect(sample(otherText, 'http_requests_total', labels)).toBe(2);
      // Requests to the second app do not show up in the first one's counters.
      expect(sample(await scrape(), 'http_requests_total', labels)).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it('serves an OpenAPI 3 document with the three bearer credentials as they are', () => {
    expect(doc.openapi).toMatch(/^3\./);
    const schemes = doc.components.securitySchemes;
    expect(Object.keys(schemes).sort()).toEqual([API, INTENT, JWT].sort());
    for (const scheme of Object.values(schemes)) {
      expect(scheme).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    }
    expect(schemes[JWT]).toEqual(expect.objectContaining({ bearerFormat: 'JWT' }));
    expect(schemes[INTENT]).toEqual(expect.objectContaining({ bearerFormat: 'JWT' }));
    // API tokens are opaque `cfg_…` secrets, not JWTs.
    expect(schemes[API]).not.toHaveProperty('bearerFormat');
    expect(doc.servers.length).toBeGreaterThan(0);
  });

  it('documents exactly the routes the app serves', () => {
    const router = ctx.app.getHttpAdapter().getInstance() as {
      router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] };
    };
    const served = new Set<string>();
    for (const layer of router.router.stack) {
      if (!layer.route || layer.route.path.startsWith('/docs')) continue;
      // What a browser asks of the service's address (src/web/root-routes.ts): no API.
      if (['/', '/favicon.ico'].includes(layer.route.path)) continue;
      for (const method of Object.keys(layer.route.methods)) {
        served.add(`${method} ${normalize(layer.route.path)}`);
      }
    }
    const documented = new Set<string>();
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const method of Object.keys(operations)) documented.add(`${method} ${normalize(path)}`);
    }
    expect([...documented].sort()).toEqual([...served].sort());
    expect(served.size).toBeGreaterThanOrEqual(12);
  });

  it('documents a tag, a summary and the allowed credentials of every route', () => {
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const route = `${method} ${path}`;
        expect(operation.tags?.length, route).toBeGreaterThan(0);
        expect(operation.summary, route).toEqual(expect.any(String));
        const schemes = schemesOf(operation);
        if (PUBLIC_ROUTES.includes(route)) {
          expect(operation.security, route).toEqual([]);
          continue;
        }
        expect(schemes.length, `${route} must declare its credentials`).toBeGreaterThan(0);
        for (const scheme of schemes) {
          expect(allowedSchemes(path), `${route} accepts ${scheme}`).toContain(scheme);
        }
      }
    }
  });

  it('documents the 12 seed endpoints with the credentials each accepts', () => {
    const byRoute = new Map<string, Operation>();
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        byRoute.set(`${method} ${normalize(path)}`, operation);
      }
    }
    const missing = SEED_ENDPOINTS.map(([m, p]) => `${m} ${p}`).filter((r) => !byRoute.has(r));
    expect(missing).toEqual([]);
    for (const [method, path, schemes] of SEED_ENDPOINTS) {
      const operation = byRoute.get(`${method} ${path}`) as Operation;
      expect(schemesOf(operation), `${method} ${path}`).toEqual([...schemes].sort());
    }
  });

  it('serves the Swagger UI as HTML at /docs', async () => {
    const res = await ctx.http.get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('swagger-ui');
  });
});
