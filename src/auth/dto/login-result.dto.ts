import { ApiInt } from '../../common/swagger/schema-types.js';
import { ApiProperty } from '@nestjs/swagger';

export class LoginResultDto {
  @ApiProperty({ description: 'JWT access token (Authorization: Bearer …)' })
  access_token: string;

  @ApiProperty({ description: 'Single-use refresh token for POST /v1/refresh' })
  refresh_token: string;

  @ApiProperty({ enum: ['Bearer'], example: 'Bearer' })
  token_type: 'Bearer';

  @ApiInt({ description: 'Seconds until the access token expires', example: 900 })
  expires_in: number;
}
