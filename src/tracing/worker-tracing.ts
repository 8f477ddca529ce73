import { context, propagation, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { defaultServiceName } from './start-tracing.js';
import type { TaskTrace } from './task-trace.js';

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
interface TaskFacts {
  readonly kind: string;
  readonly trace?: TaskTrace;
  readonly version?: { readonly modelId: number; readonly versionNumber: number };
  readonly lines?: readonly unknown[];
}

/**
 * Traces in an engine worker: an SDK of its own (a worker thread shares no tracer with the
 * main thread), exporting with the same OTEL_* variables, without instrumentations. Each
 * traced task becomes one span, a child of the request that sent it; the engine itself
 * (src/engine) knows nothing of it.
 */
export class WorkerTracing {
  private readonly tracer = trace.getTracer('configurator-engine');

  constructor() {
    new NodeSDK({ ...defaultServiceName(process.env), logRecordProcessors: [] }).start();
  }

  /** Runs `work` inside the task's span when the task carries a trace, else as it is. */
  around<T>(task: TaskFacts, work: () => Promise<T>): Promise<T> {
    if (task.trace === undefined) return work();
    const parent = propagation.extract(context.active(), task.trace);
    const attributes: Attributes = { 'engine.task': task.kind };
    if (task.version) {
      attributes['configurator.model_id'] = task.version.modelId;
      attributes['configurator.version_number'] = task.version.versionNumber;
    }
    if (task.lines) attributes['engine.lines'] = task.lines.length;
    const span = this.tracer.startSpan(
      SPAN_NAMES[task.kind] ?? `engine.${task.kind}`,
      { attributes },
      parent,
    );
    return work().then(
      (value) => {
        span.end();
        return value;
      },
      (error: unknown) => {
        span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
        span.end();
        throw error;
      },
    );
  }
}
