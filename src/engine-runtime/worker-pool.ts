import { Worker } from 'node:worker_threads';
import { FairQueue } from './fair-queue.js';
import type { PoolObserver } from '../common/pool-observer.js';

/** Why a task did not get an answer from its worker. */
export type FailureReason = 'deadline' | 'busy' | 'crashed' | 'out_of_memory' | 'closed';

/** A task the pool could not run to its end; the caller turns it into a problem. */
export class WorkerFailure extends Error {
  constructor(
    readonly reason: FailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'WorkerFailure';
  }
}

/** The module a worker runs. */
export interface WorkerEntry {
  filename: URL;
}

export interface WorkerPoolOptions {
  /** For messages: `evaluation`, `compile`. */
  name: string;
  entry: WorkerEntry;
  workers: number;
  /** Old-generation heap of each worker (its `resourceLimits`). */
  heapMb: number;
  /** Tasks one tenant may have waiting (past it: `busy`). */
  perTenant: number;
  /** Handed to every worker as `workerData`. */
  workerData?: unknown;
  /** Told when tasks start, end or are refused and when workers are lost (metrics, traces). */
  observer?: PoolObserver;
}

export interface RunOptions {
  /** Whose task (a company, a supplier): queues are served round-robin between tenants. */
  tenant: string;
  /** Wall-clock time the task may run once a worker has started it. */
  deadlineMs: number;
  /** Tasks with one affinity key always go to one worker (the one that holds its model). */
  affinity?: string;
  /** Buffers moved to the worker rather than copied. */
  transfer?: ArrayBuffer[];
}

interface Job {
  task: unknown;
  options: RunOptions;
  /** performance.now() when queued, then when started (for the observer). */
  since: number;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  worker?: Worker;
  /** The worker has loaded its modules (it said so): deadlines run from then on. */
  ready: boolean;
  /** What the running worker reported before it stopped (an out-of-memory error). */
  lastError?: unknown;
  job?: Job;
  timer?: NodeJS.Timeout;
  /** This worker's queue (with affinity), or the queue all workers share. */
  queue: FairQueue<Job>;
}

/**
 * What a worker posts: that it is ready, a task's value, or the message of what it threw;
 * with either, what it reports about the task for the observer (its span).
 */
type WorkerReply =
  | { ready: true }
  | { ok: true; value: unknown; report?: unknown }
  | { ok: false; message: string; report?: unknown };

/**
 * Worker threads with preemptive deadlines and per-tenant fairness
 * (docs/adr/0050-engine-worker-runtime.md). Each worker runs one task at a time; a task
 * past its deadline has its worker terminated (JavaScript cannot be interrupted any other
 * way) and replaced, and fails with `deadline`. Workers start when first needed and are
 * replaced when they stop, whatever the reason. With `affinity`, a task goes to the worker
 * its key hashes to, so that what that worker keeps for the key (a compiled model) is
 * kept once in the pool.
 */
export class WorkerPool {
  private readonly slots: Slot[];
  private closed = false;

  /** Without affinity, every worker takes the next task of this one queue. */
  private readonly sharedQueue: FairQueue<Job>;

  constructor(private readonly options: WorkerPoolOptions) {
    this.sharedQueue = new FairQueue<Job>(options.perTenant);
    this.slots = Array.from({ length: options.workers }, () => ({
      ready: false,
      queue: new FairQueue<Job>(options.perTenant),
    }));
  }

  get size(): number {
    return this.slots.length;
  }

  /** Tasks waiting for a worker, in every queue. */
  get waiting(): number {
    return this.slots.reduce((sum, slot) => sum + slot.queue.size, this.sharedQueue.size);
  }

  /** Runs a task; rejects with a WorkerFailure or with the Error the task threw. */
  run<T>(task: unknown, options: RunOptions): Promise<T> {
    if (this.closed) return Promise.reject(new WorkerFailure('closed', 'The pool is closed'));
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        task,
        options,
        since: performance.now(),
        resolve: resolve as (value: unknown) => void,
        reject,
      };
      const candidates =
        options.affinity === undefined ? this.slots : [this.slots[this.indexOf(options.affinity)]];
      const queue = options.affinity === undefined ? this.sharedQueue : candidates[0].queue;
      // An idle worker with nothing waiting starts at once (a bound of 0 still runs one).
      const idle = queue.size === 0 ? candidates.find((slot) => slot.job === undefined) : undefined;
      if (idle !== undefined) return this.start(idle, job);
      if (queue.push(options.tenant, job)) return;
      this.options.observer?.refused?.(task);
      reject(new WorkerFailure('busy', `Too many ${this.options.name} tasks waiting`));
    });
  }

  /** Starts every stopped worker now rather than with its next task (a lane kept ready). */
  warm(): void {
    if (this.closed) return;
    for (const slot of this.slots) if (slot.worker === undefined) this.workerOf(slot);
  }

  /** The workers running a task now (tests stop one to see the request fail cleanly). */
  busyWorkers(): Worker[] {
    return this.slots.flatMap((slot) =>
      slot.job !== undefined && slot.worker ? [slot.worker] : [],
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    const stopping: Promise<number>[] = [];
    for (const slot of this.slots) {
      for (const job of slot.queue.drain()) job.reject(new WorkerFailure('closed', 'closing'));
      if (slot.job) this.finish(slot, () => new WorkerFailure('closed', 'closing'));
      if (slot.worker) stopping.push(slot.worker.terminate());
      slot.worker = undefined;
    }
    for (const job of this.sharedQueue.drain()) job.reject(new WorkerFailure('closed', 'closing'));
    await Promise.all(stopping);
  }

  /** FNV-1a of the key: the same key, the same worker, in every process of one size. */
  private indexOf(key: string): number {
    let hash = 0x811c9dc5;
    for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
    return (hash >>> 0) % this.slots.length;
  }

  private start(slot: Slot, job: Job): void {
    const worker = this.workerOf(slot);
    slot.job = job;
    const now = performance.now();
    this.options.observer?.started?.(job.task, now - job.since);
    job.since = now;
    // The deadline counts from here (a new worker: once it is ready): neither time spent
    // waiting in a queue nor a replacement's start-up is the task's.
    if (slot.ready) this.startDeadline(slot);
    // A running task keeps the process alive (a CLI awaiting it); an idle worker does not.
    worker.ref();
    worker.postMessage(job.task, job.options.transfer ?? []);
  }

  private startDeadline(slot: Slot): void {
    const job = slot.job;
    if (job !== undefined) slot.timer = setTimeout(() => this.expire(slot), job.options.deadlineMs);
  }

  private next(slot: Slot): void {
    if (this.closed || slot.job !== undefined) return;
    const job = slot.queue.shift() ?? this.sharedQueue.shift();
    if (job !== undefined) this.start(slot, job);
  }

  private finish(slot: Slot, outcome: () => unknown, ok = false, report?: unknown): void {
    const job = slot.job;
    if (job === undefined) return;
    clearTimeout(slot.timer);
    slot.job = undefined;
    slot.timer = undefined;
    slot.worker?.unref();
    this.options.observer?.finished?.(job.task, performance.now() - job.since, ok, report);
    if (ok) job.resolve(outcome());
    else job.reject(outcome());
  }

  private expire(slot: Slot): void {
    const worker = slot.worker;
    slot.worker = undefined;
    const seconds = (slot.job?.options.deadlineMs ?? 0) / 1000;
    this.options.observer?.workerLost?.('deadline');
    this.finish(slot, () => new WorkerFailure('deadline', `The task ran past ${seconds} s`));
    // Terminated, not waited for: its replacement starts with the next task.
    void worker?.terminate();
    this.next(slot);
  }

  private workerOf(slot: Slot): Worker {
    if (slot.worker) return slot.worker;
    const { entry, heapMb, workerData } = this.options;
    const worker = new Worker(entry.filename, {
      resourceLimits: { maxOldGenerationSizeMb: heapMb },
      workerData,
    });
    slot.worker = worker;
    slot.ready = false;
    slot.lastError = undefined;
    worker.on('message', (reply: WorkerReply) => {
      if (slot.worker !== worker) return;
      if ('ready' in reply) {
        slot.ready = true;
        return this.startDeadline(slot);
      }
      if (reply.ok) this.finish(slot, () => reply.value, true, reply.report);
      else this.finish(slot, () => new Error(reply.message), false, reply.report);
      this.next(slot);
    });
    worker.on('error', (error) => {
      if (slot.worker === worker) slot.lastError = error;
    });
    worker.on('exit', () => {
      if (slot.worker !== worker) return;
      slot.worker = undefined;
      const oom = (slot.lastError as { code?: unknown } | undefined)?.code;
      const reason = oom === 'ERR_WORKER_OUT_OF_MEMORY' ? 'out_of_memory' : 'crashed';
      this.options.observer?.workerLost?.(reason);
      this.finish(slot, () =>
        reason === 'out_of_memory'
          ? new WorkerFailure('out_of_memory', `A ${this.options.name} worker ran out of heap`)
          : new WorkerFailure('crashed', `A ${this.options.name} worker stopped`),
      );
      this.next(slot);
    });
    return worker;
  }
}
