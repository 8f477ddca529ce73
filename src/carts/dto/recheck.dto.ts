import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Matches, Max, Min, ValidateIf } from 'class-validator';
import { MAX_ID } from '../../common/http/id-param.js';
import { ANSWER_VALUE } from '../../common/swagger/engine-enums.js';
import { ProblemDto } from '../../common/swagger/envelope.schema.js';
import { AnswerChangeDto } from './guidance.dto.js';
import {
  ApiDecimal,
  ApiId,
  ApiInt,
  ApiSchemaExample,
  INT32,
} from '../../common/swagger/schema-types.js';

/** `?version=` of the rechecks: `latest` (default) or a version number. */
export class RecheckQueryDto {
  @ApiPropertyOptional({
    example: 'latest',
    default: 'latest',
    pattern: '^(latest|[1-9][0-9]{0,8})$',
    description: "`latest`: the model's current version; or a version number",
  })
  @IsOptional()
  @Matches(/^(latest|[1-9][0-9]{0,8})$/, { message: 'version must be latest or a version number' })
  version?: string;
}

/**
 * `?version=&model_id=` of the cart-level recheck: `latest` (default) moves each line
 * toward its own model's current version; a version number names a version of one model,
 * so it comes with `model_id`, and only that model's lines are rechecked.
 */
export class CartRecheckQueryDto extends RecheckQueryDto {
  @ApiPropertyOptional({
    ...INT32,
    minimum: 1,
    maximum: MAX_ID,
    example: 12,
    description: 'Only the lines of this model (required with a version number)',
  })
  @ValidateIf((query: CartRecheckQueryDto) => query.model_id !== undefined || isNumbered(query))
  @Type(() => Number)
  @IsInt({ message: 'model_id must be a model id (required with a version number)' })
  @Min(1)
  @Max(MAX_ID)
  model_id?: number;
}

const isNumbered = (query: RecheckQueryDto) =>
  query.version !== undefined && query.version !== 'latest';

@ApiSchemaExample({ apply: false })
export class RecheckBodyDto {
  @ApiPropertyOptional({
    default: false,
    description: 'Move the line to the version when it is valid there (else 409 with the problems)',
  })
  @IsOptional()
  @IsBoolean()
  apply?: boolean;
}

export class PriceDto {
  @ApiDecimal({ example: '372.60' }) total: string;
  @ApiProperty({ example: 'EUR' }) currency: string;
}

export class InvalidAnswerDto {
  @ApiProperty({ example: 'color' }) question: string;
  @ApiProperty({ type: 'array', items: ANSWER_VALUE, example: ['oak'] }) values: unknown[];
  @ApiProperty({ example: 'unknown_option' }) code: string;
  @ApiProperty({ example: 'oak is not an option of color' }) message: string;
  @ApiProperty({ example: 'questions.color.values[0]' }) path: string;
  @ApiProperty({ type: [String], example: ['frame_colors'] }) unavailable_because: string[];
  @ApiProperty({ type: [String], example: ['frame'] }) conflicts_with: string[];
}

export class NewlyRequiredDto {
  @ApiProperty({ example: 'handle_side' }) question: string;
  @ApiProperty({ example: 'Handle side' }) label: string;
}

export class SoftValueDto {
  @ApiProperty({ example: 'glazing' }) question: string;
  @ApiProperty({ type: 'array', items: ANSWER_VALUE, example: ['triple'] }) values: unknown[];
  @ApiProperty({ enum: ['default', 'trigger'], example: 'default' }) source: string;
  @ApiProperty({ type: 'array', items: ANSWER_VALUE, example: ['double'] }) previous: unknown[];
}

/** What moving a line to another version of its model changes. */
export class LineRecheckDto {
  @ApiId() line_id: number;
  @ApiInt({ minimum: 1, example: 1, description: "The line's version" }) from_version: number;
  @ApiInt({ minimum: 1, example: 2, description: 'The version evaluated' }) to_version: number;
  @ApiProperty({ description: 'Whether the answers are a valid configuration of to_version' })
  valid: boolean;
  @ApiProperty({ type: () => PriceDto, description: 'As stored' }) price_before: PriceDto;
  @ApiProperty({
    // Inline rather than a $ref: OpenAPI 3.0 has no nullable reference.
    type: 'object',
    nullable: true,
    additionalProperties: false,
    required: ['total', 'currency'],
    properties: {
      total: { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$', example: '372.60' },
      currency: { type: 'string', example: 'EUR' },
    },
    description:
      'On to_version, of the configuration `apply` would store; null when no valid ' +
      'configuration near these answers exists there (the price of an invalid line means nothing: `price_after_reason`)',
  })
  price_after: PriceDto | null;
  @ApiPropertyOptional({
    example: 'no valid configuration of these answers on version 2',
    description: 'Why `price_after` is null',
  })
  price_after_reason?: string;
  @ApiProperty({ type: () => [InvalidAnswerDto] }) invalid_answers: InvalidAnswerDto[];
  @ApiProperty({ type: () => [NewlyRequiredDto] }) newly_required: NewlyRequiredDto[];
  @ApiProperty({ type: () => [SoftValueDto] }) soft_defaults: SoftValueDto[];
  @ApiProperty({
    type: () => [AnswerChangeDto],
    description:
      'The nearest valid configuration on to_version: the answers `apply` changes (each ' +
      '`{question, from, to}`; [] when the answers are valid there as they are)',
  })
  changes: AnswerChangeDto[];
  @ApiProperty({
    description:
      'Whether `apply` would move the line: the nearest valid configuration is valid on ' +
      "to_version and its currency is the cart's",
  })
  movable: boolean;
  @ApiProperty({
    type: [ProblemDto],
    description: 'Every problem of the answers on to_version (and `currency_mismatch`)',
  })
  errors: ProblemDto[];
  @ApiProperty({ description: 'The line was moved to to_version (apply: true)' })
  applied: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '"2"',
    description: "The line's ETag after the move (null when not applied)",
  })
  etag: string | null;
}

/**
 * POST /v1/carts/{cart_id}/recheck: every line against its model's current version, or
 * one model's lines against a version of it.
 */
export class CartRecheckDto {
  @ApiProperty({ format: 'uuid' }) cart_id: string;
  @ApiProperty({
    type: () => [LineRecheckDto],
    description: 'Lines whose model has moved on (or, with a version, lines on another one)',
  })
  lines: LineRecheckDto[];
  @ApiInt({
    minimum: 0,
    example: 0,
    description: 'Lines already on their model’s current version (or on the version asked)',
  })
  current: number;
}
