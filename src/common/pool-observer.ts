/** Why a worker was replaced. */
export type WorkerLoss = 'deadline' | 'crashed' | 'out_of_memory';

/**
 * What a WorkerPool tells as it runs tasks, for metrics and traces: the pool itself knows
 * neither. Every hook is optional and runs synchronously on the pool's path, so each must
 * stay cheap (a counter, a histogram, a span).
 */
export interface PoolObserver {
  /** A task was handed to a worker after waiting `waitedMs` in a queue (0: none). */
  started?(task: unknown, waitedMs: number): void;
  /**
   * A started task ended after `ranMs`: answered (`ok`), or failed or lost with its worker;
   * `report` is what the worker said about it beside its answer (its span), if anything.
   */
  finished?(task: unknown, ranMs: number, ok: boolean, report?: unknown): void;
  /**
   * A started task left this pool for another after `ranMs`, neither answered nor failed:
   * a compile past the quick lane's budget or heap, compiled again in the main lane.
   */
  moved?(task: unknown, ranMs: number): void;
  /** A task was refused: its tenant already had its bound of tasks waiting. */
  refused?(task: unknown): void;
  /** A worker was ended or stopped and will be replaced. */
  workerLost?(reason: WorkerLoss): void;
}
