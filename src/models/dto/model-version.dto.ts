import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { JsonText } from '../../common/http/json-text.js';
import { MAX_ID } from '../../common/http/id-param.js';
import { ApiId, ApiInt, ApiTimestamp, INT32 } from '../../common/swagger/schema-types.js';
import type { ModelVersionEntity } from '../model-version.entity.js';
import type { ModelChange } from '../versions/model-diff.js';
import { OptionalQueryInt } from '../../common/validation/query-int.js';

/** One stored version of a model: who stored it and when (GET /v1/models/{id}/versions). */
export class ModelVersionDto {
  @ApiId({ example: 12 }) model_id: number;
  @ApiInt({ minimum: 1, example: 2 }) version_number: number;
  @ApiTimestamp({ description: 'When the version was stored' }) created_at: string;
  @ApiProperty({
    ...INT32,
    nullable: true,
    example: 7,
    description: 'The user who stored it (null: stored by the CLI without a user)',
  })
  created_by_id: number | null;
  @ApiProperty({ enum: ['json', 'yaml', 'zip'], example: 'yaml' }) source_format: string;
  @ApiProperty({ example: true, description: "The model's current version" })
  current: boolean;

  static from(version: ModelVersionEntity, currentVersion: number): ModelVersionDto {
    return {
      model_id: version.modelId,
      version_number: version.versionNumber,
      created_at: version.createdAt.toISOString(),
      created_by_id: version.createdById,
      source_format: version.sourceFormat,
      current: version.versionNumber === currentVersion,
    };
  }
}

/** GET /v1/models/{id}/versions/{n}: the version and its definition as stored. */
export class ModelVersionDetailDto extends ModelVersionDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { general: { name: 'Casement window', code: 'WIN-CASEMENT' }, questions: [] },
    description: 'The model document of this version, imports merged (docs/model-format.md)',
  })
  definition: JsonText;
}

/** `?from=&to=` of GET /v1/models/{id}/diff: default the previous and the current version. */
export class ModelDiffQueryDto {
  @ApiPropertyOptional({ ...INT32, minimum: 1, example: 1, description: 'Default: to − 1' })
  @OptionalQueryInt(1, MAX_ID)
  from?: number;

  @ApiPropertyOptional({
    ...INT32,
    minimum: 1,
    example: 2,
    description: 'Default: the current version',
  })
  @OptionalQueryInt(1, MAX_ID)
  to?: number;
}

const CHANGE_KINDS = [
  'general',
  'import',
  'question',
  'option',
  'variable',
  'rule',
  'table_row',
  'trigger',
  'bom_item',
  'price',
  'translation',
  'image',
];

/** Any JSON value of a model document (the value before or after a change). */
const ANY_JSON = {
  oneOf: [
    { type: 'string' },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'object', additionalProperties: true },
    { type: 'array', items: {} },
  ],
};

/** One difference between two versions. */
export class ModelChangeDto {
  @ApiProperty({ enum: ['added', 'removed', 'changed'], example: 'changed' })
  change: 'added' | 'removed' | 'changed';
  @ApiProperty({ enum: CHANGE_KINDS, example: 'price' }) kind: string;
  @ApiProperty({
    example: 'questions.frame.options.alu.price',
    description:
      'Dotted path in the model document; list items by key, table rows by index ' +
      '(`rules.frame_colors.allowed.rows[6]`), translations by language and text path',
  })
  path: string;
  @ApiPropertyOptional({ ...ANY_JSON, example: '85.00', description: 'Before (absent when added)' })
  from?: unknown;
  @ApiPropertyOptional({
    ...ANY_JSON,
    example: '95.00',
    description: 'After (absent when removed)',
  })
  to?: unknown;
}

/** GET /v1/models/{id}/diff. */
export class ModelDiffDto {
  @ApiId({ example: 12 }) model_id: number;
  @ApiInt({ minimum: 1, example: 1 }) from: number;
  @ApiInt({ minimum: 1, example: 2 }) to: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: { ...INT32 },
    example: { price: 1, option: 1 },
    description: 'How many changes of each kind',
  })
  counts: Record<string, number>;
  @ApiProperty({ type: () => [ModelChangeDto] }) changes: ModelChangeDto[];
  @ApiProperty({ example: false, description: 'More changes than listed (the first 2,000 are)' })
  truncated: boolean;

  static of(
    modelId: number,
    from: number,
    to: number,
    diff: { changes: ModelChange[]; truncated: boolean },
  ): ModelDiffDto {
    const counts: Record<string, number> = {};
    for (const change of diff.changes) counts[change.kind] = (counts[change.kind] ?? 0) + 1;
    return {
      model_id: modelId,
      from,
      to,
      counts,
      changes: diff.changes,
      truncated: diff.truncated,
    };
  }
}
