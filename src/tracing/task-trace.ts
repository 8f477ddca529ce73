import { context, propagation, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import type { TaskSpan, TaskTrace } from './task-span.js';

export type { TaskTrace };

/** A task message with the trace it belongs to, when traced. */
export type Traced<T> = T & { readonly trace?: TaskTrace };

/**
 * The active span's context as W3C headers, only when a sampled span is active: with
 * tracing off (no SDK, no span) or an unsampled request, nothing is carried and the
 * worker makes no span.
 */
export function activeTaskTrace(): TaskTrace | undefined {
  const span = trace.getActiveSpan();
  if (span === undefined || (span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0)
    return undefined;
  const carrier: { traceparent?: string; tracestate?: string } = {};
  propagation.inject(context.active(), carrier);
  if (carrier.traceparent === undefined) return undefined;
  return carrier.tracestate
    ? { traceparent: carrier.traceparent, tracestate: carrier.tracestate }
    : { traceparent: carrier.traceparent };
}

/** The task with the active trace attached (the same object when there is none). */
export function traced<T extends object>(task: T): Traced<T> {
  const taskTrace = activeTaskTrace();
  return taskTrace === undefined ? task : { ...task, trace: taskTrace };
}

const TRACER = 'configurator-engine';

/** The request context a traced task was sent from; undefined when untraced. */
function parentOf(task: unknown) {
  const taskTrace = (task as { trace?: TaskTrace } | null)?.trace;
  return taskTrace === undefined ? undefined : propagation.extract(context.active(), taskTrace);
}

/** The span of the time a task waited for a worker, ending now, a child of its request. */
export function recordQueueWait(task: unknown, waitedMs: number, lane: string): void {
  const parent = parentOf(task);
  if (parent === undefined) return;
  const now = performance.timeOrigin + performance.now();
  const kind = (task as { kind?: unknown }).kind;
  trace
    .getTracer(TRACER)
    .startSpan(
      'engine.queue_wait',
      {
        startTime: now - waitedMs,
        attributes: { 'engine.lane': lane, 'engine.task': String(kind) },
      },
      parent,
    )
    .end(now);
}

/**
 * The span a worker timed around a traced task (task-span.ts), as a child of the request
 * that sent it. Nothing for an untraced task, or a task lost with its worker (no report).
 */
export function recordTaskSpan(task: unknown, report: unknown, lane: string): void {
  const parent = parentOf(task);
  const span = report as TaskSpan | undefined;
  if (parent === undefined || span === undefined) return;
  const recorded = trace
    .getTracer(TRACER)
    .startSpan(
      span.name,
      { startTime: span.start, attributes: { ...span.attributes, 'engine.lane': lane } },
      parent,
    );
  if (span.error !== undefined)
    recorded.setStatus({ code: SpanStatusCode.ERROR, message: span.error });
  recorded.end(span.end);
}
