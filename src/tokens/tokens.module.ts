import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiTokenEntity } from './api-token.entity.js';
import { TokensController } from './tokens.controller.js';
import { TokensService } from './tokens.service.js';

/** API tokens for integrations: POST/GET /v1/tokens, DELETE /v1/tokens/{id}. */
@Module({
  imports: [TypeOrmModule.forFeature([ApiTokenEntity])],
  controllers: [TokensController],
  providers: [TokensService],
})
export class TokensModule {}
