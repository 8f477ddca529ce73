import yaml from 'js-yaml';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppConfig } from '../../src/config/app-config.js';
import { MetricsService } from '../../src/metrics/metrics.service.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/**
 * The Dockerfile, docker-compose.yml and Kubernetes manifests cannot be run here (no
 * container engine, no cluster): these tests parse them and check that they agree with
 * the app itself (probe paths it serves, variables AppConfig reads, the start command).
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

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

describe('deploy: Docker, compose and Kubernetes files agree with the app', () => {
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
    // Prometheus scrapes the metrics port, the one METRICS_PORT opens (networkpolicy.yaml)
    const metricsPort = (container.ports as { name: string; containerPort: number }[]).find(
      (port) => port.name === 'metrics',
    );
    expect(String(metricsPort?.containerPort)).toBe(annotations['prometheus.io/port']);
    expect(get(k8s('configmap.yaml'), 'data', 'METRICS_PORT')).toBe(
      annotations['prometheus.io/port'],
    );
  });

  it('runs as non-root on a read-only root filesystem with /tmp writable', () => {
    const deployment = k8s('deployment.yaml');
    const pod = get(deployment, 'spec', 'template', 'spec');
    const container = get(pod, 'containers', 0);
    expect(get(pod, 'securityContext', 'runAsNonRoot')).toBe(true);
    expect(get(container, 'securityContext', 'readOnlyRootFilesystem')).toBe(true);
    expect(get(container, 'securityContext', 'allowPrivilegeEscalation')).toBe(false);
    expect(get(container, 'volumeMounts', 0)).toEqual({ name: 'tmp', mountPath: '/tmp' });
    expect(get(pod, 'volumes', 0, 'name')).toBe('tmp');
    expect(get(pod, 'volumes', 0, 'emptyDir')).toBeDefined();
    expect(get(container, 'resources', 'requests', 'cpu')).toEqual(expect.any(String));
    expect(get(container, 'resources', 'limits', 'memory')).toEqual(expect.any(String));
  });

  it('takes secrets from the Secret and settings from the ConfigMap, env read by AppConfig', () => {
    const deployment = k8s('deployment.yaml');
    const container = get(deployment, 'spec', 'template', 'spec', 'containers', 0);
    const env = get(container, 'env') as {
      name: string;
      value?: string;
      valueFrom: { secretKeyRef: { name: string; key: string } };
    }[];
    // No GC flags in either (V8's default young generation keeps the event loop's pauses
    // under 50 ms, docs/adr/0039-no-gc-flags-and-pod-sizing.md): every variable is a secret.
    expect(env.map((variable) => variable.name)).not.toContain('NODE_OPTIONS');
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).not.toMatch(/^ENV NODE_OPTIONS/m);
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
    // AppConfig's groups read the variables, one file each (src/config/*.config.ts).
    const configDir = join(ROOT, 'src/config');
    const configSource = readdirSync(configDir)
      .filter((file) => file.endsWith('.ts'))
      .map((file) => readFileSync(join(configDir, file), 'utf8'))
      .join('\n');
    for (const name of [...Object.keys(settings), ...env.map((v) => v.name)]) {
      expect(configSource, `AppConfig reads ${name}`).toContain(name);
    }
  });

  it('keeps the engine workers (their caches inside them) within the pod memory limit', () => {
    const deployment = k8s('deployment.yaml');
    const limit = get(
      deployment,
      'spec',
      'template',
      'spec',
      'containers',
      0,
      'resources',
      'limits',
      'memory',
    );
    const mebibytes = /^(\d+)Mi$/.exec(String(limit));
    expect(mebibytes, `memory limit ${String(limit)}`).not.toBeNull();
    const limitBytes = Number(mebibytes?.[1]) * 1024 * 1024;
    const settings = k8s('configmap.yaml').data as Record<string, string>;
    const config = new AppConfig({ ...settings, JWT_SECRET: 'x'.repeat(32) });
    const mb = 1024 * 1024;
    // Each evaluation worker holds its share of the cache in its heap, with room to evaluate.
    const share = config.compiledModelCacheBytes / config.evaluationWorkers;
    expect(share).toBeLessThanOrEqual((config.evaluationWorkerHeapMb * mb) / 1.5);
    // An answer held whole while it is written costs about twice its size; larger ones stream.
    const bounded =
      config.compileWorkers * config.compileWorkerHeapMb * mb +
      (config.compileLaneMs > 0 ? config.compileLaneHeapMb * mb : 0) +
      config.evaluationWorkers * config.evaluationWorkerHeapMb * mb +
      2 * config.answerStreamBytes;
    // The rest (the service's own heap, code, buffers) needs ~150 MB.
    expect(bounded + 150 * mb).toBeLessThanOrEqual(limitBytes);
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

  it('has an Ingress example that routes the API, the pages, the docs and / to the Service, and not the probes or metrics', async () => {
    const ingress = k8s('ingress.example.yaml');
    const service = k8s('service.yaml');
    const paths = get(ingress, 'spec', 'rules', 0, 'http', 'paths') as {
      path: string;
      backend: { service: { name: string; port: { name: string } } };
    }[];
    expect(paths.map((p) => p.path)).toEqual(
      expect.arrayContaining(['/v1', '/app', '/docs', '/docs-json', '/']),
    );
    expect(paths.some((p) => p.path.startsWith('/health') || p.path === '/metrics')).toBe(false);
    for (const { backend } of paths) {
      expect(backend.service.name).toBe(service.metadata?.name);
      expect(backend.service.port.name).toBe(get(service, 'spec', 'ports', 0, 'name'));
    }
    // Applied from an overlay with the operator's host and TLS, never as it is.
    expect(k8s('kustomization.yaml').resources).not.toContain('ingress.example.yaml');
    // What it routes is served: / leads to the pages (served from the build: the browser
    // tests check them), the OpenAPI document is there.
    const app = await createTestApp();
    try {
      expect((await app.http.get('/')).headers.location).toBe('/app/');
      expect((await app.http.get('/docs-json')).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('gives a stopping pod time for SHUTDOWN_DELAY, SHUTDOWN_TIMEOUT and closing connections', () => {
    const pod = get(k8s('deployment.yaml'), 'spec', 'template', 'spec');
    const container = get(pod, 'containers', 0);
    // SHUTDOWN_DELAY does what a preStop sleep would: one or the other, never both.
    expect(get(container, 'lifecycle', 'preStop')).toBeUndefined();
    const config = new AppConfig({
      ...(get(k8s('configmap.yaml'), 'data') as Record<string, string>),
      JWT_SECRET: 'x'.repeat(32),
    });
    expect(config.shutdownDelayMs).toBeGreaterThanOrEqual(5_000);
    const grace = get(pod, 'terminationGracePeriodSeconds') as number;
    // the drain must end before SIGKILL, with a few seconds to close database and Redis
    const drainSeconds = (config.shutdownDelayMs + config.shutdownTimeoutMs) / 1000 + 5;
    expect(drainSeconds).toBeLessThanOrEqual(grace);
    // compose: Docker's 10 s default would cut the drain; the app's defaults apply there
    const [compose] = readYaml('docker-compose.yml');
    const app = get(compose, 'services', 'app') as Record<string, unknown>;
    const environment = app.environment as Record<string, string>;
    const defaults = new AppConfig({
      JWT_SECRET: 'x'.repeat(32),
      ...(environment.SHUTDOWN_DELAY ? { SHUTDOWN_DELAY: environment.SHUTDOWN_DELAY } : {}),
      ...(environment.SHUTDOWN_TIMEOUT ? { SHUTDOWN_TIMEOUT: environment.SHUTDOWN_TIMEOUT } : {}),
    });
    const composeDrain = (defaults.shutdownDelayMs + defaults.shutdownTimeoutMs) / 1000 + 3;
    expect(String(app.stop_grace_period)).toMatch(/^\d+s$/);
    expect(parseInt(String(app.stop_grace_period), 10)).toBeGreaterThan(composeDrain);
  });

  it('builds a non-root image that starts and probes as package.json says', async () => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(dockerfile).toMatch(/^FROM \$\{NODE_IMAGE\} AS runtime$/m);
    // The newest Node 24, the major .nvmrc names: better-sqlite3 13 ships its binaries
    // prebuilt, so the build stage needs no toolchain, compiles nothing and probes nothing.
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24-slim$/m);
    expect(readFileSync(join(ROOT, '.nvmrc'), 'utf8').trim()).toBe('24');
    expect(dockerfile).not.toMatch(/apt-get|python3|g\+\+|prebuild-install|sqlite-gc-probe/i);
    expect(dockerfile).toMatch(/^COPY package\.json package-lock\.json \.\/$/m);
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

  it('copies into the build stage every local file npm run build runs', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const entry = /^node (\S+\.mjs)$/.exec(pkg.scripts.build)?.[1];
    expect(entry, pkg.scripts.build).toBeDefined();
    // The script and the local modules it imports, transitively.
    const needed = new Set<string>();
    const visit = (file: string) => {
      if (needed.has(file)) return;
      needed.add(file);
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const [, relative] of text.matchAll(/from '(\.{1,2}\/[^']+)'/g))
        visit(join(dirname(file), relative));
    };
    visit(entry as string);
    expect(needed.size).toBeGreaterThan(1);
    const build = readFileSync(join(ROOT, 'Dockerfile'), 'utf8').split(/^FROM .* AS runtime$/m)[0];
    const copied = [...build.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap(([, from]) =>
      from.split(/\s+/),
    );
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const file of needed) {
      expect(copied, `${file} copied before the build`).toContain(file);
      // Excluded by its folder unless named again with "!".
      const folderIgnored = ignored.includes(file.split('/')[0]);
      if (folderIgnored) expect(ignored, `${file} in the build context`).toContain(`!${file}`);
    }
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

/**
 * kubectl when installed (CI's machine has one); `kubectl kustomize` needs no cluster.
 * Without it the structural test above still runs.
 */
const KUBECTL = ['/usr/bin/kubectl', '/usr/local/bin/kubectl'].find((path) => existsSync(path));
const VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

/** The image reference of a kustomization: a release tag or a digest, never latest. */
function checkImages(kustomization: Doc): void {
  const images = kustomization.images as { name: string; newTag?: string; digest?: string }[];
  expect(images).toHaveLength(1);
  const [image] = images;
  expect(image.name).toBe('configurator-service');
  if (image.digest) expect(image.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  else expect(String(image.newTag)).toBe(VERSION);
}

describe('deploy: what kustomize builds', () => {
  it('sets the image by kustomize, keeps replicas to the HPA, names the migration Job per release', () => {
    const [base] = readYaml('deploy/k8s/kustomization.yaml');
    const [migrate] = readYaml('deploy/k8s/migrate/kustomization.yaml');
    checkImages(base);
    checkImages(migrate);
    const [deployment] = readYaml('deploy/k8s/deployment.yaml');
    expect(get(deployment, 'spec', 'replicas')).toBeUndefined();
    expect(get(deployment, 'spec', 'template', 'spec', 'containers', 0, 'image')).toBe(
      'configurator-service',
    );
    // The Job's name carries the release: the image tag, dots as dashes.
    const tag = String((migrate.images as { newTag?: string }[])[0].newTag ?? '');
    expect(migrate.nameSuffix).toBe(`-${tag.replaceAll('.', '-')}`);
    expect(base.resources as string[]).not.toContain('migrate/job.yaml');
    const policies = readYaml('deploy/k8s/networkpolicy.yaml');
    expect(policies.map((policy) => policy.kind)).toEqual([
      'NetworkPolicy',
      'NetworkPolicy',
      'NetworkPolicy',
    ]);
    expect(base.resources as string[]).toContain('networkpolicy.yaml');
  });

  it.skipIf(!KUBECTL)('kubectl kustomize: image, replicas, Job name and NetworkPolicies', () => {
    const build = (dir: string): Doc[] =>
      yaml.loadAll(
        execFileSync(KUBECTL as string, ['kustomize', join(ROOT, dir)], { encoding: 'utf8' }),
      ) as Doc[];
    const docs = build('deploy/k8s');
    const byKind = (kind: string) => docs.filter((doc) => doc.kind === kind);
    const [deployment] = byKind('Deployment');
    const image = get(deployment, 'spec', 'template', 'spec', 'containers', 0, 'image') as string;
    expect(image).toMatch(
      new RegExp(`^configurator-service(:${VERSION.replaceAll('.', '\\.')}|@sha256:[0-9a-f]{64})$`),
    );
    expect(image).not.toMatch(/:latest$/);
    expect(get(deployment, 'spec', 'replicas')).toBeUndefined();
    expect(get(byKind('HorizontalPodAutoscaler')[0], 'spec', 'scaleTargetRef', 'name')).toBe(
      deployment.metadata?.name,
    );
    // No preStop beside SHUTDOWN_DELAY
    expect(
      get(deployment, 'spec', 'template', 'spec', 'containers', 0, 'lifecycle'),
    ).toBeUndefined();

    const policies = Object.fromEntries(
      byKind('NetworkPolicy').map((policy) => [policy.metadata?.name, policy]),
    );
    const apiLabels = get(deployment, 'spec', 'selector', 'matchLabels');
    const api = policies['configurator-api'];
    expect(get(api, 'spec', 'podSelector', 'matchLabels')).toEqual(apiLabels);
    const rules = get(api, 'spec', 'ingress') as {
      from?: unknown[];
      ports: { port: string }[];
    }[];
    // http from anywhere; metrics only from the monitoring namespace, and nothing else
    expect(rules.find((rule) => rule.ports[0].port === 'http')?.from).toBeUndefined();
    const metrics = rules.filter((rule) => rule.ports.some((port) => port.port === 'metrics'));
    expect(metrics).toEqual([
      {
        from: [
          { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } },
        ],
        ports: [{ port: 'metrics', protocol: 'TCP' }],
      },
    ]);
    for (const [name, port] of [
      ['configurator-postgres', 5432],
      ['configurator-redis', 6379],
    ] as const) {
      const [rule, ...others] = get(policies[name], 'spec', 'ingress') as {
        from: { podSelector: { matchLabels: Record<string, string> } }[];
        ports: { port: number }[];
      }[];
      expect(others).toEqual([]);
      expect(rule.ports).toEqual([{ port, protocol: 'TCP' }]);
      // only configurator pods: the API (and, for the database, the migration Job)
      expect(rule.from[0].podSelector.matchLabels).toEqual(apiLabels);
      for (const from of rule.from)
        expect(from.podSelector.matchLabels['app.kubernetes.io/name']).toBe('configurator');
    }

    const [job] = build('deploy/k8s/migrate');
    expect(job.kind).toBe('Job');
    expect(job.metadata?.name).toBe(`configurator-migrate-${VERSION.replaceAll('.', '-')}`);
    expect(get(job, 'spec', 'template', 'spec', 'containers', 0, 'image')).toBe(image);
  });
});

/** The metric names of a PromQL expression (a histogram's series by its own name). */
function metricNames(expr: string): string[] {
  const names = expr.match(/\b(?:configurator|http|nodejs|process)_[a-z0-9_]+/g) ?? [];
  return [...new Set(names.map((name) => name.replace(/_(bucket|count|sum)$/, '')))];
}

interface AlertRule {
  alert: string;
  expr: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** Served on PostgreSQL only: SQLite has one connection and no pool (docs/adr/0176). */
const POSTGRES_ONLY = [
  'configurator_db_pool_connections_in_use',
  'configurator_db_pool_connections_idle',
];

describe('deploy: alerts and the dashboard read metrics the app serves', () => {
  let ctx: TestContext;
  /** Every metric the app registers (`# TYPE` lines: listed even before a first sample). */
  let served: Set<string>;
  /** The label names of each metric's samples (a histogram's `le` left out). */
  const labels = new Map<string, Set<string>>();
  beforeAll(async () => {
    // With REDIS_URL, so that Redis's gauge is served too: nothing needs to listen there.
    ctx = await createTestApp({ REDIS_URL: 'redis://127.0.0.1:1' });
    await ctx.http.get('/health/live').expect(200); // a request's series
    const text = (await ctx.http.get('/metrics').expect(200)).text;
    served = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map(([, name]) => name));
    for (const [, series, pairs] of text.matchAll(/^([a-z_:][\w:]*)\{([^}]*)\}/gm)) {
      const name = series!.replace(/_(bucket|count|sum)$/, '');
      const names = labels.get(name) ?? new Set<string>();
      for (const [, label] of pairs!.matchAll(/(\w+)="/g)) if (label !== 'le') names.add(label!);
      labels.set(name, names);
    }
    // And the labels of the app's metrics that have no sample yet (a refusal, a restart).
    for (const metric of ctx.app.get(MetricsService).registry.getMetricsAsArray()) {
      const names = labels.get(metric.name) ?? new Set<string>();
      for (const label of (metric as { labelNames?: readonly string[] }).labelNames ?? [])
        names.add(label);
      labels.set(metric.name, names);
    }
  });
  afterAll(() => ctx?.close());

  /** In this app's /metrics answer (on SQLite, but for the pool's connection gauges). */
  const expectServed = (name: string, where: string) => {
    const postgresOnly = POSTGRES_ONLY.includes(name) && ctx.config.database.type !== 'postgres';
    expect(served.has(name), `${where}: ${name} is no metric of the app`).toBe(!postgresOnly);
  };

  /** A selector's labels (`name{label="…"}`) are labels of the metric's samples. */
  const expectLabelsServed = (expr: string, where: string) => {
    for (const [, series, pairs] of expr.matchAll(/\b([a-z_]+)\{([^}]*)\}/g)) {
      const known = labels.get(series!.replace(/_(bucket|count|sum)$/, ''));
      expect(known, `${where}: ${series} is no metric of the app`).toBeDefined();
      for (const [, label] of pairs!.matchAll(/(\w+)\s*(?:=|!=|=~|!~)/g))
        expect([...known!], `${where}: ${series} has no label ${label}`).toContain(label);
    }
  };

  /** Request metrics are always split by probe: an alert must say whether it wants probes. */
  const expectProbeChosen = (expr: string, where: string) => {
    for (const [selector] of expr.matchAll(/http_request[a-z_]*\{[^}]*\}/g))
      expect(selector, where).toMatch(/probe="(true|false)"/);
    expect(expr, where).not.toMatch(/http_request[a-z_]*(\[|\)|\s)/);
  };

  const rules = (): AlertRule[] => {
    const [rule] = readYaml('deploy/monitoring/prometheusrule.yaml');
    expect(rule.kind).toBe('PrometheusRule');
    expect(get(rule, 'metadata', 'namespace')).toBeUndefined();
    const groups = get(rule, 'spec', 'groups') as { name: string; rules: AlertRule[] }[];
    return groups.flatMap((group) => group.rules);
  };

  it('alerts on served metrics, each with a severity, a summary and a runbook', () => {
    const all = rules();
    expect(all.map((rule) => rule.alert)).toEqual(
      expect.arrayContaining([
        'ConfiguratorErrors',
        'ConfiguratorNotReady',
        'ConfiguratorEngineQueueBacklog',
        'ConfiguratorEngineWorkerRestarts',
        'ConfiguratorModelQuarantined',
        'ConfiguratorDatabasePoolSaturated',
        'ConfiguratorRedisDown',
      ]),
    );
    for (const rule of all) {
      expect(rule.labels?.severity, rule.alert).toMatch(/^(critical|warning|info)$/);
      expect(rule.annotations?.summary, rule.alert).toEqual(expect.any(String));
      expect(rule.annotations?.runbook, rule.alert).toEqual(expect.any(String));
      expect(metricNames(rule.expr).length, rule.alert).toBeGreaterThan(0);
      for (const name of metricNames(rule.expr)) expectServed(name, rule.alert);
      expectLabelsServed(rule.expr, rule.alert);
      expectProbeChosen(rule.expr, rule.alert);
    }
    // The 5xx alert leaves readiness 503s (a dependency blip, a drain) out.
    const errors = all.find((rule) => rule.alert === 'ConfiguratorErrors');
    expect(errors?.expr).toContain('probe="false"');
    expect(errors?.labels?.severity).toBe('critical');
  });

  it('ships a Grafana dashboard whose panels query served metrics', () => {
    const dashboard = JSON.parse(
      readFileSync(join(ROOT, 'deploy/monitoring/grafana-dashboard.json'), 'utf8'),
    ) as {
      uid: string;
      panels: { title: string; targets: { expr: string }[] }[];
      templating: { list: { name: string; type: string }[] };
    };
    expect(dashboard.uid).toEqual(expect.any(String));
    expect(dashboard.templating.list).toContainEqual(
      expect.objectContaining({ name: 'datasource', type: 'datasource' }),
    );
    const queried = new Set<string>();
    for (const panel of dashboard.panels) {
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
      for (const { expr } of panel.targets) {
        for (const name of metricNames(expr)) {
          expectServed(name, panel.title);
          queried.add(name);
        }
        expectLabelsServed(expr, panel.title);
        expectProbeChosen(expr, panel.title);
      }
    }
    // Every metric of the engine, the pool and Redis has a panel.
    const ours = [...served].filter((name) => /^configurator_(engine|db)_/.test(name));
    for (const name of [...ours, 'configurator_redis_up']) expect(queried, name).toContain(name);
  });

  it.skipIf(!KUBECTL)(
    'kubectl kustomize deploy/monitoring: the rule and the dashboard ConfigMap',
    () => {
      const docs = yaml.loadAll(
        execFileSync(KUBECTL as string, ['kustomize', join(ROOT, 'deploy/monitoring')], {
          encoding: 'utf8',
        }),
      ) as Doc[];
      expect(docs.map((doc) => doc.kind).sort()).toEqual(['ConfigMap', 'PrometheusRule']);
      const configMap = docs.find((doc) => doc.kind === 'ConfigMap');
      expect(get(configMap, 'metadata', 'labels', 'grafana_dashboard')).toBe('1');
      const json = get(configMap, 'data', 'grafana-dashboard.json') as string;
      expect((JSON.parse(json) as { uid: string }).uid).toBe('configurator-service');
    },
  );
});
