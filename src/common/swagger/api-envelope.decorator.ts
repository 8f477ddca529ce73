import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { statusText } from '../envelope/envelope.js';
import { envelopeSchema, LinksDto, NULL_DATA, ProblemDto, type Schema } from './envelope.schema.js';

interface EnvelopeOptions {
  status?: number;
  /** `data` is an array of the model. */
  isArray?: boolean;
  /** A paginated list: `data` is an array and `links` is filled. */
  paginated?: boolean;
  /** An object with one paged list inside (PagedObject): `data` is the model, `links` filled. */
  pagedObject?: boolean;
  description?: string;
}

/**
 * Documents a success answer: the closed envelope with `data` of the given model (or
 * null), or of any of several models (a route with views, such as `?view=compact`).
 */
export function ApiEnvelope(
  model: Type<unknown> | Type<unknown>[] | null,
  options: EnvelopeOptions = {},
) {
  const status = options.status ?? 200;
  const models = model === null ? [] : Array.isArray(model) ? model : [model];
  const refs: Schema[] = models.map((one) => ({ $ref: getSchemaPath(one) }));
  const item: Schema =
    refs.length === 0 ? NULL_DATA : refs.length === 1 ? refs[0]! : { anyOf: refs };
  const data: Schema = options.isArray || options.paginated ? { type: 'array', items: item } : item;
  return applyDecorators(
    ApiExtraModels(ProblemDto, LinksDto, ...models),
    ApiResponse({
      status,
      description: options.description ?? statusText(status),
      schema: envelopeSchema(data, status, {
        paginated: options.paginated || options.pagedObject,
      }),
    }),
  );
}

/**
 * Documents the error answers a route gives. finishDocument gives each the error
 * envelope and a real example (one place for every route, and for the statuses it adds).
 */
export function ApiErrors(...statuses: number[]) {
  return applyDecorators(
    ...statuses.map((status) => ApiResponse({ status, description: statusText(status) })),
  );
}
