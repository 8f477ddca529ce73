import { ApiProperty } from '@nestjs/swagger';
import { ApiId, ApiInt, INT32 } from '../../common/swagger/schema-types.js';

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

/** GET /v1/models/{id}/versions/{version}/impact. */
export class VersionImpactDto {
  @ApiId({ example: 12 }) model_id: number;
  @ApiInt({ minimum: 1, example: 2 }) version_number: number;
  @ApiInt({ minimum: 0, example: 3, description: 'Stored lines on other versions, checked' })
  lines: number;
  @ApiInt({ minimum: 0, example: 1 }) invalid: number;
  @ApiProperty({ type: () => [CompanyImpactDto] }) companies: CompanyImpactDto[];
}
