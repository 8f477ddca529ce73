import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { TokenIssuer } from './token-issuer.service.js';

/** Signs the service's JWTs (access, refresh, intent); verification is the auth strategies'. */
@Module({
  imports: [JwtModule.register({})],
  providers: [TokenIssuer],
  exports: [TokenIssuer],
})
export class JwtTokensModule {}
