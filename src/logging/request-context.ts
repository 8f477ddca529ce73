import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** What every log line of one request carries; `user` is set later by the guard. */
export interface RequestContext {
  requestId: string;
  request: IncomingMessage & { user?: { userId?: number } };
  /** The request's trace (its HTTP span's), when tracing is on and it is sampled. */
  traceId?: string;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * A client's request id is kept when it is short and plain (letters, digits and
 * `-_.:@/+=`, at most 128): anything else could forge or break log lines, so a
 * fresh UUID replaces it.
 */
const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

export function requestIdFor(req: IncomingMessage, res: ServerResponse): string {
  const id = requestIdOf(req);
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/** The client's request id when acceptable, else a fresh one. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && ACCEPTED_REQUEST_ID.test(given) ? given : randomUUID();
}

/** The request id and caller of the request being served, for the log line being written. */
export function currentLogContext(): { request_id?: string; user_id?: number; trace_id?: string } {
  const context = requestContext.getStore();
  if (!context) return {};
  const userId = context.request.user?.userId;
  const fields: { request_id: string; user_id?: number; trace_id?: string } = {
    request_id: context.requestId,
  };
  if (userId !== undefined) fields.user_id = userId;
  if (context.traceId !== undefined) fields.trace_id = context.traceId;
  return fields;
}
