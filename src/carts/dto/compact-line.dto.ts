import {
  ApiExtraModels,
  ApiProperty,
  ApiPropertyOptional,
  getSchemaPath,
  OmitType,
} from '@nestjs/swagger';
import { ANSWER_VALUE, VALUE_SOURCES } from '../../common/swagger/engine-enums.js';
import type { ValueSource } from '../../engine/index.js';
import { AddedCartLineDto, PreviewLineDto } from './cart-line-result.dto.js';
import { CartLineDto } from './cart-detail.dto.js';
import {
  CONFLICTS_WITH_PROPERTY,
  EFFECTIVE_VALUES_PROPERTY,
  EXPLAINED_PROPERTY,
  LineBomItemDto,
  UNAVAILABLE_BECAUSE_PROPERTY,
  UNAVAILABLE_VALUES_PROPERTY,
} from './line-parts.dto.js';
import { ALLOWED_PROPERTY, OptionPricesDto, VALUE_PRICES_PROPERTY } from './guidance.dto.js';

/**
 * `?view=compact` (docs/model-format.md "The cart line"; the engine builds it)
 * as Swagger models: the full line's schemas with `questions` and `bom_items` replaced.
 * Rules and triggers keep their schema; the compact view lists fewer of them.
 */

export class CompactLineOptionDto {
  @ApiProperty({ example: 'wood' }) key: string;
  @ApiPropertyOptional({
    enum: [false],
    description:
      'Always false: only unavailable options are listed. Read as in the full view, so a ' +
      'client reads `options[i].available` of either view alike. Absent in compact lines ' +
      'stored by earlier engine releases (stored lines are never evaluated again)',
  })
  available?: false;
  // The full line's properties with an example ahead (openapi.json keeps its key order).
  @ApiProperty({ example: ['wood_max_width'], ...UNAVAILABLE_BECAUSE_PROPERTY })
  unavailable_because: string[];
  @ApiPropertyOptional({ example: ['width'], ...CONFLICTS_WITH_PROPERTY })
  conflicts_with?: string[];
  @ApiPropertyOptional(EXPLAINED_PROPERTY)
  explained?: false;
}

@ApiExtraModels(OptionPricesDto)
export class CompactLineQuestionDto {
  @ApiProperty({ example: 'frame' }) key: string;
  @ApiProperty(EFFECTIVE_VALUES_PROPERTY)
  values: unknown[];
  @ApiProperty({ enum: VALUE_SOURCES, enumName: 'ValueSource' }) source: ValueSource;
  @ApiProperty() visible: boolean;
  @ApiProperty() required: boolean;
  @ApiPropertyOptional({
    type: 'array',
    items: ANSWER_VALUE,
    description: 'What the user sent for a hidden question (only when something was dropped)',
  })
  discarded?: unknown[];
  @ApiPropertyOptional({
    type: [String],
    description: 'Soft values left out (only when some were): trigger keys, `default`',
  })
  suppressed?: string[];
  @ApiPropertyOptional({
    type: () => [CompactLineOptionDto],
    description: 'Choice questions only: the unavailable options ([] when all are available)',
  })
  options?: CompactLineOptionDto[];
  @ApiPropertyOptional(UNAVAILABLE_VALUES_PROPERTY)
  unavailable_values?: Array<boolean | number>;
  @ApiPropertyOptional(ALLOWED_PROPERTY) allowed?: Array<[number, number]>;
  @ApiPropertyOptional(VALUE_PRICES_PROPERTY)
  value_prices?: Record<string, OptionPricesDto>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(OptionPricesDto) },
    example: { alu: { from: '363.60', to: '420.00' } },
    description:
      'Choice questions: per available option, the lowest and highest total of a valid ' +
      'complete configuration that picks it (price_from, price_to of the full view)',
  })
  option_prices?: Record<string, OptionPricesDto>;
}

export class CompactLineBomItemDto extends OmitType(LineBomItemDto, ['children'] as const) {
  @ApiPropertyOptional({
    type: 'array',
    items: { $ref: getSchemaPath(CompactLineBomItemDto) },
    description: 'Included sub-items (absent when there are none)',
  })
  children?: CompactLineBomItemDto[];
}

const questions = () =>
  ApiProperty({
    type: () => [CompactLineQuestionDto],
    description: 'Per question what the answers made of it; labels come from the model',
  });
const bomItems = () =>
  ApiProperty({
    type: () => [CompactLineBomItemDto],
    description: 'Included BOM items, nested',
  });
const REPLACED = ['view', 'questions', 'bom_items'] as const;
const compactView = () =>
  ApiProperty({
    enum: ['compact'],
    description: 'The view of this line (`?view=compact`): what tells it from the full line',
  });

/** POST /v1/carts?view=compact. */
export class CompactAddedCartLineDto extends OmitType(AddedCartLineDto, REPLACED) {
  @compactView() view: 'compact';
  @questions() questions: CompactLineQuestionDto[];
  @bomItems() bom_items: CompactLineBomItemDto[];
}

/** POST /v1/carts/preview?view=compact. */
export class CompactPreviewLineDto extends OmitType(PreviewLineDto, REPLACED) {
  @compactView() view: 'compact';
  @questions() questions: CompactLineQuestionDto[];
  @bomItems() bom_items: CompactLineBomItemDto[];
}

/** A line of GET /v1/carts/{cart_id}?view=compact. */
export class CompactCartLineDto extends OmitType(CartLineDto, REPLACED) {
  @compactView() view: 'compact';
  @questions() questions: CompactLineQuestionDto[];
  @bomItems() bom_items: CompactLineBomItemDto[];
}
