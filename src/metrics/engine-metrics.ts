import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { PoolObserver, WorkerLoss } from '../common/pool-observer.js';

/** An engine pool: `compile` (uploads) or `evaluation` (everything on a stored version). */
export type EngineLane = 'compile' | 'evaluation';

/** Seconds a task waits for a worker: nothing when idle, seconds when a tenant floods. */
const WAIT_BUCKETS = [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60];
/** Seconds; a small model compiles in milliseconds, a large one's consistency in tens of seconds. */
const COMPILE_BUCKETS = [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/**
 * The task kinds of src/engine-runtime/tasks/engine-tasks.ts: a fixed set, so a label read from a
 * task can never grow the series. Anything else is counted as `other`.
 */
const TASK_KINDS = new Set([
  'build',
  'load',
  'adopt',
  'evaluate',
  'verdicts',
  'describe',
  'analysis',
]);
/** Every WorkerLoss (the record makes the compiler name a new one here), each counted from 0. */
const WORKER_LOSSES = Object.keys({
  deadline: true,
  crashed: true,
  out_of_memory: true,
} satisfies Record<WorkerLoss, true>) as WorkerLoss[];
/** Kinds that compile a model: an upload's build, a stored version's load. */
const COMPILES = new Set(['build', 'load']);

function kindOf(task: unknown): string {
  const kind = (task as { kind?: unknown } | null)?.kind;
  return typeof kind === 'string' && TASK_KINDS.has(kind) ? kind : 'other';
}

/**
 * The engine's worker pools as an operator sees them, per lane: queue depth and wait,
 * tasks in flight by kind, compile durations, refusals, workers lost and versions
 * quarantined. Labels are the lane, the task kind and a reason: never a model or tenant id.
 */
export class EngineMetrics {
  private readonly depthSources = new Map<EngineLane, () => number>();

  private readonly queueWait: Histogram<'lane'>;
  private readonly inFlight: Gauge<'lane' | 'task'>;
  private readonly compileDuration: Histogram<'lane' | 'task' | 'outcome'>;
  private readonly refusals: Counter<'lane'>;
  private readonly workersLost: Counter<'lane' | 'reason'>;
  private readonly quarantines: Counter;

  constructor(registry: Registry) {
    const registers = [registry];
    const sources = this.depthSources;
    new Gauge({
      name: 'configurator_engine_queue_depth',
      help: 'Engine tasks waiting for a worker, by lane',
      labelNames: ['lane'] as const,
      registers,
      collect() {
        for (const [lane, depth] of sources) this.set({ lane }, depth());
      },
    });
    this.queueWait = new Histogram({
      name: 'configurator_engine_queue_wait_seconds',
      help: 'Time an engine task waited for a worker before it started, by lane',
      labelNames: ['lane'] as const,
      buckets: WAIT_BUCKETS,
      registers,
    });
    this.inFlight = new Gauge({
      name: 'configurator_engine_tasks_in_flight',
      help: 'Engine tasks running in a worker now, by lane and task kind (evaluate, build, load…)',
      labelNames: ['lane', 'task'] as const,
      registers,
    });
    this.compileDuration = new Histogram({
      name: 'configurator_engine_compile_duration_seconds',
      help: "Time a worker spent compiling a model (task build: an upload; load: a stored version on a cache miss), by outcome (ok, failed, or moved: past the quick lane's budget, compiled again by the compile workers)",
      labelNames: ['lane', 'task', 'outcome'] as const,
      buckets: COMPILE_BUCKETS,
      registers,
    });
    this.refusals = new Counter({
      name: 'configurator_engine_tasks_refused_total',
      help: 'Engine tasks refused (503) because their tenant already had its bound of tasks waiting, by lane',
      labelNames: ['lane'] as const,
      registers,
    });
    this.workersLost = new Counter({
      name: 'configurator_engine_worker_restarts_total',
      help: 'Engine workers ended and replaced, by lane and reason (deadline, crashed, out_of_memory)',
      labelNames: ['lane', 'reason'] as const,
      registers,
    });
    this.quarantines = new Counter({
      name: 'configurator_engine_quarantines_total',
      help: 'Model versions quarantined after their evaluations kept running past their deadline',
      registers,
    });
    // Counters start at 0 in every series an alert reads: `increase` sees nothing of the
    // sample that creates a series, so a first worker lost would otherwise go uncounted.
    for (const lane of ['compile', 'evaluation'] as const) {
      this.queueWait.zero({ lane });
      this.refusals.inc({ lane }, 0);
      for (const reason of WORKER_LOSSES) this.workersLost.inc({ lane, reason }, 0);
    }
  }

  /** The hooks of one pool; `depth` is read at each scrape (WorkerPool.waiting). */
  observer(lane: EngineLane, depth: () => number): PoolObserver {
    this.depthSources.set(lane, depth);
    return {
      started: (task, waitedMs) => {
        this.queueWait.observe({ lane }, waitedMs / 1000);
        this.inFlight.inc({ lane, task: kindOf(task) });
      },
      finished: (task, ranMs, ok) => {
        const kind = kindOf(task);
        this.inFlight.dec({ lane, task: kind });
        if (COMPILES.has(kind))
          this.compileDuration.observe(
            { lane, task: kind, outcome: ok ? 'ok' : 'failed' },
            ranMs / 1000,
          );
      },
      moved: (task, ranMs) => {
        const kind = kindOf(task);
        this.inFlight.dec({ lane, task: kind });
        if (COMPILES.has(kind))
          this.compileDuration.observe({ lane, task: kind, outcome: 'moved' }, ranMs / 1000);
      },
      refused: () => this.refusals.inc({ lane }),
      workerLost: (reason: WorkerLoss) => this.workersLost.inc({ lane, reason }),
    };
  }

  /** A version just quarantined (VersionTasks). */
  countQuarantine(): void {
    this.quarantines.inc();
  }
}
