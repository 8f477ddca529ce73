import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { ApiError } from '../common/errors/api-error.js';
import { MemoryRateLimitStore, type RateLimitStore } from './rate-limit.store.js';
import { RedisRateLimitStore } from './redis-rate-limit.store.js';

/**
 * Fixed-window rate limits. With REDIS_URL the counters are shared by every
 * instance; without it they live in this process.
 */
@Injectable()
export class RateLimiterService implements OnApplicationShutdown {
  private readonly logger = new Logger(RateLimiterService.name);
  private readonly store: RateLimitStore;

  constructor(config: AppConfig) {
    this.store = config.redisUrl
      ? new RedisRateLimitStore(config.redisUrl)
      : new MemoryRateLimitStore();
  }

  /** Adds one hit to each key (failures counted after the fact). */
  async record(keys: string[], windowSeconds: number): Promise<void> {
    await Promise.all(keys.map((key) => this.hit(key, windowSeconds)));
  }

  /** Counts in the current windows, without adding hits. */
  async counts(keys: string[]): Promise<Array<{ count: number; resetInSeconds: number }>> {
    return Promise.all(keys.map((key) => this.guarded(() => this.store.peek(key))));
  }

  /**
   * Fails closed: without its counters the limit cannot be enforced, so the caller gets
   * a 503 to retry (never a bare 500, never an unlimited login).
   */
  private async hit(
    key: string,
    windowSeconds: number,
  ): Promise<{ count: number; resetInSeconds: number }> {
    return this.guarded(() => this.store.hit(key, windowSeconds));
  }

  private async guarded<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      this.logger.error(`Rate-limit store unavailable: ${(error as Error).message}`);
      throw new ApiError(
        503,
        'Service unavailable',
        [{ code: 'rate_limit_unavailable', message: 'Rate limiting is unavailable; retry later' }],
        { 'Retry-After': '5' },
      );
    }
  }

  /** Whether the counters' store answers (Redis when configured). */
  ping(): Promise<void> {
    return this.store.ping();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
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
