import {
  ApiId,
  ApiInt,
  ApiNullableString,
  ApiTimestamp,
} from '../../common/swagger/schema-types.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { activeLockHolder, lockExpiry } from '../model-lock.js';
import type { ModelEntity } from '../model.entity.js';

const GENERAL_EXAMPLE = {
  name: 'Casement window',
  code: 'WIN-CASEMENT',
  currency: 'EUR',
  default_language: 'en',
};

/** A model (API-v1.md "Model"): its metadata and the `general` section of its current version. */
export class ModelDto {
  @ApiId({ example: 12 }) id: number;
  @ApiId({ example: 3 }) supplier_id: number;
  @ApiInt({
    minimum: 1,
    example: 1,
    description: 'The current version (1 on create, +1 per upload)',
  })
  version_number: number;
  @ApiTimestamp() created_at: string;
  @ApiNullableString({
    format: 'date-time',
    example: null,
    description: 'When the current version was stored; null until a second version',
  })
  updated_at: string | null;
  @ApiInt({
    nullable: true,
    example: null,
    description: 'The user holding the edit lock (null when free or lapsed)',
  })
  locked_by_id: number | null;
  @ApiNullableString({
    format: 'date-time',
    example: null,
    description: 'When the edit lock lapses unless renewed',
  })
  lock_expires_at: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: GENERAL_EXAMPLE,
    description: 'The general section of the current version, as uploaded',
  })
  general: Record<string, unknown>;

  /** From the row alone: its stored `general` (the name, for rows from before it was kept). */
  static fromRow(model: ModelEntity, now = new Date()): ModelDto {
    return ModelDto.from(model, model.general ?? { name: model.name }, now);
  }

  static from(model: ModelEntity, general: unknown, now = new Date()): ModelDto {
    return {
      id: model.id,
      supplier_id: model.supplierId,
      version_number: model.versionNumber,
      created_at: model.createdAt.toISOString(),
      updated_at: model.updatedAt ? model.updatedAt.toISOString() : null,
      locked_by_id: activeLockHolder(model, now),
      lock_expires_at: lockExpiry(model, now)?.toISOString() ?? null,
      general: isRecord(general) ? general : {},
    };
  }
}

/** What compiling the current version found out (GET /v1/models/{id}). */
export class ModelAnalysisDto {
  @ApiProperty({ description: 'Whether the consistency form is exact (else an estimate)' })
  exact: boolean;
  @ApiProperty({
    pattern: '^\\d+$',
    example: '1296',
    description: 'How many complete configurations the model allows (decimal string)',
  })
  configurations: string;
  @ApiProperty({
    type: [String],
    example: [],
    description: 'Options no complete configuration can select (`question.option`)',
  })
  dead_options: string[];
  @ApiProperty({ type: 'number', example: 12.5, description: 'Compile time, milliseconds' })
  compile_ms: number;
  @ApiInt({ minimum: 0, example: 420, description: 'Size of the consistency form (nodes)' })
  size: number;
}

/** A model with the full definition of one of its versions. */
export class ModelDetailDto extends ModelDto {
  @ApiPropertyOptional({ type: () => ModelAnalysisDto })
  analysis?: ModelAnalysisDto;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The model document of the current version, imports merged (docs/model-format.md)',
  })
  definition: Record<string, unknown>;

  static withDefinition(model: ModelEntity, definition: Record<string, unknown>): ModelDetailDto {
    return { ...ModelDto.from(model, definition.general), definition };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
