import { ApiId, ApiIntOptional } from '../../common/swagger/schema-types.js';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { IsId } from '../../common/validation/is-id.decorator.js';

export const MIN_INTENT_TTL_SECONDS = 60;
export const MAX_INTENT_TTL_SECONDS = 24 * 3600;

export class CreateIntentDto {
  @ApiId({ example: 1, description: 'The one company the token may act for' })
  @IsId()
  company_id: number;

  @ApiIntOptional({
    minimum: MIN_INTENT_TTL_SECONDS,
    maximum: MAX_INTENT_TTL_SECONDS,
    description: 'Lifetime in seconds (default INTENT_TTL, 1 h)',
    example: 3600,
  })
  @IsOptional()
  @IsInt()
  @Min(MIN_INTENT_TTL_SECONDS)
  @Max(MAX_INTENT_TTL_SECONDS)
  expires_in?: number;
}
