import { WorkerFailure, WorkerPool, type WorkerEntry } from '../workers/worker-pool.js';

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
}

/** Failures in the quick lane that send a compile to the main lane rather than to the caller. */
const MOVES_ON: ReadonlySet<string> = new Set(['deadline', 'out_of_memory', 'crashed', 'busy']);

/**
 * Uploads' compiles in two lanes (docs/adr/0161-compile-lanes.md). Every compile starts in
 * the quick lane, one worker served round-robin between suppliers, with a short budget
 * (COMPILE_LANE_MS); one still running past it is ended there and compiled again from the
 * start in the main lane (COMPILE_WORKERS, round-robin between suppliers, the full compile
 * deadline). A small model therefore never waits behind another supplier's long compile:
 * at most one quick-lane budget per supplier ahead of it.
 */
export class CompileLanes {
  private readonly main: WorkerPool;
  private readonly quick: WorkerPool | null;

  constructor(private readonly options: CompileLanesOptions) {
    const { entry, workerData, perTenant } = options;
    this.main = new WorkerPool({
      name: 'compile',
      entry,
      workers: options.workers,
      heapMb: options.heapMb,
      perTenant,
      workerData,
    });
    this.quick =
      options.quickMs > 0
        ? new WorkerPool({
            name: 'quick compile',
            entry,
            workers: 1,
            heapMb: options.quickHeapMb,
            perTenant,
            workerData,
          })
        : null;
  }

  /** Compiles in the quick lane, then, if it did not finish there, in the main lane. */
  async run<T>(task: unknown, supplierId: number): Promise<T> {
    const tenant = `supplier:${supplierId}`;
    if (this.quick !== null) {
      try {
        return await this.quick.run<T>(task, { tenant, deadlineMs: this.options.quickMs });
      } catch (error) {
        if (!(error instanceof WorkerFailure && MOVES_ON.has(error.reason))) throw error;
        // The lane's worker was ended: its replacement starts now, not with the next upload.
        this.quick.warm();
      }
    }
    return this.main.run<T>(task, { tenant, deadlineMs: this.options.timeoutMs });
  }

  async close(): Promise<void> {
    await Promise.all([this.main.close(), this.quick?.close()]);
  }
}
