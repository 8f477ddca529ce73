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

/** The models of one answer by the value of their `view` member (`?view=`). */
export type Views = Record<string, Type<unknown>>;

/**
 * Documents a success answer: the closed envelope with `data` of the given model (or
 * null), or of one of several models told apart by their `view` member (a route with
 * `?view=compact`): `oneOf` with a discriminator, which generated clients narrow by.
 */
export function ApiEnvelope(model: Type<unknown> | Views | null, options: EnvelopeOptions = {}) {
  const status = options.status ?? 200;
  const views = model === null || typeof model === 'function' ? undefined : model;
  const models = model === null ? [] : views ? Object.values(views) : [model as Type<unknown>];
  const refs: Schema[] = models.map((one) => ({ $ref: getSchemaPath(one) }));
  const item: Schema = views
    ? {
        oneOf: refs,
        discriminator: {
          propertyName: 'view',
          mapping: Object.fromEntries(
            Object.entries(views).map(([view, one]) => [view, getSchemaPath(one)]),
          ),
        },
      }
    : (refs[0] ?? NULL_DATA);
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
