import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { probeOf } from '../common/http/route-pattern.js';
import { AppConfig } from '../config/app-config.js';
import { EngineMetrics } from './engine-metrics.js';

/** Seconds; spans a fast cached request up to a slow model upload. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds; an engine evaluation is expected well below 100 ms. */
const EVALUATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

/**
 * Process metrics (CPU, memory, event loop, GC) describe the process, not an app, and
 * prom-client starts a GC observer and an event-loop monitor each time they are set up:
 * one registry for them per process, shared by every app instance in it.
 */
let processRegistry: Registry | null = null;
function sharedProcessRegistry(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export type EvaluationOutcome = 'valid' | 'invalid' | 'error';

/**
 * The Prometheus metrics of one app instance. A registry of its own (not prom-client's
 * global one) so that several apps in one process (the e2e tests) never collide.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  constructor(private readonly config: AppConfig) {}

  /** The engine's worker pools (CompiledModels hands their hooks to the pools). */
  readonly engine = new EngineMetrics(this.registry);

  private readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status; probe="true" for /health/* (alerts leave them out)',
    labelNames: ['method', 'route', 'status', 'probe'] as const,
    registers: [this.registry],
  });

  private readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to finishing its answer, by method, route pattern and status; probe="true" for /health/*',
    labelNames: ['method', 'route', 'status', 'probe'] as const,
    buckets: HTTP_BUCKETS,
    registers: [this.registry],
  });

  private readonly admissionRefusals = new Counter({
    name: 'http_admission_refusals_total',
    help: 'Requests refused or cut before the HTTP pipeline: reason client (429, the credential or address has too many in flight), anonymous (503, requests without a verified credential hold their whole share), server (503, the process has too many in flight) or body (408, a body too slow)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  private readonly evaluationDuration = new Histogram({
    name: 'configurator_engine_evaluation_duration_seconds',
    help: 'Time the configuration engine spent evaluating one configuration, by outcome',
    labelNames: ['outcome'] as const,
    buckets: EVALUATION_BUCKETS,
    registers: [this.registry],
  });

  /** `route` is the route pattern (`/v1/companies/:id`), never the raw URL. */
  observeHttpRequest(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status), probe: String(probeOf(route)) };
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
  }

  /** A request the admission stage refused (src/admission); not in http_requests_total. */
  countAdmissionRefusal(reason: 'client' | 'anonymous' | 'server' | 'body'): void {
    if (this.config.metricsEnabled) this.admissionRefusals.inc({ reason });
  }

  /** `configurator_rate_limit_fallback`, read from `fallingBack` whenever metrics are collected. */
  trackRateLimitFallback(fallingBack: () => boolean): void {
    const name = 'configurator_rate_limit_fallback';
    this.registry.removeSingleMetric(name);
    new Gauge({
      name,
      help: '1 while rate limits count in this process because Redis (REDIS_URL) does not answer, else 0',
      registers: [this.registry],
      collect() {
        this.set(fallingBack() ? 1 : 0);
      },
    });
  }

  /**
   * `configurator_redis_up` (only with REDIS_URL): whether Redis answers `ping` within a
   * second at scrape time. Registered by the rate limiter, which owns the connection.
   */
  trackRedisUp(ping: () => Promise<void>): void {
    const name = 'configurator_redis_up';
    this.registry.removeSingleMetric(name);
    new Gauge({
      name,
      help: '1 when Redis (REDIS_URL) answered a PING at this scrape, else 0',
      registers: [this.registry],
      async collect() {
        this.set((await answers(ping, REDIS_PING_MS)) ? 1 : 0);
      },
    });
  }

  /** For the carts/models code: one engine evaluation that took `ms` milliseconds. */
  observeEvaluation(ms: number, outcome: EvaluationOutcome = 'valid'): void {
    // METRICS_ENABLED=false feeds no metric (src/config/telemetry.config.ts).
    if (this.config.metricsEnabled) this.evaluationDuration.observe({ outcome }, ms / 1000);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The text exposition of this app's metrics and the process's. */
  async exposition(): Promise<string> {
    return Registry.merge([sharedProcessRegistry(), this.registry]).metrics();
  }
}

/** A scrape waits this long for Redis's PING before reporting it down. */
const REDIS_PING_MS = 1_000;

/** Whether `ping` resolves within `ms`. */
async function answers(ping: () => Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      ping().then(
        () => true,
        () => false,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
