import { ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsObject, ValidateBy, ValidateIf } from 'class-validator';
import { MAX_ID } from '../../common/http/id-param.js';
import { ApiSchemaExample } from '../../common/swagger/schema-types.js';
import { PassThroughObject } from '../../common/validation/pass-through.js';
import { ConfigurationDto, QUESTIONS_PROPERTY } from './add-cart-line.dto.js';

/** A version to move a line to: a version number, or `latest` (the model's current one). */
export type TargetVersion = number | 'latest';

const isTargetVersion = (value: unknown): value is TargetVersion =>
  value === 'latest' ||
  (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_ID);

/**
 * PUT /v1/carts/{cart_id}/lines/{line_id}: new answers, on the line's own version, or on
 * another version of its model (`version_number`: the answers, or the stored ones, carried
 * over by the nearest valid configuration). The model and company are the line's.
 */
@ApiSchemaExample({
  language_code: 'en',
  questions: {
    width: { values: [1400] },
    height: { values: [1000] },
    frame: { values: ['alu'] },
    color: { values: ['anthracite'] },
  },
})
export class ReconfigureLineDto extends OmitType(ConfigurationDto, [
  'model_id',
  'company_id',
  'questions',
] as const) {
  @ApiPropertyOptional({
    ...QUESTIONS_PROPERTY,
    description:
      'Answers by question key; `values` is always an array ([] = unanswered). Required ' +
      'unless `version_number` is given (then the stored answers are carried over)',
  })
  // Without version_number the answers are required (IsObject words their absence too).
  @ValidateIf(
    (body: ReconfigureLineDto) => body.version_number === undefined || body.questions !== undefined,
  )
  @IsObject()
  // Handed to the engine as parsed: it checks every answer against the model.
  @PassThroughObject()
  questions?: Record<string, unknown>;

  @ApiPropertyOptional({
    oneOf: [
      { type: 'integer', format: 'int32', minimum: 1 },
      { type: 'string', enum: ['latest'] },
    ],
    example: 'latest',
    description:
      'Move the line to this version of its model (`latest`: the current one): the answers ' +
      'are carried over by the nearest valid configuration and the line lists the changes ' +
      'in `resolution`. Absent: the line stays on its version',
  })
  @ValidateIf((body: ReconfigureLineDto) => body.version_number !== undefined)
  @ValidateBy({
    name: 'isTargetVersion',
    validator: {
      validate: isTargetVersion,
      defaultMessage: () => 'version_number must be a version number or "latest"',
    },
  })
  version_number?: TargetVersion;
}
