import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { requestTrace } from '../tracing/request-trace.js';
import { probeOf, routePattern } from '../common/http/route-pattern.js';
import { requestContext, requestIdFor, type RequestContext } from './request-context.js';

const CONTEXT = Symbol('request-context');
type WithContext = Request & { [CONTEXT]?: RequestContext; user?: { userId?: number } };

/**
 * One line per answered request: method, route pattern, status, duration (ms), request
 * id, user id. Only the route pattern is logged (not the URL with its ids and query);
 * headers and bodies are not logged. Runs first, so that the request id exists before
 * anything else can log.
 *
 * Written here rather than with pino-http (docs/adr/0022-logging.md):
 * pino-http makes two child loggers per request (binding and serializing the request
 * each time) for a line whose fields are all ours; this one builds the line only when
 * its level is enabled.
 */
export function requestLogging(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = Date.now();
    const requestId = requestIdFor(req, res);
    (req as Request & { id?: string }).id = requestId;
    const traceId = requestTrace(res);
    const context: RequestContext =
      traceId === undefined ? { requestId, request: req } : { requestId, request: req, traceId };
    const done = (error?: unknown): void => {
      res.removeListener('close', done);
      res.removeListener('finish', done);
      res.removeListener('error', done);
      logAnswer(logger, req as WithContext, res, context, started, error);
    };
    res.on('close', done);
    res.on('finish', done);
    res.on('error', done);
    // At debug level, also the moment a request is received (what a drain waits for).
    if (logger.isLevelEnabled('debug'))
      logger.debug({ request_id: requestId, method: req.method }, 'Request received');
    (req as WithContext)[CONTEXT] = context;
    requestContext.run(context, next);
  };
}

/**
 * The request's line: `error` for a 5xx or a failed response, else `info`. A probe's 503
 * (not ready: a dependency does not answer, or the instance drains) is `warn`: it is the
 * probe doing its job, and readiness names what is down in its own answer.
 */
function logAnswer(
  logger: Logger,
  req: WithContext,
  res: Response,
  { requestId, traceId }: RequestContext,
  started: number,
  error: unknown,
): void {
  const failed = error !== undefined || res.statusCode >= 500;
  const route = routePattern(req);
  const level = !failed ? 'info' : error === undefined && probeOf(route) ? 'warn' : 'error';
  if (!logger.isLevelEnabled(level)) return;
  logger[level](
    {
      method: req.method,
      route,
      status: res.statusCode,
      request_id: requestId,
      user_id: req.user?.userId ?? null,
      duration_ms: Date.now() - started,
      ...(traceId === undefined ? {} : { trace_id: traceId }),
    },
    `${req.method} ${route} ${res.statusCode}`,
  );
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
    // A request without a body gets here synchronously, still inside its context.
    if (context && requestContext.getStore() !== context) requestContext.run(context, next);
    else next();
  }
}
