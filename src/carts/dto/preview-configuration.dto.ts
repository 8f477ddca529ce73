import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, ValidateBy, type ValidationOptions } from 'class-validator';
import { ApiSchemaExample } from '../../common/swagger/schema-types.js';
import type { ResolveRequest } from '../../engine-runtime/compiled-models.service.js';
import { CONFIGURATION_EXAMPLE, ConfigurationDto } from './add-cart-line.dto.js';

/** The README's window with an aluminium frame, asking for oak: the nearest valid one. */
const PREVIEW_EXAMPLE = {
  ...CONFIGURATION_EXAMPLE,
  resolve: { question: 'color', value: 'oak' },
};

const isAnswerValue = (value: unknown) =>
  ['string', 'number', 'boolean'].includes(typeof value) &&
  (typeof value !== 'number' || Number.isFinite(value));

/** `true`, or `{question, value}` with a question key and one answer value (nothing else). */
export function isResolveRequest(value: unknown): value is ResolveRequest {
  if (value === true) return true;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { question, value: picked, ...rest } = value as Record<string, unknown>;
  return (
    Object.keys(rest).length === 0 &&
    typeof question === 'string' &&
    question.length > 0 &&
    question.length <= 200 &&
    isAnswerValue(picked)
  );
}

const IsResolveRequest = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isResolveRequest',
      validator: {
        validate: isResolveRequest,
        defaultMessage: () =>
          'resolve must be true or {question, value} with a question key and one answer value',
      },
    },
    options,
  );

/**
 * POST /v1/carts/preview: a configuration, and what guided configuration should do with it
 * (docs/model-format.md "Guided configuration").
 */
@ApiSchemaExample(PREVIEW_EXAMPLE)
export class PreviewConfigurationDto extends ConfigurationDto {
  @ApiPropertyOptional({
    oneOf: [
      { type: 'boolean', enum: [true] },
      {
        type: 'object',
        required: ['question', 'value'],
        additionalProperties: false,
        properties: {
          question: { type: 'string', example: 'color' },
          value: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
        },
      },
    ],
    example: { question: 'color', value: 'oak' },
    description:
      'The nearest valid configuration: `{question, value}` picks that value and changes the ' +
      'fewest other answers; `true` repairs conflicting answers (or answers of another ' +
      'version). The line then carries `resolution: {changes, exact}`',
  })
  @IsOptional()
  @IsResolveRequest()
  resolve?: ResolveRequest;

  @ApiPropertyOptional({
    enum: ['cheapest'],
    description:
      'Fill the unanswered questions with a cheapest valid completion (`source: completion`)',
  })
  @IsOptional()
  @IsIn(['cheapest'])
  complete?: 'cheapest';
}
