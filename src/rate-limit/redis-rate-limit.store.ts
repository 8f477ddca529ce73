import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { RateLimitStore } from './rate-limit.store.js';

/** Redis answers a counter in well under a millisecond; more than this is an outage. */
const COMMAND_TIMEOUT_MS = 500;

/** Shared counters for several instances (REDIS_URL). */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly logger = new Logger(RedisRateLimitStore.name);
  private readonly redis: Redis;
  private lastError = '';

  constructor(url: string) {
    this.redis = new Redis(url, {
      // While disconnected a command fails at once (the caller counts in its own process
      // meanwhile) instead of waiting in a queue for a connection that may not come.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      // A connection that went silent (no answer, no reset) must not hold a login.
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: COMMAND_TIMEOUT_MS * 2,
      keepAlive: 10_000,
      lazyConnect: false,
      // Reconnects every second at most, forever: Redis may come back any time.
      retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
    });
    // Without a listener ioredis reports every failed reconnect as an unhandled error;
    // log each distinct problem once instead (limits count per process meanwhile).
    this.redis.on('error', (error: Error) => {
      if (error.message === this.lastError) return;
      this.lastError = error.message;
      this.logger.warn(`Redis: ${error.message}`);
    });
    this.redis.on('ready', () => (this.lastError = ''));
  }

  async hit(
    key: string,
    windowSeconds: number,
  ): Promise<{ count: number; resetInSeconds: number }> {
    const redisKey = `ratelimit:${key}`;
    const result = await this.redis
      .multi()
      .incr(redisKey)
      .expire(redisKey, windowSeconds, 'NX')
      .ttl(redisKey)
      .exec();
    // A failed command must not read as "first hit": that would silently lift the limit.
    if (!result) throw new Error('Redis transaction aborted');
    for (const [error] of result) if (error) throw error;
    const count = Number(result[0][1]);
    const ttl = Number(result[2][1]);
    return { count, resetInSeconds: ttl > 0 ? ttl : windowSeconds };
  }

  async peek(key: string): Promise<{ count: number; resetInSeconds: number }> {
    const redisKey = `ratelimit:${key}`;
    const result = await this.redis.multi().get(redisKey).ttl(redisKey).exec();
    if (!result) throw new Error('Redis transaction aborted');
    for (const [error] of result) if (error) throw error;
    const ttl = Number(result[1][1]);
    return { count: Number(result[0][1] ?? 0), resetInSeconds: ttl > 0 ? ttl : 0 };
  }

  /** Connected and ready for commands. */
  get ready(): boolean {
    return this.redis.status === 'ready';
  }

  get status(): string {
    return this.redis.status;
  }

  async ping(): Promise<void> {
    // Commands queue while disconnected; readiness wants "down" at once instead.
    if (this.redis.status !== 'ready') throw new Error(`Redis is ${this.redis.status}`);
    await this.redis.ping();
  }

  async close(): Promise<void> {
    // QUIT would wait for a connection that may never come; drop it instead.
    if (this.redis.status !== 'ready') return this.redis.disconnect();
    await this.redis.quit().catch(() => undefined);
  }
}
