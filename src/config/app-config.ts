import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { EngineLimits } from '../engine/index.js';
import { DEFAULT_ENGINE_LIMITS } from '../engine/main-thread.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './password-rules.js';

export type DatabaseConfig =
  { type: 'sqlite'; path: string } | { type: 'postgres'; url: string; ssl: boolean };

/**
 * Everything the service reads from its environment, parsed and checked once at
 * start-up: a bad value stops the process with a message instead of failing later.
 */
export class AppConfig {
  readonly nodeEnv: string;
  readonly port: number;
  /** When set, /metrics is served on this port only, not on PORT (a NetworkPolicy can keep it private). */
  readonly metricsPort: number | null;
  readonly dataDir: string;
  readonly database: DatabaseConfig;
  readonly jwt: {
    secret: string;
    /**
     * The secret as a KeyObject, built once: jsonwebtoken first tries `createPublicKey` on a
     * string or Buffer secret (it throws; 0.5 ms per request); a KeyObject is used as is.
     */
    key: KeyObject;
    issuer: string;
    audience: string;
    accessTtlSeconds: number;
    refreshTtlSeconds: number;
    refreshGraceSeconds: number;
  };
  readonly intent: { defaultTtlSeconds: number };
  readonly admin: { email: string; password: string } | null;
  readonly redisUrl: string | null;
  readonly jsonBodyLimitBytes: number;
  readonly loginRateLimit: { max: number; windowSeconds: number };
  /** Failed logins per client (any emails) per window: looser, against stuffing. */
  readonly loginClientRateLimit: number;
  /** Days a device token (returned by login) stays valid. */
  readonly loginDeviceTtlDays: number;
  /** At most this many lines per cart (409 past it). */
  readonly cartMaxLines: number;
  /** A company invitation not accepted within this many days lapses (INVITATION_TTL_DAYS). */
  readonly invitationTtlDays: number;
  /** A signed asset URL is valid for at least this long, at most twice (ASSET_URL_TTL, s). */
  readonly assetUrlTtlSeconds: number;
  /** Proxies whose X-Forwarded-For is believed (express `trust proxy`); none by default. */
  readonly trustedProxies: string[];
  /** Requests in flight per credential (or client address) and in total (src/admission). */
  readonly admission: { perClient: number; total: number };
  readonly engineLimits: EngineLimits;
  readonly compiledModelCacheSize: number;
  /** Bytes the compiled-model cache may hold (estimated, see engine/model-size.ts). */
  readonly compiledModelCacheBytes: number;
  /** Worker threads that compile models, and how many compiles may wait for one. */
  readonly compileWorkers: number;
  readonly compileQueueSize: number;
  /** Old-generation heap of each compile worker: a model that needs more is refused (413). */
  readonly compileWorkerHeapMb: number;
  /** Worker threads that evaluate and describe (each holds the versions hashed to it). */
  readonly evaluationWorkers: number;
  /** Evaluations one company may have waiting (503 past it). */
  readonly evaluationQueueSize: number;
  /** Old-generation heap of each evaluation worker (its cache share lives in it). */
  readonly evaluationWorkerHeapMb: number;
  /** Wall-clock time one evaluation (or description) may run in its worker (422 past it). */
  readonly evaluationTimeoutMs: number;
  /**
   * The engine workers' entry module instead of the built one: set by the tests only, which
   * run the app from the TypeScript sources (test/support/engine-worker-bundle.ts).
   */
  readonly engineWorkerEntry: string | null;
  readonly swaggerEnabled: boolean;
  /** gzip/brotli answers as Accept-Encoding asks (HTTP_COMPRESSION, on by default). */
  readonly httpCompression: boolean;
  readonly logLevel: 'error' | 'warn' | 'log' | 'debug';
  readonly logFormat: 'json' | 'pretty';
  /** Browser origins allowed to call the API (CORS); empty: no cross-origin access. */
  readonly corsOrigins: string[];
  /**
   * An answer past this many bytes is streamed as it is written (no Content-Length,
   * no ETag) instead of held whole: a page of cart lines of a 5,000-question model is
   * ~215 MB (ANSWER_STREAM_BYTES).
   */
  readonly answerStreamBytes: number;
  /** How long SIGTERM waits for requests already received before closing anyway. */
  readonly shutdownTimeoutMs: number;
  /** After SIGTERM: not ready, but still accepting and serving, this long (SHUTDOWN_DELAY). */
  readonly shutdownDelayMs: number;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    const problems: string[] = [];
    const read = new EnvReader(env, problems);

    this.nodeEnv = env.NODE_ENV ?? 'development';
    this.port = read.int('PORT', 3000, 0, 65535);
    this.metricsPort = env.METRICS_PORT ? read.int('METRICS_PORT', 0, 1, 65535) : null;
    this.dataDir = resolve(env.DATA_DIR ?? './data');
    this.database = env.DATABASE_URL
      ? {
          type: 'postgres',
          url: read.url('DATABASE_URL', ['postgres:', 'postgresql:']),
          ssl: read.bool('DATABASE_SSL', false),
        }
      : { type: 'sqlite', path: join(this.dataDir, env.SQLITE_FILE ?? 'configurator.sqlite') };
    const secret = this.resolveJwtSecret(env, problems);
    this.jwt = {
      secret,
      key: createSecretKey(Buffer.from(secret, 'utf8')),
      issuer: env.JWT_ISSUER ?? 'configurator',
      audience: env.JWT_AUDIENCE ?? 'configurator-api',
      accessTtlSeconds: read.int('JWT_ACCESS_TTL', 15 * 60, 10, 24 * 3600),
      refreshTtlSeconds: read.int('JWT_REFRESH_TTL', 30 * 24 * 3600, 60, 365 * 24 * 3600),
      // How long the refresh token just replaced still answers the same new pair.
      refreshGraceSeconds: read.int('REFRESH_GRACE_SECONDS', 10, 0, 60),
    };
    this.intent = {
      // The bounds a client's `expires_in` has too (POST /v1/intents).
      defaultTtlSeconds: read.int('INTENT_TTL', 3600, 60, 24 * 3600),
    };
    const adminEmail = env.ADMIN_EMAIL?.trim();
    const adminPassword = env.ADMIN_PASSWORD;
    if (Boolean(adminEmail) !== Boolean(adminPassword)) {
      problems.push('ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
    }
    // The first admin is held to every account's password rules.
    if (
      adminPassword &&
      (adminPassword.length < MIN_PASSWORD_LENGTH || adminPassword.length > MAX_PASSWORD_LENGTH)
    ) {
      problems.push(
        `ADMIN_PASSWORD must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters long`,
      );
    }
    this.admin =
      adminEmail && adminPassword ? { email: adminEmail, password: adminPassword } : null;
    this.redisUrl = env.REDIS_URL ? read.url('REDIS_URL', ['redis:', 'rediss:']) : null;
    this.jsonBodyLimitBytes = read.int('JSON_BODY_LIMIT', 1024 * 1024, 1024, 100 * 1024 * 1024);
    this.loginRateLimit = {
      max: read.int('LOGIN_RATE_LIMIT', 10, 1, 100_000),
      windowSeconds: read.int('LOGIN_RATE_WINDOW', 60, 1, 86_400),
    };
    this.loginClientRateLimit = read.int(
      'LOGIN_CLIENT_RATE_LIMIT',
      this.loginRateLimit.max * 10,
      1,
      1_000_000,
    );
    this.loginDeviceTtlDays = read.int('LOGIN_DEVICE_TTL_DAYS', 180, 1, 3650);
    this.trustedProxies = read.proxyList('TRUSTED_PROXIES');
    this.admission = {
      perClient: read.int('CLIENT_IN_FLIGHT_LIMIT', 16, 1, 100_000),
      total: read.int('SERVER_IN_FLIGHT_LIMIT', 128, 1, 1_000_000),
    };
    this.cartMaxLines = read.int('CART_MAX_LINES', 500, 1, 100_000);
    this.invitationTtlDays = read.int('INVITATION_TTL_DAYS', 14, 1, 365);
    this.assetUrlTtlSeconds = read.int('ASSET_URL_TTL', 3600, 60, 7 * 24 * 3600);
    this.engineLimits = {
      ...DEFAULT_ENGINE_LIMITS,
      uploadBytes: read.int('MODEL_UPLOAD_LIMIT', DEFAULT_ENGINE_LIMITS.uploadBytes, 1024, 2 ** 31),
      zipUncompressedBytes: read.int(
        'MODEL_ZIP_UNCOMPRESSED_LIMIT',
        DEFAULT_ENGINE_LIMITS.zipUncompressedBytes,
        1024,
        2 ** 31,
      ),
      questions: read.int('MODEL_MAX_QUESTIONS', DEFAULT_ENGINE_LIMITS.questions, 1, 1_000_000),
      expressionCost: read.int(
        'MODEL_EXPRESSION_COST_LIMIT',
        DEFAULT_ENGINE_LIMITS.expressionCost,
        100,
        1_000_000_000,
      ),
      evaluationCost: read.int(
        'EVALUATION_COST_BUDGET',
        DEFAULT_ENGINE_LIMITS.evaluationCost,
        100,
        1_000_000_000,
      ),
      // The consistency compile budget; 0 compiles no diagram (availability by propagation).
      consistencyMs: read.int(
        'MODEL_CONSISTENCY_MS',
        DEFAULT_ENGINE_LIMITS.consistencyMs,
        0,
        3_600_000,
      ),
      consistencyBytes: read.int(
        'MODEL_CONSISTENCY_BYTES',
        DEFAULT_ENGINE_LIMITS.consistencyBytes,
        0,
        2 ** 40,
      ),
      // Units of compile work: whether a model is exact does not depend on the load.
      consistencySteps: read.int(
        'MODEL_CONSISTENCY_STEPS',
        DEFAULT_ENGINE_LIMITS.consistencySteps,
        0,
        2 ** 50,
      ),
      // Units of explanation work per evaluation (conflicts_with): past it, `explained: false`.
      explanationWork: read.int(
        'MODEL_EXPLANATION_WORK',
        DEFAULT_ENGINE_LIMITS.explanationWork,
        0,
        2 ** 50,
      ),
    };
    this.compiledModelCacheSize = read.int('COMPILED_MODEL_CACHE_SIZE', 200, 1, 100_000);
    this.compiledModelCacheBytes = read.int(
      'COMPILED_MODEL_CACHE_BYTES',
      256 * 1024 * 1024,
      1024 * 1024,
      2 ** 40,
    );
    this.compileWorkers = read.int('COMPILE_WORKERS', 1, 1, 64);
    this.compileQueueSize = read.int('COMPILE_QUEUE_SIZE', 8, 0, 10_000);
    this.compileWorkerHeapMb = read.int('COMPILE_WORKER_HEAP_MB', 256, 64, 16_384);
    this.evaluationWorkers = read.int('EVALUATION_WORKERS', 2, 1, 64);
    this.evaluationQueueSize = read.int('EVALUATION_QUEUE_SIZE', 32, 0, 10_000);
    this.evaluationWorkerHeapMb = read.int('EVALUATION_WORKER_HEAP_MB', 192, 32, 16_384);
    this.evaluationTimeoutMs = read.int('EVALUATION_TIMEOUT_MS', 2000, 10, 600_000);
    this.engineWorkerEntry = env.ENGINE_WORKER_ENTRY || null;
    this.swaggerEnabled = read.bool('SWAGGER_ENABLED', true);
    this.httpCompression = read.bool('HTTP_COMPRESSION', true);
    this.logLevel = read.oneOf('LOG_LEVEL', ['error', 'warn', 'log', 'debug'] as const, 'log');
    this.logFormat = read.oneOf('LOG_FORMAT', ['json', 'pretty'] as const, 'json');
    this.corsOrigins = read.origins('CORS_ORIGINS');
    this.shutdownTimeoutMs = read.int('SHUTDOWN_TIMEOUT', 25, 0, 3600) * 1000;
    // 2 s covers a plain process: the connections already in the kernel's accept queue
    // and the requests clients are sending at that moment are read and answered, instead
    // of being reset when the listening socket closes. Behind a load balancer set it to
    // the time the balancer needs to stop sending (Kubernetes: 5, deploy/k8s).
    this.shutdownDelayMs = read.int('SHUTDOWN_DELAY', 2, 0, 3600) * 1000;
    this.answerStreamBytes = read.int('ANSWER_STREAM_BYTES', 16 * 1024 * 1024, 1024, 2 ** 30);

    if (problems.length > 0) {
      throw new Error(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    }
  }

  get isProduction(): boolean {
    return this.nodeEnv === 'production';
  }

  /**
   * Production must be given a secret; elsewhere one is generated once and kept in
   * DATA_DIR so that tokens survive a restart.
   */
  private resolveJwtSecret(env: NodeJS.ProcessEnv, problems: string[]): string {
    const given = env.JWT_SECRET;
    if (given !== undefined) {
      if (given.length < 32) problems.push('JWT_SECRET must be at least 32 characters');
      return given;
    }
    if (this.isProduction) {
      problems.push('JWT_SECRET is required when NODE_ENV=production');
      return '';
    }
    const file = join(this.dataDir, 'jwt-secret');
    if (existsSync(file)) return readFileSync(file, 'utf8').trim();
    mkdirSync(this.dataDir, { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}

/** Typed reads of environment variables that record problems instead of throwing one by one. */
class EnvReader {
  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly problems: string[],
  ) {}

  int(name: string, fallback: number, min: number, max: number): number {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      this.problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.env[name]?.toLowerCase();
    if (raw === undefined || raw === '') return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    this.problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  }

  url(name: string, protocols: string[]): string {
    const raw = this.env[name] ?? '';
    try {
      const url = new URL(raw);
      if (!protocols.includes(url.protocol)) throw new Error('protocol');
    } catch {
      this.problems.push(`${name} must be a ${protocols.join(' or ')}// URL`);
    }
    return raw;
  }

  /** A comma-separated list of origins (`https://shop.example`, `http://127.0.0.1:8080`). */
  origins(name: string): string[] {
    const raw = this.env[name]?.trim();
    if (!raw) return [];
    const origins: string[] = [];
    for (const item of raw.split(',').map((part) => part.trim())) {
      let origin: string | null = null;
      try {
        const url = new URL(item);
        if (url.origin === item.replace(/\/$/, '') && ['http:', 'https:'].includes(url.protocol))
          origin = url.origin;
      } catch {
        origin = null;
      }
      if (origin === null)
        this.problems.push(`${name}: "${item}" is not an origin (scheme://host[:port])`);
      else origins.push(origin);
    }
    return origins;
  }

  /**
   * A comma-separated list of IP addresses, CIDR ranges or express's names for ranges
   * (loopback, linklocal, uniquelocal), as express `trust proxy` takes them.
   */
  proxyList(name: string): string[] {
    const entries = (this.env[name] ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    for (const entry of entries) {
      if (!isProxyEntry(entry)) {
        this.problems.push(
          `${name}: "${entry}" is not an IP address, a CIDR range or a range name`,
        );
      }
    }
    return entries;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
    return fallback;
  }
}

const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyEntry(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = family === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= bits;
}
