import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { statusText } from '../envelope/envelope.js';
import { EnvelopeDto } from './envelope.schema.js';

interface EnvelopeOptions {
  status?: number;
  /** `data` is an array of the model. */
  isArray?: boolean;
  /** A paginated list: `data` is an array and `links` is filled; adds `page`/`per_page` docs. */
  paginated?: boolean;
  description?: string;
}

/** Documents a success answer: the envelope with `data` of the given model (or null). */
export function ApiEnvelope(model: Type<unknown> | null, options: EnvelopeOptions = {}) {
  const status = options.status ?? 200;
  const item = model ? { $ref: getSchemaPath(model) } : { type: 'object', nullable: true };
  const data = options.isArray || options.paginated ? { type: 'array', items: item } : item;
  return applyDecorators(
    ApiExtraModels(EnvelopeDto, ...(model ? [model] : [])),
    ApiResponse({
      status,
      description: options.description ?? statusText(status),
      schema: { allOf: [{ $ref: getSchemaPath(EnvelopeDto) }, { properties: { data } }] },
    }),
  );
}

/** Documents the error answers a route gives: each one an envelope with `errors`. */
export function ApiErrors(...statuses: number[]) {
  return applyDecorators(
    ApiExtraModels(EnvelopeDto),
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: statusText(status),
        schema: { $ref: getSchemaPath(EnvelopeDto) },
      }),
    ),
  );
}
