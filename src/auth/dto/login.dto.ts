import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { EmailAddress } from '../../common/validation/email-address.js';
import { MAX_PASSWORD_LENGTH } from '../../users/password.service.js';

export class LoginDto {
  @EmailAddress({ example: 'admin@example.com' })
  email: string;

  @ApiProperty({ example: 'change-me-please', format: 'password' })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_PASSWORD_LENGTH)
  password: string;

  @ApiProperty({
    required: false,
    description:
      'The device token of an earlier login of this account on this device: exempts the ' +
      'login from the per-email and per-client limits (an unknown one is ignored)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  device_token?: string;
}

export class RefreshDto {
  @ApiProperty({ description: 'The refresh token from /v1/login or the last /v1/refresh' })
  @IsString()
  @MinLength(1)
  @MaxLength(4096)
  refresh_token: string;
}

/** Logout takes a refresh token in the body, or none when called with an access token. */
export class LogoutDto {
  @ApiProperty({ required: false, description: 'Revoke this refresh token’s session' })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  refresh_token?: string;
}
