import { Body, Controller, HttpCode, Ip, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrors } from '../common/swagger/api-envelope.decorator.js';
import { ResponseMessage } from '../common/envelope/response-message.decorator.js';
import { SeedContract } from '../common/seed-contract.decorator.js';
import { Auth, Public } from '../principal/auth.decorator.js';
import { AuthService } from './auth.service.js';
import { CurrentPrincipal } from '../principal/current-principal.decorator.js';
import { LoginDto, LogoutDto, RefreshDto } from './dto/login.dto.js';
import { LoginAnswerDto, LoginResultDto } from './dto/login-result.dto.js';
import type { Principal } from '../principal/principal.js';

@ApiTags('auth')
@Controller('v1')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('login')
  @Public()
  @SeedContract()
  @ResponseMessage('User logged in')
  @ApiOperation({ summary: 'Log in: an access token, a refresh token and a device token' })
  @ApiEnvelope(LoginAnswerDto, { status: 201 })
  @ApiErrors(400, 403, 429)
  login(@Body() body: LoginDto, @Ip() ip: string): Promise<LoginAnswerDto> {
    return this.auth.login(body.email, body.password, ip, body.device_token);
  }

  @Post('refresh')
  @Auth('refresh')
  @ResponseMessage('Tokens refreshed')
  @ApiOperation({ summary: 'Rotate a refresh token: a new access and refresh token' })
  @ApiEnvelope(LoginResultDto, { status: 201 })
  @ApiErrors(400, 401)
  refresh(
    @Body() _body: RefreshDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<LoginResultDto> {
    return this.auth.refresh(principal);
  }

  @Post('logout')
  @HttpCode(200)
  @Auth('jwt', 'refresh')
  @ResponseMessage('Logged out')
  @ApiOperation({ summary: 'End the session: revokes its refresh-token family' })
  @ApiEnvelope(null)
  @ApiErrors(400, 401)
  async logout(@Body() _body: LogoutDto, @CurrentPrincipal() principal: Principal): Promise<null> {
    await this.auth.logout(principal);
    return null;
  }
}
