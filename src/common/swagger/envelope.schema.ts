import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import type { ReferenceObject, SchemaObject } from '@nestjs/swagger';
import { statusText } from '../envelope/envelope.js';
import { ANSWER_VALUE } from './engine-enums.js';
import { INT32 } from './schema-types.js';

/** One answer named by a `conflict` problem: the question and its values as sent. */
export class ConflictAnswerDto {
  @ApiProperty({ example: 'frame' }) question: string;
  @ApiProperty({ type: 'array', items: ANSWER_VALUE, example: ['pvc'] }) values: unknown[];
}

/** One item of the envelope's `errors` (Swagger model). */
export class ProblemDto {
  @ApiProperty({ example: 'is_email', description: 'Machine-readable, snake_case' })
  code: string;

  @ApiProperty({ example: 'email must be an email' })
  message: string;

  @ApiPropertyOptional({
    example: 'email',
    description:
      'The offending input, when one is at fault (a `conflict`: one of its answers; there is ' +
      'one `conflict` per answer of the set, each naming the whole set)',
  })
  path?: string;

  @ApiPropertyOptional({
    example: '/questions/0/options/2/price',
    description:
      "A model document's problem whose `path` names list entries by key " +
      '(`questions.battery.options.625.price`): the same place as a JSON Pointer by position',
  })
  pointer?: string;

  @ApiPropertyOptional({
    type: [ConflictAnswerDto],
    description:
      '`conflict` only: every answer of a minimal set of answers that have no valid ' +
      'completion together, in question order; change one of them',
  })
  answers?: ConflictAnswerDto[];

  @ApiPropertyOptional({
    type: [String],
    example: ['frame_colors'],
    description: '`conflict` only: the rules (keys) through which those answers conflict',
  })
  rules?: string[];
}

/** The `links` of a paginated list (relative URLs); other answers have `links: {}`. */
export class LinksDto {
  @ApiProperty({ example: '/v1/companies?page=2&per_page=50' }) self: string;
  @ApiProperty({ example: '/v1/companies?page=1&per_page=50' }) first: string;
  @ApiPropertyOptional({ example: '/v1/companies?page=1&per_page=50' }) prev?: string;
  @ApiPropertyOptional({ example: '/v1/companies?page=3&per_page=50' }) next?: string;
  @ApiProperty({ example: '/v1/companies?page=3&per_page=50' }) last: string;
}

export type Schema = SchemaObject | ReferenceObject;

/** The name of the error envelope in components.schemas (added by finishDocument). */
export const ERROR_ENVELOPE = 'ErrorEnvelope';

/** `data` of an answer that carries none (errors, logout, revocations): always null. */
export const NULL_DATA: SchemaObject = {
  type: 'object',
  nullable: true,
  additionalProperties: false,
  maxProperties: 0,
  description: 'Always null',
};

/**
 * The envelope around every answer, closed, with the given `data`: what a generated
 * client reads. An inline schema rather than `allOf` with a shared base, because a
 * closed base would refuse the `data` another branch adds.
 */
export function envelopeSchema(
  data: Schema,
  status: number,
  options: { paginated?: boolean; message?: string } = {},
): SchemaObject {
  const links: Schema = options.paginated
    ? { $ref: getSchemaPath(LinksDto) }
    : { type: 'object', additionalProperties: false, maxProperties: 0, description: 'Empty' };
  return {
    type: 'object',
    additionalProperties: false,
    required: ['code', 'message', 'data', 'links', 'errors'],
    properties: {
      code: { ...INT32, example: status, description: 'Mirrors the HTTP status' },
      message: { type: 'string', example: options.message ?? statusText(status) },
      data,
      links,
      errors:
        status < 400
          ? {
              type: 'array',
              items: { $ref: getSchemaPath(ProblemDto) },
              maxItems: 0,
              example: [],
              description: 'Empty on success',
            }
          : {
              type: 'array',
              items: { $ref: getSchemaPath(ProblemDto) },
              description: 'Every problem found',
            },
    },
  };
}
