import { Global, Module } from '@nestjs/common';
import { IdempotencyCleanupService } from './idempotency-cleanup.service.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IdempotentWork } from './idempotent-work.js';
import { Replays } from './replays.js';

/** `@Idempotent()` routes: keys in the database, so they hold across instances. */
@Global()
@Module({
  providers: [
    IdempotencyRepository,
    IdempotencyInterceptor,
    IdempotencyCleanupService,
    IdempotentWork,
    Replays,
  ],
  exports: [IdempotencyRepository, IdempotencyInterceptor, IdempotentWork, Replays],
})
export class IdempotencyModule {}
