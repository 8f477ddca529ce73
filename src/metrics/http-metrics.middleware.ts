import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { MetricsService } from './metrics.service.js';

/** Label for requests no route matched: scanners' random URLs must not create series. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Counts and times every answered request. A middleware rather than an interceptor so
 * that answers given before a handler runs (guard refusals, 404s, invalid bodies) are
 * counted too. The route label is read when the answer is finished, from the route
 * Express matched, so it is the pattern (`/v1/companies/:id`) and never the raw URL.
 */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: MetricsService) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      this.metrics.observeHttpRequest(req.method, routePattern(req), res.statusCode, seconds);
    });
    next();
  }
}

export function routePattern(req: Request): string {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  const path = route?.path;
  if (typeof path === 'string') return `${req.baseUrl}${path}`;
  if (Array.isArray(path) && typeof path[0] === 'string') return `${req.baseUrl}${path[0]}`;
  return UNMATCHED_ROUTE;
}
