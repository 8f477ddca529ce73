import type { PoolObserver } from '../common/pool-observer.js';
import { WorkerFailure, WorkerPool, type WorkerEntry } from './worker-pool.js';

export interface CompileLanesOptions {
  entry: WorkerEntry;
  workerData: unknown;
  /** Workers of the main lane, their heap, and the compiles one supplier may have waiting. */
  workers: number;
  heapMb: number;
  perTenant: number;
  /** A compile's deadline in the main lane. */
  timeoutMs: number;
  /** What a compile may spend in the quick lane before it moves to the main one; 0: no lane. */
  quickMs: number;
  /** The quick lane's worker heap: a compile that needs more moves to the main lane. */
  quickHeapMb: number;
  /** Metrics and traces of both lanes' tasks (one `compile` lane in the metrics). */
  observer?: PoolObserver;
}

/** Failures in the quick lane that send a compile to the main lane rather than to the caller. */
const MOVES_ON: ReadonlySet<string> = new Set(['deadline', 'out_of_memory', 'crashed']);

/** No bound in the pools' queues: CompileLanes bounds each supplier's compiles itself. */
const UNBOUNDED = Number.POSITIVE_INFINITY;

/**
 * Uploads' compiles in two lanes (docs/adr/0161-compile-lanes.md). A compile goes to the
 * main lane (COMPILE_WORKERS, round-robin between suppliers, the full compile deadline)
 * when a worker there is free; otherwise it starts in the quick lane, one worker served
 * round-robin between suppliers with a short budget (COMPILE_LANE_MS), and one still
 * running past it is ended there and compiled again from the start in the main lane. A
 * small model therefore never waits behind another supplier's long compile: at most one
 * quick-lane budget per supplier ahead of it. A supplier may have COMPILE_WORKERS +
 * COMPILE_QUEUE_SIZE compiles in both lanes together; past that, `busy`.
 */
export class CompileLanes {
  private readonly main: WorkerPool;
  private readonly quick: WorkerPool | null;
  /** Compiles per supplier, waiting or running in either lane. */
  private readonly pending = new Map<string, number>();
  /** Compiles in the main lane, waiting or running. */
  private inMain = 0;

  constructor(private readonly options: CompileLanesOptions) {
    const { entry, workerData } = options;
    this.main = new WorkerPool({
      name: 'compile',
      entry,
      workers: options.workers,
      heapMb: options.heapMb,
      perTenant: UNBOUNDED,
      workerData,
      ...(options.observer ? { observer: options.observer } : {}),
    });
    this.quick =
      options.quickMs > 0
        ? new WorkerPool({
            name: 'quick compile',
            entry,
            workers: 1,
            heapMb: options.quickHeapMb,
            perTenant: UNBOUNDED,
            workerData,
            ...(options.observer ? { observer: quickLaneObserver(options.observer) } : {}),
          })
        : null;
  }

  /** Compiles waiting for a worker, in both lanes. */
  get waiting(): number {
    return this.main.waiting + (this.quick?.waiting ?? 0);
  }

  /** Compiles in the main lane if a worker is free there, else in the quick lane first. */
  async run<T>(task: unknown, supplierId: number): Promise<T> {
    const tenant = `supplier:${supplierId}`;
    const pending = this.pending.get(tenant) ?? 0;
    if (pending >= this.options.workers + this.options.perTenant) {
      this.options.observer?.refused?.(task);
      throw new WorkerFailure('busy', 'Too many compile tasks waiting');
    }
    this.pending.set(tenant, pending + 1);
    try {
      if (this.quick !== null && this.inMain >= this.options.workers) {
        try {
          return await this.quick.run<T>(task, { tenant, deadlineMs: this.options.quickMs });
        } catch (error) {
          if (!(error instanceof WorkerFailure && MOVES_ON.has(error.reason))) throw error;
          // The lane's worker was ended: its replacement starts now, not with the next upload.
          this.quick.warm();
        }
      }
      this.inMain++;
      // The main lane is now busy: the quick lane's worker starts before it is needed.
      if (this.inMain >= this.options.workers) this.quick?.warm();
      try {
        return await this.main.run<T>(task, { tenant, deadlineMs: this.options.timeoutMs });
      } finally {
        this.inMain--;
      }
    } finally {
      const left = (this.pending.get(tenant) ?? 1) - 1;
      if (left > 0) this.pending.set(tenant, left);
      else this.pending.delete(tenant);
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.main.close(), this.quick?.close()]);
  }
}

/**
 * The quick lane's hooks. Its worker ended at the lane's budget or heap (every loss there
 * moves the compile on: MOVES_ON) is the lane doing its work, not a worker lost to a
 * deadline or a crash, and the compile it was running goes on in the main lane: told as
 * `moved`, not as a restart and a failed task. The one worker runs one task at a time, and
 * the pool tells the loss just before that task's end.
 */
function quickLaneObserver(observer: PoolObserver): PoolObserver {
  let lost = false;
  return {
    ...observer,
    started: (task, waitedMs) => {
      lost = false;
      observer.started?.(task, waitedMs);
    },
    finished: (task, ranMs, ok, report) => {
      if (lost && !ok) observer.moved?.(task, ranMs);
      else observer.finished?.(task, ranMs, ok, report);
      lost = false;
    },
    workerLost: () => {
      lost = true;
    },
  };
}
