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
