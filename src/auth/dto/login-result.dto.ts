import { ApiInt } from '../../common/swagger/schema-types.js';
import { ApiProperty } from '@nestjs/swagger';

export class LoginResultDto {
  @ApiProperty({
    example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ0eXAiOiJhY2Nlc3MifQ.c2lnbmF0dXJl',
    description: 'JWT access token (Authorization: Bearer …)',
  })
  access_token: string;

  @ApiProperty({
    example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ0eXAiOiJyZWZyZXNoIn0.c2lnbmF0dXJl',
    description: 'Single-use refresh token for POST /v1/refresh',
  })
  refresh_token: string;

  @ApiProperty({ enum: ['Bearer'], example: 'Bearer' })
  token_type: 'Bearer';

  @ApiInt({ description: 'Seconds until the access token expires', example: 900 })
  expires_in: number;
}

/** The answer of POST /v1/login: the session's tokens and a device token. */
export class LoginAnswerDto extends LoginResultDto {
  @ApiProperty({
    description:
      'Device token: keep it on this device and send it as `device_token` with later ' +
      'logins of this account, which are then exempt from the per-email and per-client ' +
      'limits (docs/security.md). Opaque; replaced by every login.',
    example: 'dev_3q2-7wQ8x1bZ0s9fKj4mN6pR5tV2yA8cE1gH3iL7oU0',
  })
  device_token: string;
}
