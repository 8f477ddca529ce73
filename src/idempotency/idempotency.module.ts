import { Global, Module } from '@nestjs/common';
import { IdempotencyCleanupService } from './idempotency-cleanup.service.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IdempotencyRepository } from './idempotency.repository.js';

/** `@Idempotent()` routes: keys in the database, so they hold across instances. */
@Global()
@Module({
  providers: [IdempotencyRepository, IdempotencyInterceptor, IdempotencyCleanupService],
  exports: [IdempotencyRepository, IdempotencyInterceptor],
})
export class IdempotencyModule {}
