import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module.js';
import { IntentsController } from './intents.controller.js';
import { IntentsService } from './intents.service.js';
import { IntentTokenEntity } from './intent-token.entity.js';

/** Intent tokens for web shop front ends: POST /v1/intents, DELETE /v1/intents/{id}. */
@Module({
  imports: [TypeOrmModule.forFeature([IntentTokenEntity]), AuthModule],
  controllers: [IntentsController],
  providers: [IntentsService],
})
export class IntentsModule {}
