/**
 * The W3C trace context of the request a task is run for, carried in the task message
 * to its worker (a worker thread has no async context of the main thread's).
 */
export interface TaskTrace {
  readonly traceparent: string;
  readonly tracestate?: string;
}

/**
 * A traced task's span as the worker timed it: plain data, posted back beside the task's
 * answer, and turned into an OpenTelemetry span by the main thread (recordTaskSpan). The
 * worker loads no tracing SDK: one in each worker thread measured a third more CPU per
 * 1,000-question preview (its heap in the worker's GC), docs/adr/0175.
 */
export interface TaskSpan {
  readonly name: string;
  /** Epoch milliseconds (fractional): the same clock in every thread. */
  readonly start: number;
  readonly end: number;
  readonly attributes: Record<string, string | number>;
  /** The message of what the task threw. */
  readonly error?: string;
}

/** Span names by task kind: what the engine did for the request. */
const SPAN_NAMES: Record<string, string> = {
  build: 'engine.compile',
  load: 'engine.compile',
  adopt: 'engine.adopt',
  evaluate: 'engine.evaluate',
  verdicts: 'engine.evaluate',
  describe: 'engine.describe',
  analysis: 'engine.analysis',
};

/** What a task says about itself, for its span (ids are fine in traces, never in metrics). */
export interface TaskFacts {
  readonly kind: string;
  readonly trace?: TaskTrace;
  readonly version?: { readonly modelId: number; readonly versionNumber: number };
  readonly lines?: readonly unknown[];
}

/** Now, in epoch milliseconds with sub-millisecond precision. */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

/** The span of a traced task that ran from `start` until now; undefined when untraced. */
export function taskSpan(task: TaskFacts, start: number, error?: string): TaskSpan | undefined {
  if (task.trace === undefined) return undefined;
  const attributes: Record<string, string | number> = { 'engine.task': task.kind };
  if (task.version) {
    attributes['configurator.model_id'] = task.version.modelId;
    attributes['configurator.version_number'] = task.version.versionNumber;
  }
  if (task.lines) attributes['engine.lines'] = task.lines.length;
  const name = SPAN_NAMES[task.kind] ?? `engine.${task.kind}`;
  const span = { name, start, end: epochNow(), attributes };
  return error === undefined ? span : { ...span, error };
}
