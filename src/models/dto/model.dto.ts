import {
  ApiId,
  ApiInt,
  ApiNullableString,
  ApiTimestamp,
} from '../../common/swagger/schema-types.js';
import { JsonText } from '../../common/http/json-text.js';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { activeLockHolder, lockExpiry } from '../model-lock.js';
import type { ModelEntity } from '../model.entity.js';
import { ModelAnalysisDto } from './model-analysis.dto.js';
import { MODEL_DEFINITION_REF, MODEL_GENERAL_REF } from './model-definition.schema.js';

const GENERAL_EXAMPLE = {
  name: 'Casement window',
  code: 'WIN-CASEMENT',
  currency: 'EUR',
  default_language: 'en',
};

/** A model (docs/api.md, "Models"): its metadata and the `general` section of its current version. */
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
  @ApiNullableString({
    format: 'date-time',
    example: null,
    description:
      'When the supplier retired the model (POST /v1/models/{id}/retire): no new cart lines; ' +
      'null while it is active',
  })
  retired_at: string | null;
  @ApiProperty({
    allOf: [MODEL_GENERAL_REF],
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
      retired_at: model.retiredAt ? model.retiredAt.toISOString() : null,
      general: isRecord(general) ? general : {},
    };
  }
}

/** A model with the full definition of one of its versions. */
export class ModelDetailDto extends ModelDto {
  @ApiProperty({
    // `type` given: the TS type (JsonText, the stored text) is not the schema.
    type: 'object',
    allOf: [MODEL_DEFINITION_REF],
    description: 'The model document of the current version, imports merged (docs/model-format.md)',
  } as ApiPropertyOptions)
  definition: JsonText;

  @ApiProperty({
    type: () => ModelAnalysisDto,
    description: 'The analysis of the current version (docs/model-format.md "Model analysis")',
  })
  analysis: ModelAnalysisDto;

  /** `definition`: the stored JSON text, sent as it is. */
  static withDefinition(
    model: ModelEntity,
    definition: JsonText,
    analysis: ModelAnalysisDto,
  ): ModelDetailDto {
    return { ...ModelDto.from(model, model.general), definition, analysis };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
