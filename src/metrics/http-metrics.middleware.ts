import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { routePattern } from '../common/http/route-pattern.js';
import { MetricsService } from './metrics.service.js';

export { UNMATCHED_ROUTE } from '../common/http/route-pattern.js';

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
