import type { Request } from 'express';

/** The route of a request no route matched: scanners' random URLs must not become labels. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The pattern of the route Express matched (`/v1/companies/:id`), never the raw URL, for
 * metrics labels and log lines. Read once the answer is finished.
 */
export function routePattern(req: Request): string {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  const path = route?.path;
  if (typeof path === 'string') return `${req.baseUrl}${path}`;
  if (Array.isArray(path) && typeof path[0] === 'string') return `${req.baseUrl}${path[0]}`;
  return UNMATCHED_ROUTE;
}
