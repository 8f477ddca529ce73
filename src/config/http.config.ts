import type { EnvReader } from './env-reader.js';

/** docs/adr/0053 and 0150. */
export interface AdmissionConfig {
  /** Requests one verified credential (or, before one is verified, one client address) may have in flight. */
  perClient: number;
  /** Requests the whole process may have in flight. */
  total: number;
  /** Of `total`, what requests without a verified credential may hold together. */
  anonymous: number;
  /** A body must have arrived this long after its request was admitted… */
  bodyTimeoutMs: number;
  /** …plus one second per this many bytes received (the minimum rate that keeps it going)… */
  bodyMinBytesPerSecond: number;
  /** …and never later than this. */
  bodyMaxMs: number;
}

/** How the HTTP server listens, admits, parses, answers and shuts down. */
export interface HttpConfig {
  port: number;
  /** When set, /metrics is served on this port only, not on PORT (a NetworkPolicy can keep it private). */
  metricsPort: number | null;
  /** Proxies whose X-Forwarded-For is believed (express `trust proxy`); none by default. */
  trustedProxies: string[];
  /** Requests in flight and how long bodies may take to arrive (src/admission). */
  admission: AdmissionConfig;
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
    admission: readAdmissionConfig(read),
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

function readAdmissionConfig(read: EnvReader): AdmissionConfig {
  const total = read.int('SERVER_IN_FLIGHT_LIMIT', 128, 1, 1_000_000);
  const bodyTimeoutMs = read.int('BODY_READ_TIMEOUT_MS', 10_000, 100, 3_600_000);
  return {
    perClient: read.int('CLIENT_IN_FLIGHT_LIMIT', 16, 1, 100_000),
    total,
    // A quarter: logins, the pages and /docs need a few at a time; slow or invented
    // requests from strangers can then hold at most this much of the process.
    anonymous: Math.min(
      total,
      read.int('ANONYMOUS_IN_FLIGHT_LIMIT', Math.max(1, Math.floor(total / 4)), 1, 1_000_000),
    ),
    bodyTimeoutMs,
    bodyMinBytesPerSecond: read.int('BODY_MIN_RATE', 4096, 1, 2 ** 30),
    bodyMaxMs: Math.max(bodyTimeoutMs, read.int('BODY_READ_MAX_MS', 120_000, 100, 3_600_000)),
  };
}
