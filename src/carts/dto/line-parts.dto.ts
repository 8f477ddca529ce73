import {
  ApiExtraModels,
  ApiProperty,
  type ApiPropertyOptions,
  ApiPropertyOptional,
  getSchemaPath,
} from '@nestjs/swagger';
import type { QuestionType, RuleStatus, ValueSource } from '../../engine/index.js';
import {
  ApiDecimal,
  ApiId,
  ApiInt,
  ApiIntOptional,
  ApiNullableString,
} from '../../common/swagger/schema-types.js';
import {
  ANSWER_VALUE,
  QUESTION_TYPES,
  RULE_STATUSES,
  VALUE_SOURCES,
} from '../../common/swagger/engine-enums.js';
import {
  ALLOWED_PROPERTY,
  OptionPricesDto,
  PRICE_FROM_PROPERTY,
  PRICE_TO_PROPERTY,
  VALUE_PRICES_PROPERTY,
} from './guidance.dto.js';

/** A question's `values`, the same in the full and the compact line. */
export const EFFECTIVE_VALUES_PROPERTY: ApiPropertyOptions = {
  type: 'array',
  items: ANSWER_VALUE,
  example: ['alu'],
  description: 'The effective values ([] when unanswered or hidden)',
};

/** `unavailable_values`, the same in the full and the compact line. */
export const UNAVAILABLE_VALUES_PROPERTY: ApiPropertyOptions = {
  type: 'array',
  items: { oneOf: [{ type: 'integer' }, { type: 'boolean' }] },
  example: [],
  description:
    'Boolean questions and integer questions with min and max (at most 1,000 values): the ' +
    "values that have no valid completion with the user's other answers, ascending " +
    '([] when every value is available)',
};

/** An option's `unavailable_because`, the same in the full and the compact line. */
export const UNAVAILABLE_BECAUSE_PROPERTY: ApiPropertyOptions = {
  type: [String],
  description:
    'Rule keys (compatibility tables) and option keys (their own available_if); ' +
    '`["blocked_by_conflict"]` when the other answers already conflict (see `errors`)',
};

/** An option's `conflicts_with`, the same in the full and the compact line. */
export const CONFLICTS_WITH_PROPERTY: ApiPropertyOptions = {
  type: [String],
  description: 'Question keys whose current answers rule this option out',
};

/** An option's `explained`, the same in the full and the compact line. */
export const EXPLAINED_PROPERTY: ApiPropertyOptions = {
  type: Boolean,
  enum: [false],
  description:
    "Only false, on an unavailable option the evaluation's explanation budget (MODEL_EXPLANATION_WORK) did not reach: conflicts_with is then empty and unavailable_because its own reasons or the rules reading its question. Absent otherwise.",
};

/**
 * The members of a cart line (docs/model-format.md, "The cart line") as Swagger models: what
 * a generated client reads. The engine's types (src/engine/types.ts) are the source of
 * truth; the enums (common/swagger/engine-enums.ts) are checked against them.
 */

export class LineGeneralDto {
  @ApiId() model_id: number;
  @ApiProperty({ example: 'Casement window' }) name: string;
  @ApiPropertyOptional({ example: 'WIN-CASEMENT' }) code?: string;
  @ApiPropertyOptional({ example: 'Made-to-measure casement window' }) description?: string;
  @ApiProperty({ example: 'EUR' }) currency: string;
  @ApiProperty({ example: 'en' }) default_language: string;
  @ApiPropertyOptional({ example: '2026-01-01' }) valid_from?: string;
  @ApiPropertyOptional({ example: '2027-01-01' }) valid_until?: string;
}

/** An import of a model document: a file inside its zip. */
export class LinePathImportDto {
  @ApiProperty({ example: 'fragments/glazing.yaml' }) path: string;
}

/** An import of a model document: another model of the supplier. */
export class LineModelImportDto {
  @ApiId() model_id: number;
  @ApiIntOptional({ minimum: 1, example: 2 }) version_number?: number;
}

export class LineOptionDto {
  @ApiProperty({ example: 'alu' }) key: string;
  @ApiProperty({ example: 'Aluminium' }) label: string;
  @ApiDecimal({ example: '85.00', description: 'Decimal string ("0.00" without a price)' })
  price: string;
  @ApiProperty() available: boolean;
  @ApiProperty(UNAVAILABLE_BECAUSE_PROPERTY)
  unavailable_because: string[];
  @ApiPropertyOptional(CONFLICTS_WITH_PROPERTY)
  conflicts_with?: string[];
  @ApiPropertyOptional(EXPLAINED_PROPERTY)
  explained?: false;
  @ApiProperty() selected: boolean;
  @ApiPropertyOptional(PRICE_FROM_PROPERTY) price_from?: string;
  @ApiPropertyOptional(PRICE_TO_PROPERTY) price_to?: string;
}

@ApiExtraModels(OptionPricesDto)
export class LineQuestionDto {
  @ApiProperty({ example: 'frame' }) key: string;
  @ApiProperty({ enum: QUESTION_TYPES, enumName: 'QuestionType' }) type: QuestionType;
  @ApiProperty({ example: 'Frame material' }) label: string;
  @ApiProperty() visible: boolean;
  @ApiProperty() required: boolean;
  @ApiProperty(EFFECTIVE_VALUES_PROPERTY)
  values: unknown[];
  @ApiProperty({ enum: VALUE_SOURCES, enumName: 'ValueSource' }) source: ValueSource;
  @ApiProperty({
    type: 'array',
    items: ANSWER_VALUE,
    example: [],
    description: 'What the user sent for a hidden question (dropped)',
  })
  discarded: unknown[];
  @ApiPropertyOptional({
    type: [String],
    example: [],
    description:
      'Soft values left out because they would leave no valid completion (trigger keys, `default`)',
  })
  suppressed?: string[];
  @ApiPropertyOptional({ type: () => [LineOptionDto], description: 'Choice questions only' })
  options?: LineOptionDto[];
  @ApiPropertyOptional(UNAVAILABLE_VALUES_PROPERTY)
  unavailable_values?: Array<boolean | number>;
  @ApiPropertyOptional(ALLOWED_PROPERTY) allowed?: Array<[number, number]>;
  @ApiPropertyOptional(VALUE_PRICES_PROPERTY)
  value_prices?: Record<string, OptionPricesDto>;
}

export class LineRuleDto {
  @ApiProperty({ example: 'max_alu_width' }) key: string;
  @ApiProperty({ enum: RULE_STATUSES, enumName: 'RuleStatus' }) status: RuleStatus;
  @ApiProperty({ enum: ['error', 'warning'], enumName: 'RuleSeverity' })
  severity: 'error' | 'warning';
  @ApiProperty({ example: 'Aluminium frames are at most 2000 mm wide' }) message: string;
}

export class LineTriggerDto {
  @ApiProperty({ example: 'wood_needs_oak' }) key: string;
  @ApiProperty() fired: boolean;
  @ApiProperty({
    type: 'object',
    additionalProperties: {
      // null (a cleared answer) through the one nullable branch, so that oneOf still holds.
      oneOf: [
        { type: 'number' },
        { type: 'string', nullable: true },
        { type: 'boolean' },
        { type: 'array', items: ANSWER_VALUE },
      ],
    },
    example: { color: 'oak' },
    description:
      'The value this trigger gave each question, as the trigger set it (a list for ' +
      'multiple choice, null for a cleared answer); only those that took effect',
  })
  set: Record<string, unknown>;
  @ApiPropertyOptional({
    example: 'Large windows get triple glazing',
    description: "The trigger's (translated) message, when it has one",
  })
  message?: string;
}

export class LineBomItemDto {
  @ApiProperty({ example: 'frame' }) key: string;
  @ApiProperty({ example: 'FRM-ALU' }) sku: string;
  @ApiProperty({ example: 'Aluminium frame' }) description: string;
  @ApiDecimal({ example: '1', description: "Exact decimal: own quantity × the parent's" })
  quantity: string;
  @ApiNullableString({ example: 'pcs' }) unit: string | null;
  @ApiDecimal({ example: '250.00' }) unit_price: string;
  @ApiDecimal({ example: '250.00', description: 'quantity × unit_price, rounded' })
  total_price: string;
  @ApiProperty({
    type: 'array',
    items: { $ref: getSchemaPath(LineBomItemDto) },
    example: [],
    description: 'Included sub-items',
  })
  children: LineBomItemDto[];
}

export class LineAdjustmentDto {
  @ApiProperty({ example: 'dealer_discount' }) key: string;
  @ApiProperty({ example: 'Dealer discount' }) label: string;
  @ApiDecimal({ example: '-25.00' }) amount: string;
}

export class LinePricingDto {
  @ApiProperty({ example: 'EUR' }) currency: string;
  @ApiDecimal({ example: '250.00' }) base_price: string;
  @ApiDecimal({ example: '85.00' }) options_total: string;
  @ApiDecimal({ example: '0.00' }) bom_total: string;
  @ApiProperty({ type: () => [LineAdjustmentDto], description: 'The adjustments that apply' })
  adjustments: LineAdjustmentDto[];
  @ApiDecimal({ example: '335.00' }) subtotal: string;
  @ApiDecimal({ example: '335.00' }) total: string;
}

export class LineTranslationDto {
  @ApiProperty({ example: 'en' }) language: string;
  @ApiProperty() fallback_used: boolean;
  @ApiProperty({ type: [String], example: [], description: 'Paths without a translation' })
  missing: string[];
}

export class LineDisplayedVariableDto {
  @ApiProperty({ example: 'range_km' }) key: string;
  @ApiProperty({ example: 'Estimated range', description: 'The label, translated' })
  label: string;
  @ApiProperty({
    // A number, text or yes/no a CEL expression computes (a list shows as text).
    // OpenAPI 3.0: `nullable` needs a `type` beside it, so null rides on the number.
    oneOf: [
      { type: 'number', nullable: true },
      { type: 'string' },
      { type: 'boolean' },
      { type: 'array', items: {} },
    ],
    example: 412,
    description: 'The value, as `variables` has it (null when it cannot be computed)',
  })
  value: unknown;
  @ApiPropertyOptional({ example: 'km', description: 'The unit, translated' }) unit?: string;
}

export class LineImageDto {
  @ApiProperty({ example: 'frame' }) key: string;
  @ApiProperty({ example: '/v1/companies/1/models/1/assets/images/frame.png?version=1' })
  url: string;
  @ApiInt({ example: 0 }) layer: number;
  @ApiNullableString({ example: 'The frame' }) alt: string | null;
}

export class LineConsistencyDto {
  @ApiProperty({ description: 'Whether the model was compiled to its exact consistency form' })
  exact: boolean;
  @ApiPropertyOptional({
    example: 'compile budget exceeded: availability by propagation',
    description: 'Why not, when not exact (absent when exact)',
  })
  reason?: string;
  @ApiProperty({
    type: String,
    nullable: true,
    pattern: '^\\d+$',
    example: '1296',
    description:
      'How many complete configurations remain (decimal string), only when `exact`; null ' +
      'otherwise',
  })
  configurations: string | null;
  @ApiPropertyOptional({
    pattern: '^\\d+$',
    example: '5184',
    description: 'When not exact: an upper bound of the complete configurations that remain',
  })
  configurations_at_most?: string;
  @ApiPropertyOptional({
    type: [String],
    example: ['questions.color.options.oak'],
    description:
      'When not exact: paths of the options (and boolean or integer values, ' +
      '`questions.<q>.values.<v>`) shown available for which no valid completion was found ' +
      "within the evaluation's search budget; absent when every one was confirmed",
  })
  unconfirmed?: string[];
}

export class LineCacheDto {
  @ApiProperty({
    pattern: '^[0-9a-f]{64}$',
    example: '9f2c5a1e0d4b7c3a8e6f1b2d4c5a7e9f0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e',
    description: 'sha256 of model, version, answers, language',
  })
  fingerprint: string;
  @ApiProperty({ example: '1.0.0' }) engine_version: string;
  @ApiProperty({ type: 'number', example: 0.42 }) evaluated_in_ms: number;
}
