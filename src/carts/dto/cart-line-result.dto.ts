import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { ProblemDto } from '../../common/swagger/envelope.schema.js';
import { ApiId, ApiInt } from '../../common/swagger/schema-types.js';
import type {
  LineBomItem,
  LineCache,
  LineDisplayedVariable,
  LineGeneral,
  LineImage,
  LineImport,
  LinePricing,
  PriceRange,
  LineQuestion,
  LineRule,
  LineTranslation,
  LineTrigger,
} from '../../engine/index.js';
import {
  LineBomItemDto,
  LineCacheDto,
  LineConsistencyDto,
  LineDisplayedVariableDto,
  LineGeneralDto,
  LineImageDto,
  LineModelImportDto,
  LinePathImportDto,
  LinePricingDto,
  LineQuestionDto,
  LineRuleDto,
  LineTranslationDto,
  LineTriggerDto,
} from './line-parts.dto.js';
import { LineResolutionDto, PriceBoundsDto } from './guidance.dto.js';

const DECIMAL = { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' } as const;

/**
 * The evaluated configuration (docs/model-format.md, "The cart line"). Documented here for
 * Swagger; the engine's CartLine type is the source of truth.
 */
@ApiExtraModels(LinePathImportDto, LineModelImportDto)
export class EvaluatedLineDto {
  @ApiProperty({
    enum: ['full'],
    description: 'The view of this line (`?view=`): `full`, or `compact` in the compact schemas',
  })
  view: 'full';
  @ApiInt({ minimum: 1, example: 1, description: 'The model version the line was evaluated with' })
  version_number: number;
  @ApiProperty({
    type: () => LineGeneralDto,
    description: 'The model’s general section, translated, plus model_id',
  })
  general: LineGeneral;
  @ApiProperty({
    type: 'array',
    items: {
      oneOf: [
        { $ref: getSchemaPath(LinePathImportDto) },
        { $ref: getSchemaPath(LineModelImportDto) },
      ],
    },
    example: [],
    description: 'What was merged in: a file of the zip or another model',
  })
  imports: LineImport[];
  @ApiProperty({ type: () => [LineQuestionDto] }) questions: LineQuestion[];
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { area_m2: 1.2 },
    description: 'Computed variables by key',
  })
  variables: Record<string, unknown>;
  @ApiPropertyOptional({
    type: () => [LineDisplayedVariableDto],
    description:
      'The variables the modeller shows buyers (`display: true`), in model order, translated ' +
      '(absent on lines stored before it existed)',
  })
  displayed_variables?: LineDisplayedVariable[];
  @ApiProperty({ type: () => [LineRuleDto] }) rules: LineRule[];
  @ApiProperty({ type: () => [LineTriggerDto] }) triggers: LineTrigger[];
  @ApiProperty({ type: () => [LineBomItemDto], description: 'Included BOM items, nested' })
  bom_items: LineBomItem[];
  @ApiProperty({ type: () => LinePricingDto, description: 'Decimal strings' })
  pricing: LinePricing;
  @ApiProperty({ type: () => LineTranslationDto }) translation: LineTranslation;
  @ApiProperty({ type: () => [LineImageDto], description: 'Included images ordered by layer' })
  images: LineImage[];
  @ApiPropertyOptional({
    type: () => LineConsistencyDto,
    description: 'How many complete configurations the answers leave',
  })
  consistency?: LineConsistencyDto;
  @ApiProperty({ type: () => LineCacheDto }) cache: LineCache;
  @ApiPropertyOptional({
    // Inline: a nullable $ref is not nullable in OpenAPI 3.0.
    type: 'object',
    nullable: true,
    required: ['min', 'max'],
    additionalProperties: false,
    properties: { min: DECIMAL, max: DECIMAL },
    example: { min: '363.60', max: '512.40' },
    description:
      'The lowest and highest total over the valid completions of the answers (null when none)',
  })
  price_range?: PriceRange | null;
  @ApiPropertyOptional({
    type: () => PriceBoundsDto,
    description: 'Whether price_range and the options’ price_from / price_to are exact',
  })
  price_bounds?: PriceBoundsDto;
  @ApiPropertyOptional({
    type: () => LineResolutionDto,
    description:
      'Only when a resolution was asked for (`resolve` of a preview, a line moved to ' +
      'another version): the answers changed to reach the nearest valid configuration',
  })
  resolution?: LineResolutionDto;
}

/** POST /v1/carts: the stored line. */
export class AddedCartLineDto extends EvaluatedLineDto {
  @ApiId({ description: 'The cart line id' }) id: number;
  @ApiProperty({
    example: '"1"',
    description:
      "The line's ETag (also the `ETag` header): `If-Match` of PUT /v1/carts/{cart_id}/lines/{line_id}",
  })
  etag: string;
  @ApiProperty({ format: 'uuid', description: 'The cart the line went into' }) cart_id: string;
  @ApiId() model_id: number;
  @ApiId() company_id: number;
  @ApiProperty({ type: [ProblemDto], description: 'Failed warning rules (not blocking)' })
  warnings: ProblemDto[];
}

/** POST /v1/carts/preview: the line as it would be stored, and whether it may be. */
export class PreviewLineDto extends EvaluatedLineDto {
  @ApiProperty({
    type: 'object',
    nullable: true,
    additionalProperties: false,
    maxProperties: 0,
    description: 'Always null: nothing is stored',
  })
  id: null;
  @ApiProperty({ description: 'Whether POST /v1/carts would accept this configuration' })
  valid: boolean;
  @ApiProperty({ type: [ProblemDto], description: 'What makes it invalid (empty when valid)' })
  errors: ProblemDto[];
  @ApiProperty({ type: [ProblemDto], description: 'Failed warning rules (not blocking)' })
  warnings: ProblemDto[];
}
