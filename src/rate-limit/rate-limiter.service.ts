import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { ApiError } from '../common/errors/api-error.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { MemoryRateLimitStore, type RateLimitStore } from './rate-limit.store.js';
import { RedisRateLimitStore } from './redis-rate-limit.store.js';

/**
 * Where the counters are kept right now: `shared` in Redis; `per-process` in this process,
 * because REDIS_URL is unset or because Redis does not answer (then `fallback` is true).
 */
export interface RateLimitMode {
  counters: 'shared' | 'per-process';
  fallback: boolean;
}

/** After Redis failed a command, it is tried again this much later (not on every request). */
const RETRY_SHARED_AFTER_MS = 2_000;

/**
 * Fixed-window rate limits. With REDIS_URL the counters are shared by every instance; while
 * Redis does not answer, they are this process's until it does again
 * (docs/adr/0152-redis-outage-falls-back-to-local-limits.md): an outage of Redis never
 * refuses a login, it only makes each instance count on its own for a while.
 */
@Injectable()
export class RateLimiterService implements OnApplicationShutdown {
  private readonly logger = new Logger(RateLimiterService.name);
  private readonly shared: RedisRateLimitStore | null;
  private readonly local = new MemoryRateLimitStore();
  private skipSharedUntil = 0;
  private fellBack = false;

  constructor(config: AppConfig, metrics: MetricsService) {
    this.shared = config.redisUrl ? new RedisRateLimitStore(config.redisUrl) : null;
    metrics.trackRateLimitFallback(() => this.mode.fallback);
    if (this.shared && config.metricsEnabled) metrics.trackRedisUp(() => this.ping());
  }

  /** Adds one hit to each key (failures counted after the fact). */
  async record(keys: string[], windowSeconds: number): Promise<void> {
    await Promise.all(keys.map((key) => this.withStore((store) => store.hit(key, windowSeconds))));
  }

  /** Counts in the current windows, without adding hits. */
  async counts(keys: string[]): Promise<Array<{ count: number; resetInSeconds: number }>> {
    return Promise.all(keys.map((key) => this.withStore((store) => store.peek(key))));
  }

  get mode(): RateLimitMode {
    if (this.shared === null) return { counters: 'per-process', fallback: false };
    return this.sharedUsable()
      ? { counters: 'shared', fallback: false }
      : { counters: 'per-process', fallback: true };
  }

  /**
   * Whether Redis answers (readiness reports it; it never makes the instance unready). A
   * Redis that does not answer a ping is not used for the next requests either.
   */
  async ping(): Promise<void> {
    if (this.shared === null) return;
    try {
      await this.shared.ping();
      if (this.sharedUsable()) this.noteFallback(false);
    } catch (error) {
      this.skipSharedUntil = Date.now() + RETRY_SHARED_AFTER_MS;
      this.noteFallback(true, (error as Error).message);
      throw error;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.shared?.close(), this.local.close()]);
  }

  private sharedUsable(): boolean {
    return this.shared !== null && this.shared.ready && Date.now() >= this.skipSharedUntil;
  }

  /** Redis when it is usable, else (and when it fails now) this process's counters. */
  private async withStore<T>(operation: (store: RateLimitStore) => Promise<T>): Promise<T> {
    if (this.shared !== null && this.sharedUsable()) {
      try {
        const result = await operation(this.shared);
        this.noteFallback(false);
        return result;
      } catch (error) {
        this.skipSharedUntil = Date.now() + RETRY_SHARED_AFTER_MS;
        this.noteFallback(true, (error as Error).message);
      }
    } else if (this.shared !== null) {
      this.noteFallback(true, `Redis is ${this.shared.status}`);
    }
    return operation(this.local);
  }

  /** One log line per change, not one per request. */
  private noteFallback(fallback: boolean, reason = ''): void {
    if (fallback === this.fellBack) return;
    this.fellBack = fallback;
    if (fallback) {
      this.logger.warn(`Rate limits count per process while Redis is unavailable: ${reason}`);
    } else {
      this.logger.log('Rate limits are shared through Redis again');
    }
  }
}

export function tooManyRequests(retryAfterSeconds: number): ApiError {
  const retryAfter = Math.max(1, retryAfterSeconds);
  return new ApiError(
    429,
    'Too many requests',
    [{ code: 'rate_limited', message: `Too many attempts; retry in ${retryAfter} s` }],
    { 'Retry-After': String(retryAfter) },
  );
}
