import type { EnvReader } from './env-reader.js';

/** How the HTTP server listens, admits, parses, answers and shuts down. */
export interface HttpConfig {
  port: number;
  /** When set, /metrics is served on this port only, not on PORT (a NetworkPolicy can keep it private). */
  metricsPort: number | null;
  /** Proxies whose X-Forwarded-For is believed (express `trust proxy`); none by default. */
  trustedProxies: string[];
  /** Requests in flight per credential (or client address) and in total (src/admission). */
  admission: { perClient: number; total: number };
  jsonBodyLimitBytes: number;
  swaggerEnabled: boolean;
  /** gzip/brotli answers as Accept-Encoding asks (HTTP_COMPRESSION, on by default). */
  httpCompression: boolean;
  /** Browser origins allowed to call the API (CORS); empty: no cross-origin access. */
  corsOrigins: string[];
  /**
   * An answer past this many bytes is streamed as it is written (no Content-Length,
   * no ETag) instead of held whole: a page of cart lines of a 5,000-question model is
   * ~215 MB (ANSWER_STREAM_BYTES).
   */
  answerStreamBytes: number;
  /** How long SIGTERM waits for requests already received before closing anyway. */
  shutdownTimeoutMs: number;
  /** After SIGTERM: not ready, but still accepting and serving, this long (SHUTDOWN_DELAY). */
  shutdownDelayMs: number;
}

export function readHttpConfig(read: EnvReader): HttpConfig {
  return {
    port: read.int('PORT', 3000, 0, 65535),
    metricsPort: read.env.METRICS_PORT ? read.int('METRICS_PORT', 0, 1, 65535) : null,
    trustedProxies: read.proxyList('TRUSTED_PROXIES'),
    admission: {
      perClient: read.int('CLIENT_IN_FLIGHT_LIMIT', 16, 1, 100_000),
      total: read.int('SERVER_IN_FLIGHT_LIMIT', 128, 1, 1_000_000),
    },
    jsonBodyLimitBytes: read.int('JSON_BODY_LIMIT', 1024 * 1024, 1024, 100 * 1024 * 1024),
    swaggerEnabled: read.bool('SWAGGER_ENABLED', true),
    httpCompression: read.bool('HTTP_COMPRESSION', true),
    corsOrigins: read.origins('CORS_ORIGINS'),
    answerStreamBytes: read.int('ANSWER_STREAM_BYTES', 16 * 1024 * 1024, 1024, 2 ** 30),
    shutdownTimeoutMs: read.int('SHUTDOWN_TIMEOUT', 25, 0, 3600) * 1000,
    // 2 s covers a plain process: the connections already in the kernel's accept queue
    // and the requests clients are sending at that moment are read and answered, instead
    // of being reset when the listening socket closes. Behind a load balancer set it to
    // the time the balancer needs to stop sending (Kubernetes: 5, deploy/k8s).
    shutdownDelayMs: read.int('SHUTDOWN_DELAY', 2, 0, 3600) * 1000,
  };
}
