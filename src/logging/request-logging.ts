import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { routePattern } from '../metrics/http-metrics.middleware.js';
import { requestContext, requestIdFor, type RequestContext } from './request-context.js';

const CONTEXT = Symbol('request-context');
type WithContext = Request & { [CONTEXT]?: RequestContext; user?: { userId?: number } };

/**
 * One line per answered request: method, route pattern, status, duration (ms), request
 * id, user id. Only the route pattern is logged (not the URL with its ids and query);
 * headers and bodies are not logged. Runs first, so that the request id exists before
 * anything else can log.
 */
export function requestLogging(logger: Logger): RequestHandler {
  const http = pinoHttp({
    logger,
    genReqId: requestIdFor,
    // The one line per request is built by requestFields (no nested req/res objects).
    quietResLogger: true,
    serializers: { req: (req: { method: string }) => ({ method: req.method }) },
    customAttributeKeys: { responseTime: 'duration_ms' },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: summary,
    customErrorMessage: summary,
    customSuccessObject: (req, res, fields) => requestFields(req as WithContext, res, fields),
    customErrorObject: (req, res, _error, fields) => requestFields(req as WithContext, res, fields),
  });
  return (req, res, next) => {
    http(req, res);
    // At debug level, also the moment a request is received (what a drain waits for).
    if (logger.isLevelEnabled('debug'))
      logger.debug({ request_id: String(req.id), method: req.method }, 'Request received');
    const context: RequestContext = { requestId: String(req.id), request: req };
    (req as WithContext)[CONTEXT] = context;
    requestContext.run(context, next);
  };
}

const summary = (req: { method?: string }, res: { statusCode: number }): string =>
  `${req.method} ${routePattern(req as Request)} ${res.statusCode}`;

function requestFields(
  req: WithContext,
  res: { statusCode: number },
  fields: { duration_ms?: number },
): object {
  return {
    method: req.method,
    route: routePattern(req),
    status: res.statusCode,
    request_id: String(req.id),
    user_id: req.user?.userId ?? null,
    duration_ms: fields.duration_ms,
  };
}

/**
 * Re-enters the request's context once Express has parsed the body: stream callbacks
 * run in the socket's async context, so guards and handlers would otherwise log
 * without the request id.
 */
@Injectable()
export class RequestContextMiddleware implements NestMiddleware {
  use(req: Request, _res: Response, next: NextFunction): void {
    const context = (req as WithContext)[CONTEXT];
    if (context) requestContext.run(context, next);
    else next();
  }
}
