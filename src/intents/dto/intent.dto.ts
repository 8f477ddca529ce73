import { ApiId, ApiTimestamp } from '../../common/swagger/schema-types.js';
import { ApiProperty } from '@nestjs/swagger';
import type { IntentTokenEntity } from '../intent-token.entity.js';

/** The answer of POST /v1/intents. */
export class IntentDto {
  @ApiProperty({
    example: '0b5e6f9e-3c1a-4a57-9c52-2f0d7b1f4a10',
    description: 'The token id (jti), for DELETE /v1/intents/{id}',
  })
  id: string;

  @ApiProperty({
    example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ0eXAiOiJpbnRlbnQifQ.c2lnbmF0dXJl',
    description: 'The intent JWT (Authorization: Bearer …)',
  })
  token: string;

  @ApiId({ example: 12 }) company_id: number;
  @ApiTimestamp() expires_at: string;

  static from(intent: IntentTokenEntity, token: string): IntentDto {
    return {
      id: intent.id,
      token,
      company_id: intent.companyId,
      expires_at: intent.expiresAt.toISOString(),
    };
  }
}
