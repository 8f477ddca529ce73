import { Module } from '@nestjs/common';
import { JwtTokensModule } from '../jwt/jwt-tokens.module.js';
import { IntentTokenRepository } from './intent-token.repository.js';
import { IntentsController } from './intents.controller.js';
import { IntentsService } from './intents.service.js';

/** Intent tokens for web shop front ends: POST /v1/intents, DELETE /v1/intents/{id}. */
@Module({
  imports: [JwtTokensModule],
  controllers: [IntentsController],
  providers: [IntentsService, IntentTokenRepository],
  exports: [IntentsService],
})
export class IntentsModule {}
