import type { ServerResponse } from 'node:http';
import { trace, TraceFlags } from '@opentelemetry/api';

/**
 * The trace id of the request being served (its HTTP span), for its log lines, and the
 * `traceresponse` header (W3C Trace Context level 2) that hands it back to the caller, so a
 * client can quote the trace of a slow or failed answer as it quotes X-Request-Id.
 * Undefined, and no header, with tracing off or the request not sampled.
 */
export function requestTrace(res: ServerResponse): string | undefined {
  const span = trace.getActiveSpan();
  if (span === undefined) return undefined;
  const { traceId, spanId, traceFlags } = span.spanContext();
  if ((traceFlags & TraceFlags.SAMPLED) === 0) return undefined;
  res.setHeader('traceresponse', `00-${traceId}-${spanId}-0${traceFlags & 1}`);
  return traceId;
}
