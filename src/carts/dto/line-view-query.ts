import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiError } from '../../common/errors/api-error.js';
import { LINE_VIEWS, type LineView } from '../compact-line.js';

/**
 * How `?view=` is documented, on GET /v1/carts/{cart_id}'s query DTO and on the POST
 * routes' @ApiLineView alike (an enum named once: the schema is `$ref` LineView).
 */
export const LINE_VIEW_QUERY = {
  required: false,
  enum: LINE_VIEWS,
  enumName: 'LineView',
  description:
    '`full` (default): the whole line. `compact`: without what the model already says ' +
    '(labels, option prices, passed rules, triggers that did not fire): per question ' +
    '`key, values, source, visible, required` and only the unavailable options.',
};

/** The `view` query parameter; anything but `full` or `compact` (or several) is a 400. */
export function parseLineView(value: unknown): LineView {
  if (value === undefined) return 'full';
  if (typeof value === 'string' && (LINE_VIEWS as readonly string[]).includes(value)) {
    return value as LineView;
  }
  throw ApiError.badRequest('Bad request', [
    {
      code: 'is_in',
      message: `view must be one of the following values: ${LINE_VIEWS.join(', ')}`,
      path: 'view',
    },
  ]);
}

/**
 * `?view=` on the POST routes. A parameter of its own rather than a query DTO: an invalid
 * view is a 400 there too, while POST /v1/carts answers 401 for an invalid body (seed
 * contract) and the envelope would give a query DTO's error that status as well.
 */
export const LineViewQuery = createParamDecorator(
  (_: unknown, context: ExecutionContext): LineView =>
    parseLineView(context.switchToHttp().getRequest<Request>().query.view),
);

/** Documents `?view=` for a route that reads it with @LineViewQuery. */
export const ApiLineView = () => ApiQuery({ name: 'view', ...LINE_VIEW_QUERY });
