import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { IntentsModule } from '../intents/intents.module.js';
import { JwtTokensModule } from '../jwt/jwt-tokens.module.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { UsersModule } from '../users/users.module.js';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';
import { DeviceTokenRepository } from './device-token.repository.js';
import { DeviceTokensService } from './device-tokens.service.js';
import { LoginThrottle } from './login-throttle.service.js';
import { SessionRepository } from './session.repository.js';
import { SessionsService } from './sessions.service.js';
import { AccessTokenStrategy } from './strategies/access-token.strategy.js';
import { ApiTokenStrategy } from './strategies/api-token.strategy.js';
import { IntentTokenStrategy } from './strategies/intent-token.strategy.js';
import { RefreshTokenStrategy } from './strategies/refresh-token.strategy.js';
import { UserAdminController } from './user-admin.controller.js';
import { UserLifecycleService } from './user-lifecycle.service.js';

/**
 * Credentials: the four Passport strategies (each asks the feature that owns the
 * credential: sessions, TokensService, IntentsService), login, refresh, logout.
 */
@Module({
  imports: [PassportModule, JwtTokensModule, UsersModule, TokensModule, IntentsModule],
  controllers: [AuthController, UserAdminController],
  providers: [
    AuthService,
    LoginThrottle,
    DeviceTokensService,
    DeviceTokenRepository,
    UserLifecycleService,
    SessionsService,
    SessionRepository,
    AccessTokenStrategy,
    RefreshTokenStrategy,
    ApiTokenStrategy,
    IntentTokenStrategy,
  ],
})
export class AuthModule {}
