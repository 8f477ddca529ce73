import { Global, Module } from '@nestjs/common';
import { AccessRepository } from './access.repository.js';
import { AccessService } from './access.service.js';

/** Visibility and permission rules, available to every feature (and the global guard). */
@Global()
@Module({
  providers: [AccessService, AccessRepository],
  exports: [AccessService],
})
export class AccessModule {}
