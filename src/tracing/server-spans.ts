import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import {
  type Attributes,
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { Request } from 'express';
import { routePattern } from '../common/http/route-pattern.js';

/** The instrumentation scope of the HTTP server spans. */
export const HTTP_TRACER = 'configurator-http';

/** Probes and scrapes every few seconds would drown the traces that matter. */
const UNTRACED = /^\/(health\/|metrics)/;

/**
 * The HTTP server span of each request, decided before anything else is done for it
 * (docs/adr/0207): the caller's W3C context is read and the SDK's sampler asked (through
 * `startSpan`, so OTEL_TRACES_SAMPLER is honoured whatever it names). A request that is not
 * sampled goes on exactly as with tracing off: no context entered, no emitter bound, no
 * attributes gathered, and so no trace id in its logs, nothing carried to the engine
 * workers, and no database spans (they require a parent). A sampled one runs in its span's
 * context, its request and response bound to it (their listeners run in the socket's
 * context otherwise), and the span ends when the response closes, named by its route.
 */
export function tracedRequests(next: RequestListener): RequestListener {
  const tracer = trace.getTracer(HTTP_TRACER);
  // The headers the configured propagators read (traceparent, tracestate, baggage by default).
  const fields = propagation.fields();
  return (req, res) => {
    const url = req.url ?? '/';
    if (UNTRACED.test(url)) return next(req, res);
    const parent = fields.some((field) => req.headers[field] !== undefined)
      ? propagation.extract(ROOT_CONTEXT, req.headers)
      : ROOT_CONTEXT;
    // No attributes yet: the standard samplers decide by trace id and parent alone.
    const span = tracer.startSpan(req.method ?? 'GET', { kind: SpanKind.SERVER }, parent);
    if (!span.isRecording()) return next(req, res);
    span.setAttributes(requestAttributes(req, url));
    res.once('close', () => endServerSpan(span, req, res));
    const active = trace.setSpan(parent, span);
    context.with(active, () => serveBound(active, req, res, next));
  };
}

function serveBound(
  active: Context,
  req: IncomingMessage,
  res: ServerResponse,
  next: RequestListener,
): void {
  context.bind(active, req);
  context.bind(active, res);
  next(req, res);
}

/**
 * The stable HTTP semantic conventions' request attributes. The path without its query: a
 * query may carry an asset URL's signature.
 */
function requestAttributes(req: IncomingMessage, url: string): Attributes {
  const query = url.indexOf('?');
  const socket = req.socket as IncomingMessage['socket'] & { encrypted?: boolean };
  const attributes: Attributes = {
    'http.request.method': req.method ?? 'GET',
    'url.path': query === -1 ? url : url.slice(0, query),
    'url.scheme': socket.encrypted ? 'https' : 'http',
    'network.protocol.version': req.httpVersion,
  };
  if (socket.remoteAddress !== undefined) attributes['network.peer.address'] = socket.remoteAddress;
  if (socket.remotePort !== undefined) attributes['network.peer.port'] = socket.remotePort;
  const host = req.headers.host;
  if (host !== undefined) attributes['server.address'] = host.replace(/:\d+$/, '');
  const agent = req.headers['user-agent'];
  if (agent !== undefined) attributes['user_agent.original'] = agent;
  return attributes;
}

/**
 * Named by the route pattern (`POST /v1/carts`, `http.route`), as metrics and logs label
 * it; an error only for a 5xx (a 4xx is the caller's).
 */
function endServerSpan(span: Span, req: IncomingMessage, res: ServerResponse): void {
  const route = routePattern(req as Request);
  span.setAttribute('http.route', route);
  span.setAttribute('http.response.status_code', res.statusCode);
  span.updateName(`${req.method ?? 'GET'} ${route}`);
  if (res.statusCode >= 500) {
    span.setAttribute('error.type', String(res.statusCode));
    span.setStatus({ code: SpanStatusCode.ERROR });
  } else if (!res.writableFinished) {
    // The connection closed before the answer was sent (the caller left, or a cut body).
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'response not completed' });
  }
  span.end();
}

/** Puts the server spans in front of the server's one request listener (admission's). */
export function installServerSpans(server: Server): void {
  const [listener, ...others] = server.listeners('request') as RequestListener[];
  if (!listener || others.length > 0) throw new Error('Server spans expect one request listener');
  server.removeAllListeners('request');
  server.on('request', tracedRequests(listener));
}
