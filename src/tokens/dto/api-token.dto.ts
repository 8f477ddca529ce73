import { ApiId, ApiTimestamp, ApiNullableString } from '../../common/swagger/schema-types.js';
import { ApiProperty } from '@nestjs/swagger';
import type { ApiTokenEntity } from '../api-token.entity.js';

/** An API token as listed: never its secret (which is not stored anyway). */
export class ApiTokenDto {
  @ApiId({ example: 7 }) id: number;
  @ApiProperty({ example: 'ERP integration' }) name: string;

  @ApiProperty({ example: 'cfg_Ab12Cd', description: 'The first characters of the secret' })
  prefix: string;

  @ApiTimestamp() created_at: string;

  @ApiNullableString({ example: '2099-01-01T00:00:00.000Z' })
  expires_at: string | null;

  @ApiNullableString({
    format: 'date-time',
    example: null,
    description: 'Updated at most once a minute; null until first used',
  })
  last_used_at: string | null;

  static from(token: ApiTokenEntity): ApiTokenDto {
    return {
      id: token.id,
      name: token.name,
      prefix: token.prefix,
      created_at: token.createdAt.toISOString(),
      expires_at: token.expiresAt?.toISOString() ?? null,
      last_used_at: token.lastUsedAt?.toISOString() ?? null,
    };
  }
}

/** The answer of POST /v1/tokens: the only time the secret is shown. */
export class CreatedApiTokenDto extends ApiTokenDto {
  @ApiProperty({
    example: 'cfg_Ab12Cd…',
    description: 'The secret (Authorization: Bearer …). Shown once; store it now.',
  })
  token: string;

  static withSecret(token: ApiTokenEntity, secret: string): CreatedApiTokenDto {
    return { ...ApiTokenDto.from(token), token: secret };
  }
}
