import type { Request } from 'express';

/** The route of a request no route matched: scanners' random URLs must not become labels. */
export const UNMATCHED_ROUTE = 'unmatched';

const ROUTE_LABEL = 'routeLabel';

/**
 * Names the route of an answer that no express route matched but that is no stranger's
 * URL either (the static pages: one label for all their files).
 */
export function labelRoute(res: { locals?: Record<string, unknown> }, label: string): void {
  if (res.locals) res.locals[ROUTE_LABEL] = label;
}

/**
 * The pattern of the route Express matched (`/v1/companies/:id`), never the raw URL, for
 * metrics labels and log lines. Read once the answer is finished.
 */
export function routePattern(req: Request): string {
  const labelled = (req.res?.locals as Record<string, unknown> | undefined)?.[ROUTE_LABEL];
  if (typeof labelled === 'string') return labelled;
  const route = (req as Request & { route?: { path?: unknown } }).route;
  const path = route?.path;
  if (typeof path === 'string') return `${req.baseUrl}${path}`;
  if (Array.isArray(path) && typeof path[0] === 'string') return `${req.baseUrl}${path[0]}`;
  return UNMATCHED_ROUTE;
}

/**
 * Whether a route is a Kubernetes probe (`/health/live`, `/health/ready`): their answers
 * are labelled and logged apart, so that a readiness 503 (a dependency blip, the drain)
 * neither fires the 5xx alert nor reads as an application error.
 */
export function probeOf(route: string): boolean {
  return route.startsWith('/health/');
}
