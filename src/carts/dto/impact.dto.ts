import { ApiProperty } from '@nestjs/swagger';
import { ApiId, ApiInt, ApiIntOptional, INT32 } from '../../common/swagger/schema-types.js';
import { MAX_ID } from '../../common/http/id-param.js';
import { OptionalQueryInt } from '../../common/validation/query-int.js';

/** Lines one impact request reads at most by default, and at most when asked. */
export const IMPACT_DEFAULT_LIMIT = 200;
export const IMPACT_MAX_LIMIT = 1000;

/** `?after=&limit=` of GET /v1/models/{id}/versions/{n}/impact: one bounded slice of lines. */
export class ImpactQueryDto {
  @ApiIntOptional({
    minimum: 0,
    maximum: MAX_ID,
    default: 0,
    description: 'Continue after this line id: the `next_after` of the previous answer',
  })
  @OptionalQueryInt(0, MAX_ID)
  after: number = 0;

  @ApiIntOptional({
    minimum: 1,
    maximum: IMPACT_MAX_LIMIT,
    default: IMPACT_DEFAULT_LIMIT,
    description: 'Stored lines of the model to examine at most in this request',
  })
  @OptionalQueryInt(1, IMPACT_MAX_LIMIT)
  limit: number = IMPACT_DEFAULT_LIMIT;
}

/** One buying company's stored lines against a version: counts only. */
export class CompanyImpactDto {
  @ApiId({ example: 1 }) company_id: number;
  @ApiInt({ minimum: 0, example: 3, description: 'Its lines on other versions of the model' })
  lines: number;
  @ApiInt({ minimum: 0, example: 1, description: 'Of those, the lines the version refuses' })
  invalid: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: { ...INT32 },
    example: { unknown_option: 1 },
    description: 'Per problem code, how many of its lines fail with it',
  })
  problems: Record<string, number>;
}

/** GET /v1/models/{id}/versions/{version}/impact: the counts of one slice of lines. */
export class VersionImpactDto {
  @ApiId({ example: 12 }) model_id: number;
  @ApiInt({ minimum: 1, example: 2 }) version_number: number;
  @ApiInt({
    minimum: 0,
    example: 4,
    description: 'Stored lines of the model read in this slice (those on the version included)',
  })
  examined: number;
  @ApiInt({ minimum: 0, example: 3, description: 'Of those, the lines on other versions, checked' })
  lines: number;
  @ApiInt({ minimum: 0, example: 1 }) invalid: number;
  @ApiProperty({ type: () => [CompanyImpactDto] }) companies: CompanyImpactDto[];
  @ApiProperty({
    example: true,
    description: 'No stored line of the model is left after this slice',
  })
  complete: boolean;
  @ApiProperty({
    ...INT32,
    nullable: true,
    example: null,
    description: 'The `after` of the next slice; null when complete',
  })
  next_after: number | null;
}
