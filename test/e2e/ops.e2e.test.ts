import yaml from 'js-yaml';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppConfig } from '../../src/config/app-config.js';
import { MetricsService } from '../../src/metrics/metrics.service.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

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
};

const JWT = 'access-token';
const API = 'api-token';
const INTENT = 'intent-token';
const REFRESH = 'refresh-token';

/** API-v1.md's 12 endpoints and the credentials it (with DESIGN.md) says each accepts. */
const SEED_ENDPOINTS: [string, string, string[]][] = [
  ['post', '/v1/tokens', [JWT]],
  ['post', '/v1/login', []],
  ['post', '/v1/carts', [JWT, INTENT]],
  ['post', '/v1/companies', [JWT, INTENT]],
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
const PUBLIC_ROUTES = ['post /v1/login', 'get /health/live', 'get /health/ready', 'get /metrics'];

/** `/v1/companies/{id}` and `/v1/companies/:id` both become `/v1/companies/{}`. */
const normalize = (path: string): string =>
  path.replace(/\{[^}]+\}/g, '{}').replace(/\/[:*]\w+/g, '/{}');

/** The credentials DESIGN.md allows on a path: JWT everywhere, others by path family. */
function allowedSchemes(path: string): string[] {
  const allowed = [JWT];
  if (/^\/v1\/(carts|companies)(\/|$)/.test(path)) allowed.push(INTENT);
  if (/^\/v1\/(suppliers|models)(\/|$)/.test(path)) allowed.push(API);
  if (path === '/v1/refresh' || path === '/v1/logout') allowed.push(REFRESH);
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

  it('serves an OpenAPI 3 document with the four bearer security schemes', () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(
      [API, INTENT, JWT, REFRESH].sort(),
    );
    for (const scheme of Object.values(doc.components.securitySchemes)) {
      expect(scheme).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    }
  });

  it('documents exactly the routes the app serves', () => {
    const router = ctx.app.getHttpAdapter().getInstance() as {
      router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] };
    };
    const served = new Set<string>();
    for (const layer of router.router.stack) {
      if (!layer.route || layer.route.path.startsWith('/docs')) continue;
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
          expect(schemes, route).toEqual([]);
          continue;
        }
        expect(schemes.length, `${route} must declare its credentials`).toBeGreaterThan(0);
        for (const scheme of schemes) {
          expect(allowedSchemes(path), `${route} accepts ${scheme}`).toContain(scheme);
        }
      }
    }
  });

  it('documents the 12 endpoints of API-v1.md with the credentials each accepts', () => {
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

type Doc = Record<string, unknown> & { kind?: string; metadata?: { name?: string } };

/** Reads one YAML file of the repository (all documents in it). */
function readYaml(path: string): Doc[] {
  return yaml.loadAll(readFileSync(join(ROOT, path), 'utf8')) as Doc[];
}

function get(value: unknown, ...keys: (string | number)[]): unknown {
  let current = value;
  for (const key of keys)
    current = (current as Record<string | number, unknown> | undefined)?.[key];
  return current;
}

describe('ops: deployment files agree with the app', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx?.close());

  const k8s = (file: string): Doc => {
    const [doc] = readYaml(`deploy/k8s/${file}`);
    expect(doc, file).toEqual(
      expect.objectContaining({ apiVersion: expect.any(String), kind: expect.any(String) }),
    );
    return doc;
  };

  it('lists only existing, well-formed manifests in kustomization.yaml', () => {
    const kustomization = k8s('kustomization.yaml');
    const resources = kustomization.resources as string[];
    expect(resources).toEqual(
      expect.arrayContaining([
        'deployment.yaml',
        'service.yaml',
        'pdb.yaml',
        'hpa.yaml',
        'configmap.yaml',
      ]),
    );
    for (const file of resources) {
      expect(existsSync(join(ROOT, 'deploy/k8s', file)), file).toBe(true);
      const doc = k8s(file);
      expect(doc.metadata?.name, file).toEqual(expect.any(String));
      // Namespace-agnostic: the namespace is chosen at apply time.
      expect(get(doc, 'metadata', 'namespace'), file).toBeUndefined();
    }
    // The example Secret is documentation, never applied with placeholder values.
    expect(resources).not.toContain('secret.example.yaml');
  });

  it('probes paths the app serves without credentials, on the container port', async () => {
    const deployment = k8s('deployment.yaml');
    const container = get(deployment, 'spec', 'template', 'spec', 'containers', 0) as Record<
      string,
      unknown
    >;
    expect(get(container, 'livenessProbe', 'httpGet', 'path')).toBe('/health/live');
    expect(get(container, 'readinessProbe', 'httpGet', 'path')).toBe('/health/ready');
    expect(get(container, 'startupProbe', 'httpGet', 'path')).toEqual(expect.any(String));
    for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
      const path = get(container, probe, 'httpGet', 'path') as string;
      expect((await ctx.http.get(path)).status, `${probe} ${path}`).toBe(200);
      expect(get(container, probe, 'httpGet', 'port')).toBe(get(container, 'ports', 0, 'name'));
    }
    expect(get(container, 'ports', 0, 'containerPort')).toBe(3000);
    const annotations = get(deployment, 'spec', 'template', 'metadata', 'annotations') as Record<
      string,
      string
    >;
    expect((await ctx.http.get(annotations['prometheus.io/path'])).status).toBe(200);
  });

  it('runs as non-root on a read-only root filesystem with /tmp writable', () => {
    const deployment = k8s('deployment.yaml');
    const pod = get(deployment, 'spec', 'template', 'spec');
    const container = get(pod, 'containers', 0);
    expect(get(deployment, 'spec', 'replicas')).toBe(2);
    expect(get(pod, 'securityContext', 'runAsNonRoot')).toBe(true);
    expect(get(container, 'securityContext', 'readOnlyRootFilesystem')).toBe(true);
    expect(get(container, 'securityContext', 'allowPrivilegeEscalation')).toBe(false);
    expect(get(container, 'volumeMounts', 0)).toEqual({ name: 'tmp', mountPath: '/tmp' });
    expect(get(pod, 'volumes', 0, 'name')).toBe('tmp');
    expect(get(pod, 'volumes', 0, 'emptyDir')).toBeDefined();
    expect(get(container, 'resources', 'requests', 'cpu')).toEqual(expect.any(String));
    expect(get(container, 'resources', 'limits', 'memory')).toEqual(expect.any(String));
  });

  it('takes secrets from the Secret and settings from the ConfigMap, all read by AppConfig', () => {
    const deployment = k8s('deployment.yaml');
    const container = get(deployment, 'spec', 'template', 'spec', 'containers', 0);
    const env = get(container, 'env') as {
      name: string;
      valueFrom: { secretKeyRef: { name: string; key: string } };
    }[];
    const secretKeys = Object.keys(
      (readYaml('deploy/k8s/secret.example.yaml')[0].stringData ?? {}) as object,
    );
    for (const variable of env) {
      expect(variable.valueFrom.secretKeyRef.name).toBe('configurator-secrets');
      expect(secretKeys).toContain(variable.valueFrom.secretKeyRef.key);
    }
    expect(env.map((v) => v.name)).toEqual(
      expect.arrayContaining(['JWT_SECRET', 'DATABASE_URL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD']),
    );
    const configMap = k8s('configmap.yaml');
    expect(get(container, 'envFrom', 0, 'configMapRef', 'name')).toBe(configMap.metadata?.name);
    const settings = configMap.data as Record<string, string>;
    expect(settings.NODE_ENV).toBe('production');
    // Every value is one AppConfig accepts (it throws on a bad one).
    expect(() => new AppConfig({ ...settings, JWT_SECRET: 'x'.repeat(32) })).not.toThrow();
    const appConfigSource = readFileSync(join(ROOT, 'src/config/app-config.ts'), 'utf8');
    for (const name of [...Object.keys(settings), ...env.map((v) => v.name)]) {
      expect(appConfigSource, `AppConfig reads ${name}`).toContain(name);
    }
  });

  it('points the Service, PodDisruptionBudget and autoscaler at the Deployment', () => {
    const deployment = k8s('deployment.yaml');
    const podLabels = get(deployment, 'spec', 'template', 'metadata', 'labels') as Record<
      string,
      string
    >;
    expect(podLabels).toEqual(
      expect.objectContaining(get(deployment, 'spec', 'selector', 'matchLabels') as object),
    );
    const service = k8s('service.yaml');
    expect(podLabels).toEqual(expect.objectContaining(get(service, 'spec', 'selector') as object));
    expect(get(service, 'spec', 'ports', 0, 'targetPort')).toBe('http');
    const pdb = k8s('pdb.yaml');
    expect(podLabels).toEqual(
      expect.objectContaining(get(pdb, 'spec', 'selector', 'matchLabels') as object),
    );
    const hpa = k8s('hpa.yaml');
    expect(get(hpa, 'spec', 'scaleTargetRef', 'name')).toBe(deployment.metadata?.name);
    expect(get(hpa, 'spec', 'minReplicas')).toBeGreaterThanOrEqual(2);
  });

  it('builds a non-root image that starts and probes as package.json says', async () => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(dockerfile).toMatch(/^FROM \$\{NODE_IMAGE\} AS runtime$/m);
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24-slim$/m);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^EXPOSE 3000$/m);
    expect(dockerfile).toContain('NODE_ENV=production');
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1] ?? '[]';
    expect((JSON.parse(cmd) as string[]).join(' ')).toBe(pkg.scripts.start);
    const healthcheck = dockerfile.slice(dockerfile.indexOf('\nHEALTHCHECK'));
    const probe = /\/health\/\w+/.exec(healthcheck.slice(0, healthcheck.indexOf('\nCMD')))?.[0];
    expect(probe).toBe('/health/live');
    expect((await ctx.http.get(probe as string)).status).toBe(200);
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n');
    expect(ignored).toEqual(
      expect.arrayContaining(['node_modules', 'dist', 'data', '.env', '.git']),
    );
  });

  it('composes the service with PostgreSQL 16 and Redis 7, each with a health check', () => {
    const [compose] = readYaml('docker-compose.yml');
    const services = compose.services as Record<string, Record<string, unknown>>;
    expect(Object.keys(services).sort()).toEqual(['app', 'postgres', 'redis']);
    expect(services.postgres.image).toMatch(/^postgres:16/);
    expect(services.redis.image).toMatch(/^redis:7/);
    for (const [name, service] of Object.entries(services)) {
      expect(get(service, 'healthcheck', 'test'), name).toBeDefined();
    }
    const env = services.app.environment as Record<string, string>;
    expect(env.DATABASE_URL).toMatch(/^postgres:\/\/.*@postgres:5432\//);
    expect(env.REDIS_URL).toBe('redis://redis:6379');
    for (const name of ['JWT_SECRET', 'ADMIN_EMAIL', 'ADMIN_PASSWORD'])
      expect(env[name], name).toBeDefined();
    expect(get(services.app, 'depends_on', 'postgres', 'condition')).toBe('service_healthy');
    expect(get(compose, 'volumes')).toHaveProperty('postgres-data');
  });
});
