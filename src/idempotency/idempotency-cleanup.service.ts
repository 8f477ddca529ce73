import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { IdempotencyRepository } from './idempotency.repository.js';

const CLEANUP_EVERY_MS = 60 * 60 * 1000;

/**
 * Deletes keys past their 24 h once an hour (and once at start-up). Every instance
 * runs it; the deletes are idempotent. Expired keys are also ignored when met, so the
 * schedule only bounds the table's size.
 */
@Injectable()
export class IdempotencyCleanupService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Idempotency');
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly keys: IdempotencyRepository) {}

  onApplicationBootstrap(): void {
    void this.cleanUp();
    this.timer = setInterval(() => void this.cleanUp(), CLEANUP_EVERY_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  async cleanUp(): Promise<number> {
    try {
      const deleted = await this.keys.deleteExpired();
      if (deleted > 0) this.logger.log(`Deleted ${deleted} expired idempotency keys`);
      return deleted;
    } catch (error) {
      this.logger.warn(`Idempotency key cleanup failed: ${(error as Error).message}`);
      return 0;
    }
  }
}
