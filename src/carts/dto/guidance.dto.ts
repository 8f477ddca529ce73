import {
  ApiProperty,
  ApiPropertyOptional,
  getSchemaPath,
  type ApiPropertyOptions,
} from '@nestjs/swagger';
import { ANSWER_VALUE } from '../../common/swagger/engine-enums.js';
import { ApiDecimal } from '../../common/swagger/schema-types.js';

/**
 * The guidance members of a cart line (docs/model-format.md "Guided configuration") as
 * Swagger models: the nearest valid configuration, price bounds and admissible ranges.
 * Optional everywhere: lines stored before them do not carry them.
 */

export class AnswerChangeDto {
  @ApiProperty({ example: 'frame' }) question: string;
  @ApiProperty({
    type: 'array',
    items: ANSWER_VALUE,
    example: ['alu'],
    description: 'The answer before ([] when it was unanswered)',
  })
  from: unknown[];
  @ApiProperty({
    type: 'array',
    items: ANSWER_VALUE,
    example: ['wood'],
    description: 'The answer after ([] when it was dropped)',
  })
  to: unknown[];
}

export class LineResolutionDto {
  @ApiProperty({
    type: () => [AnswerChangeDto],
    description: 'The answers changed to reach the nearest valid configuration',
  })
  changes: AnswerChangeDto[];
  @ApiProperty({
    description: 'Whether the changes are proven the fewest (false: a bounded search ran out)',
  })
  exact: boolean;
}

export class PriceBoundsDto {
  @ApiProperty({
    description: 'Whether price_from, price_to and price_range are exact (else sound bounds)',
  })
  exact: boolean;
  @ApiPropertyOptional({
    example: 'an adjustment reads a number question',
    description: 'Why not exact (absent when exact)',
  })
  reason?: string;
}

export class OptionPricesDto {
  @ApiDecimal({ example: '363.60', description: 'price_from of the option' }) from: string;
  @ApiDecimal({ example: '420.00', description: 'price_to of the option' }) to: string;
}

/** `allowed` of a finite numeric question, the same in the full and the compact line. */
export const ALLOWED_PROPERTY: ApiPropertyOptions = {
  type: 'array',
  items: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 },
  example: [
    [400, 1800],
    [2000, 2000],
  ],
  description:
    'Finite numeric questions: the admissible values given the other answers, as ' +
    'intervals [min, max] ([] when none)',
};

/** An option's `price_from`, the same as the compact view's `option_prices[o].from`. */
export const PRICE_FROM_PROPERTY: ApiPropertyOptions = {
  type: String,
  pattern: '^-?\\d+(\\.\\d+)?$',
  example: '363.60',
  description:
    'Available options: the lowest total of a valid complete configuration that picks it',
};

export const PRICE_TO_PROPERTY: ApiPropertyOptions = {
  ...PRICE_FROM_PROPERTY,
  example: '420.00',
  description:
    'Available options: the highest total of a valid complete configuration that picks it',
};

/** `value_prices` of a boolean question, the same in the full and the compact line. */
export const VALUE_PRICES_PROPERTY: ApiPropertyOptions = {
  type: 'object',
  additionalProperties: { $ref: getSchemaPath(OptionPricesDto) },
  example: { true: { from: '363.60', to: '420.00' } },
  description:
    'Boolean questions: per value with a valid completion (`"true"`, `"false"`), the lowest ' +
    'and highest total of a valid complete configuration that takes it',
};
