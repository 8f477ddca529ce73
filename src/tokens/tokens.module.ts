import { Module } from '@nestjs/common';
import { ApiTokenRepository } from './api-token.repository.js';
import { TokensController } from './tokens.controller.js';
import { TokensService } from './tokens.service.js';

/** API tokens for integrations: POST/GET /v1/tokens, DELETE /v1/tokens/{id}. */
@Module({
  controllers: [TokensController],
  providers: [TokensService, ApiTokenRepository],
  exports: [TokensService],
})
export class TokensModule {}
