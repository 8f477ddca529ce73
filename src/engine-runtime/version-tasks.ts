import { Logger } from '@nestjs/common';
import type { Worker } from 'node:worker_threads';
import { ApiError } from '../common/errors/api-error.js';
import type { EngineLimits } from '../engine/index.js';
import { traced } from '../tracing/task-trace.js';
import { WorkerFailure, WorkerPool, type WorkerPoolOptions } from './worker-pool.js';
import type {
  EngineTask,
  LoadTask,
  TaskResult,
  VersionRef,
  VersionTask,
} from './tasks/engine-tasks.js';
import { compileProblem, evaluationProblem, evaluationTimeout } from './engine-problems.js';
import { warmUpTasks } from './warm-up-tasks.js';

/** Evaluations of one version past their deadline in a row before it is quarantined. */
export const QUARANTINE_AFTER = 3;

/** A stored version as the runtime needs it on a cache miss (ModelsService reads it). */
export interface StoredVersion {
  modelId: number;
  versionNumber: number;
  /** Its definition and its consistency form if this engine built it; undefined: no such version. */
  load: () => Promise<{ definition: Uint8Array; consistency?: Uint8Array } | undefined>;
  /** Stores a consistency form built afresh. */
  save: (form: Uint8Array) => Promise<void>;
}

export interface VersionTasksOptions {
  pool: WorkerPoolOptions;
  limits: EngineLimits;
  /** A task's deadline unless the caller gives one. */
  evaluationTimeoutMs: number;
  /** A load's (compile of a stored version) deadline. */
  compileTimeoutMs: number;
  /** Told when a version is quarantined (metrics). */
  onQuarantine?: () => void;
}

/**
 * The evaluation pool's side of CompiledModels: tasks on a version run in the worker its
 * key hashes to, which keeps it compiled. A miss (the worker does not hold it) compiles
 * the stored version there first, once for concurrent misses; a version whose tasks run
 * past their deadline QUARANTINE_AFTER times in a row is refused until a new version is
 * uploaded (docs/adr/0050-engine-worker-runtime.md).
 */
export class VersionTasks {
  private readonly logger = new Logger(VersionTasks.name);
  private readonly pool: WorkerPool;
  /** Versions being compiled into their worker: concurrent misses share one compile. */
  private readonly loading = new Map<string, Promise<boolean>>();
  /** Deadlines in a row per version; at QUARANTINE_AFTER it is quarantined. */
  private readonly strikes = new Map<string, number>();
  /** Versions whose compiled form is larger than a worker's cache share: never kept. */
  private readonly uncacheable = new Set<string>();

  constructor(private readonly options: VersionTasksOptions) {
    this.pool = new WorkerPool(options.pool);
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  /** The workers running a task now (tests stop one mid-request). */
  busyWorkers(): Worker[] {
    return this.pool.busyWorkers();
  }

  /** Tasks waiting for an evaluation worker (metrics). */
  get waiting(): number {
    return this.pool.waiting;
  }

  /** Starts the workers not running yet (an upload is compiling: its version will come). */
  warm(): void {
    this.pool.warm();
  }

  /**
   * Hands a version just built to the worker that will evaluate it (uploads compile
   * once), then warms it there (warm-up-tasks.ts): settled once the version is ready for
   * its first buyer. Best effort, never rejected: should it fail, the first task compiles
   * the stored version.
   */
  adopt(ref: VersionRef, compiled: Uint8Array): Promise<void> {
    const tenant = `model:${ref.modelId}`;
    return this.pool
      .run<TaskResult>(traced({ kind: 'adopt', version: ref, compiled } satisfies EngineTask), {
        tenant,
        deadlineMs: this.options.compileTimeoutMs,
        affinity: ref.key,
        transfer: [compiled.buffer as ArrayBuffer],
      })
      .then(() => this.warmUp(ref, tenant))
      .catch((error: unknown) => this.logger.warn(`Keeping ${ref.key} failed: ${String(error)}`));
  }

  /**
   * The warm-up's tasks, one after another, each under the evaluation deadline (and
   * counted towards quarantine) like a buyer's: a model whose empty configuration runs
   * past it holds its worker no longer than any evaluation would. A miss (the version
   * was not kept: larger than its worker's cache share) ends it.
   */
  private async warmUp(ref: VersionRef, tenant: string): Promise<void> {
    for (const task of warmUpTasks(ref)) {
      const result = await this.runOnce(ref, tenant, task, this.options.evaluationTimeoutMs);
      if (result.kind === 'miss') return;
    }
  }

  /**
   * Runs a task on a version in its worker; a miss compiles the stored version there
   * first (once for concurrent misses), then runs the task again. A version that its
   * worker cannot keep (larger than its cache share, or evicted at once) is compiled and
   * evaluated in one task, every time (docs/adr/0160).
   */
  async run(
    version: StoredVersion,
    tenant: string,
    task: (ref: VersionRef) => VersionTask,
    deadlineMs = this.options.evaluationTimeoutMs,
  ): Promise<TaskResult> {
    const ref = versionRef(version.modelId, version.versionNumber);
    if ((this.strikes.get(ref.key) ?? 0) >= QUARANTINE_AFTER) throw quarantined();
    if (!this.uncacheable.has(ref.key)) {
      const result = await this.runOnce(ref, tenant, task(ref), deadlineMs);
      if (result.kind !== 'miss') return result;
      const kept = await this.load(version, ref, tenant);
      if (kept) {
        const again = await this.runOnce(ref, tenant, task(ref), deadlineMs);
        if (again.kind !== 'miss') return again;
      } else if (!this.uncacheable.has(ref.key)) {
        this.uncacheable.add(ref.key);
        this.logger.warn(`Model ${ref.key} is larger than a worker's cache share: not cached`);
      }
    }
    return this.loadAndRun(version, ref, tenant, task(ref), deadlineMs);
  }

  private async runOnce(ref: VersionRef, tenant: string, task: EngineTask, timeout: number) {
    try {
      const options = { tenant, deadlineMs: timeout, affinity: ref.key };
      const result = await this.pool.run<TaskResult>(traced(task), options);
      // An answer ends a run of deadlines; a miss (a replaced worker's empty cache) does not.
      if (result.kind !== 'miss') this.strikes.delete(ref.key);
      return result;
    } catch (error) {
      if (error instanceof WorkerFailure && ['deadline', 'out_of_memory'].includes(error.reason)) {
        const strikes = (this.strikes.get(ref.key) ?? 0) + 1;
        this.strikes.set(ref.key, strikes);
        if (strikes === QUARANTINE_AFTER) this.options.onQuarantine?.();
        this.logger.warn(`An evaluation of model ${ref.key} ran past its deadline (${strikes})`);
      }
      throw evaluationProblem(error, timeout);
    }
  }

  /** Compiles the stored version into its worker, once for concurrent misses: kept or not. */
  private load(version: StoredVersion, ref: VersionRef, tenant: string): Promise<boolean> {
    const running = this.loading.get(ref.key);
    if (running) return running;
    const load = (async () => {
      const result = await this.compileIn(version, ref, tenant, this.options.compileTimeoutMs);
      if (result.kind !== 'loaded') return true;
      if (result.consistency) await version.save(result.consistency);
      return result.kept;
    })();
    this.loading.set(ref.key, load);
    return load.finally(() => this.loading.delete(ref.key));
  }

  /** Compiles the stored version and runs `then` on it in the same task, without keeping it. */
  private loadAndRun(
    version: StoredVersion,
    ref: VersionRef,
    tenant: string,
    then: VersionTask,
    deadlineMs: number,
  ): Promise<TaskResult> {
    return this.compileIn(version, ref, tenant, this.options.compileTimeoutMs + deadlineMs, then);
  }

  private async compileIn(
    version: StoredVersion,
    ref: VersionRef,
    tenant: string,
    deadlineMs: number,
    then?: VersionTask,
  ): Promise<TaskResult> {
    const stored = await version.load();
    if (stored === undefined) throw ApiError.notFound('No such model version');
    // A copy moves to the worker: the caller may still need its bytes (GET /v1/models/{id}).
    const definition = new Uint8Array(stored.definition);
    const consistency = stored.consistency;
    const task: LoadTask = traced({
      kind: 'load',
      version: ref,
      definition,
      limits: this.options.limits,
      ...(consistency === undefined ? {} : { consistency }),
      ...(then === undefined ? {} : { then }),
    });
    const result = await this.pool
      .run<TaskResult>(task, {
        tenant,
        deadlineMs,
        affinity: ref.key,
        transfer: [definition.buffer as ArrayBuffer],
      })
      .catch((error: unknown) => {
        throw compileProblem(error, deadlineMs, this.options.pool.heapMb);
      });
    // The worker's compile refused the model (it nests too deeply: docs/adr/0208).
    if (result.kind === 'refused')
      throw new ApiError(result.status, result.message, result.problems);
    return result;
  }
}

export const versionRef = (modelId: number, versionNumber: number): VersionRef => ({
  key: `${modelId}:${versionNumber}`,
  modelId,
  versionNumber,
});

function quarantined(): ApiError {
  return evaluationTimeout(
    'Evaluations of this model version keep running past their time limit; it is ' +
      'refused until a new version is uploaded',
  );
}
