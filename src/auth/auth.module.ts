import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IntentTokenEntity } from '../intents/intent-token.entity.js';
import { ApiTokenEntity } from '../tokens/api-token.entity.js';
import { UserEntity } from '../users/user.entity.js';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';
import { PasswordService } from './password.service.js';
import { RefreshFamilyEntity } from './refresh-family.entity.js';
import { AccessTokenStrategy } from './strategies/access-token.strategy.js';
import { ApiTokenStrategy } from './strategies/api-token.strategy.js';
import { IntentTokenStrategy } from './strategies/intent-token.strategy.js';
import { PrincipalLoader } from './strategies/principal-loader.js';
import { RefreshTokenStrategy } from './strategies/refresh-token.strategy.js';
import { TokenIssuer } from './token-issuer.service.js';

/** Credentials: the four Passport strategies, token signing, passwords, login. */
@Module({
  imports: [
    PassportModule,
    JwtModule.register({}),
    TypeOrmModule.forFeature([UserEntity, RefreshFamilyEntity, ApiTokenEntity, IntentTokenEntity]),
  ],
  controllers: [AuthController],
  providers: [
    AuthService,
    PasswordService,
    TokenIssuer,
    PrincipalLoader,
    AccessTokenStrategy,
    RefreshTokenStrategy,
    ApiTokenStrategy,
    IntentTokenStrategy,
  ],
  exports: [PasswordService, TokenIssuer],
})
export class AuthModule {}
