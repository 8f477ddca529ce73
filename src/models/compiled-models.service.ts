import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HttpStatus, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Piscina } from 'piscina';
import { ApiError } from '../common/errors/api-error.js';
import { AppConfig } from '../config/app-config.js';
import {
  CompiledModelCache,
  consistencyTimeLimitMs,
  reviveSteps,
  runInSlices,
  type CompiledModel,
  type EngineLimits,
  type ModelAsset,
  type ModelSourceFormat,
  type Slicing,
} from '../engine/index.js';
import { slicingOf } from '../common/event-loop/slices.js';
import type {
  BuildOutcome,
  BuildTask,
  CompileOutcome,
  CompileTask,
  Refusal,
  StoredImport,
} from './compile/build-model.js';
import type { ModelUpload } from './upload/read-model-upload.js';

/** An upload turned into a stored-ready version: the merged definition, compiled. */
export interface BuiltModel {
  /**
   * The merged definition to store, deflated in the worker (definition-bytes.ts): parsing,
   * cloning, re-serializing or writing megabytes of it on the event loop is what this avoids.
   */
  definition: Uint8Array;
  /** Its consistency form to store (serialized in the worker). */
  consistency: Uint8Array;
  /** Its `general` section (validated by the compile). */
  general: Record<string, unknown>;
  compiled: CompiledModel;
  /** Estimated heap the compiled model holds (its weight in the cache). */
  bytes: number;
  assets: Map<string, ModelAsset>;
  format: ModelSourceFormat;
}

/** The models an upload imports, loaded by the caller (they live in the database). */
export interface LoadedImports {
  models: StoredImport[];
  assets: Map<string, ModelAsset>;
}

const RETRY_AFTER_SECONDS = '5';
/** What a compile may spend besides the consistency form (it was the whole budget before). */
export const COMPILE_REST_MS = 30_000;

/**
 * The time limit of one compile in a worker, past which piscina ends it (413). The
 * consistency budget (MODEL_CONSISTENCY_MS, docs/model-format.md "Limits") is soft: past it the
 * model is still accepted with `exact: false`, after a fallback with the budget counted
 * afresh. So the hard limit is derived from it and outlasts both (consistencyTimeLimitMs),
 * plus COMPILE_REST_MS for the rest of the compile; a fixed 30 s, equal to the default
 * consistency budget, answered 413 to the models the spec accepts inexact.
 */
export function compileTimeoutMs(limits: EngineLimits): number {
  return consistencyTimeLimitMs(limits) + COMPILE_REST_MS;
}

type Task = BuildTask | CompileTask;
type Runner = (task: Task) => Promise<unknown>;

/** A version's stored consistency form: read before a compile, written after a rebuild. */
export interface StoredConsistency {
  /** The stored form if this engine version built it (else undefined: rebuilt). */
  load: () => Promise<Uint8Array | undefined>;
  save: (form: Uint8Array) => Promise<void>;
}

/**
 * Compiled models: the worker pool that compiles them and the cache that keeps them
 * (docs/ENGINE.md "Compiling off the event loop"). Uploads, new versions and cache misses
 * are validated and compiled in a worker thread; the main thread only revives the
 * transferable result, in slices of a few milliseconds, so no compile blocks the event
 * loop. When every worker is busy and the queue is full, the request answers 503 with
 * Retry-After. The cache is bounded by estimated bytes (COMPILED_MODEL_CACHE_BYTES) and
 * entries (COMPILED_MODEL_CACHE_SIZE); superseded versions are evicted first.
 */
@Injectable()
export class CompiledModels implements OnModuleDestroy {
  private readonly logger = new Logger(CompiledModels.name);
  private readonly cache: CompiledModelCache;
  private readonly pool: Piscina | undefined;
  private readonly run: Runner;
  /** Cache misses being compiled: concurrent requests for one version share the compile. */
  private readonly pending = new Map<string, Promise<CompiledModel>>();
  /**
   * Compiles running or waiting. Counted here rather than left to piscina's `maxQueue`,
   * which tasks run with an AbortSignal (our time budget) bypass.
   */
  private inFlight = 0;
  private readonly capacity: number;
  /** The time limit of one compile (compileTimeoutMs). */
  private readonly timeoutMs: number;

  /** A compiled model is revived on this thread in slices (EVENT_LOOP_SLICE_MS). */
  private readonly slicing: Slicing;

  constructor(private readonly config: AppConfig) {
    this.slicing = slicingOf(config.eventLoopSliceMs);
    this.capacity = config.compileWorkers + config.compileQueueSize;
    this.timeoutMs = compileTimeoutMs(config.engineLimits);
    this.cache = new CompiledModelCache(
      config.compiledModelCacheSize,
      config.compiledModelCacheBytes,
    );
    const worker = fileURLToPath(new URL('./compile/compile.worker.js', import.meta.url));
    if (existsSync(worker)) {
      this.pool = new Piscina({
        filename: worker,
        minThreads: 0,
        maxThreads: config.compileWorkers,
        maxQueue: config.compileQueueSize,
        idleTimeout: 60_000,
        // A model that would exhaust a worker's heap fails that compile, not the service.
        resourceLimits: { maxOldGenerationSizeMb: config.compileWorkerHeapMb },
      });
      // A compile past its time budget is aborted (piscina ends that worker).
      this.run = (task) =>
        (this.pool as Piscina).run(task, { signal: AbortSignal.timeout(this.timeoutMs) });
    } else {
      // Running from TypeScript sources (unit and in-process e2e tests): no worker file
      // to start, so the same task runs in this thread; the built service always pools.
      this.run = async (task) => {
        const { runTask } = await import('./compile/build-model.js');
        return runTask(task);
      };
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool?.destroy();
  }

  /** Reads, merges and compiles an upload; `loadImports` fetches the models it imports. */
  async build(
    upload: ModelUpload,
    loadImports: (ids: number[]) => Promise<LoadedImports>,
  ): Promise<BuiltModel> {
    const task: BuildTask = {
      kind: 'build',
      bytes: upload.bytes,
      format: upload.format,
      limits: this.config.engineLimits,
    };
    let outcome = (await this.submit(task)) as BuildOutcome;
    let imported: LoadedImports | undefined;
    if (outcome.kind === 'needs_imports') {
      imported = await loadImports(outcome.ids);
      const withImports = { models: imported.models, assetPaths: [...imported.assets.keys()] };
      outcome = (await this.submit({ ...task, imported: withImports })) as BuildOutcome;
    }
    if (outcome.kind === 'refused') throw refusalError(outcome);
    if (outcome.kind !== 'built') throw new Error('the compile worker asked for imports twice');
    const revived = await runInSlices(reviveSteps(outcome.compiled), this.slicing);
    const assets = new Map(outcome.assets.map(([path, asset]) => [path, toAsset(asset)]));
    for (const [path, asset] of imported?.assets ?? [])
      if (!assets.has(path)) assets.set(path, asset);
    return {
      definition: outcome.definition,
      consistency: outcome.consistency,
      general: outcome.general,
      compiled: revived.model,
      bytes: revived.bytes,
      assets,
      format: outcome.format,
    };
  }

  /** Keeps a version just stored (uploads compile once). */
  remember(modelId: number, versionNumber: number, built: BuiltModel): void {
    this.cache.set(cacheKey(modelId, versionNumber), built.compiled, {
      bytes: built.bytes,
      group: String(modelId),
      version: versionNumber,
    });
  }

  /**
   * A version compiled, from the cache or, on a miss, compiled in a worker from the
   * stored definition that `loadDefinition` reads (undefined: no such version), reusing
   * the consistency form `stored.load` gives (one this engine built) or building it
   * afresh and handing its bytes to `stored.save`.
   */
  async get(
    modelId: number,
    versionNumber: number,
    loadDefinition: () => Promise<Uint8Array | undefined>,
    stored?: StoredConsistency,
  ): Promise<CompiledModel | undefined> {
    const key = cacheKey(modelId, versionNumber);
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const running = this.pending.get(key);
    if (running !== undefined) return running;
    const definition = await loadDefinition();
    if (definition === undefined) return undefined;
    const consistency = await stored?.load();
    const compile = this.compileStored(key, definition, modelId, versionNumber, consistency).then(
      async ({ model, rebuilt }) => {
        if (rebuilt && stored) await stored.save(rebuilt);
        return model;
      },
    );
    this.pending.set(key, compile);
    try {
      return await compile;
    } finally {
      this.pending.delete(key);
    }
  }

  private async compileStored(
    key: string,
    definition: Uint8Array,
    modelId: number,
    versionNumber: number,
    consistency: Uint8Array | undefined,
  ): Promise<{ model: CompiledModel; rebuilt?: Uint8Array }> {
    const task: CompileTask = {
      kind: 'compile',
      definition,
      limits: this.config.engineLimits,
      ...(consistency === undefined ? {} : { consistency }),
    };
    const outcome = (await this.submit(task)) as CompileOutcome;
    // Stored definitions compiled at upload; failing now means the engine changed.
    if (outcome.kind === 'refused') throw new Error(`Stored model ${key} no longer compiles`);
    const revived = await runInSlices(reviveSteps(outcome.compiled), this.slicing);
    this.cache.set(key, revived.model, {
      bytes: revived.bytes,
      group: String(modelId),
      version: versionNumber,
    });
    return { model: revived.model, rebuilt: outcome.consistency };
  }

  private async submit(task: Task): Promise<unknown> {
    if (this.inFlight >= this.capacity) throw busy();
    this.inFlight++;
    try {
      return await this.run(task);
    } catch (error) {
      throw this.poolError(error);
    } finally {
      this.inFlight--;
    }
  }

  private poolError(error: unknown): unknown {
    const message = error instanceof Error ? error.message : '';
    // piscina's refusals: a full queue, or no queue (COMPILE_QUEUE_SIZE=0) and no idle worker.
    if (/queue is at limit|no task queue available/i.test(message)) return busy();
    const code = (error as { code?: unknown } | undefined)?.code;
    if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
      this.logger.warn('A model compile ran out of its worker heap');
      const heap = this.config.compileWorkerHeapMb;
      return tooLarge(
        `The model needs more memory to compile than a compile worker has (${heap} MB)`,
      );
    }
    if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) {
      this.logger.warn('A model compile ran past its time budget');
      return tooLarge(`The model takes longer than ${this.timeoutMs / 1000} s to compile`);
    }
    return error;
  }
}

const cacheKey = (modelId: number, versionNumber: number) => `${modelId}:${versionNumber}`;

/** 503: every compiler busy and the queue full. */
function busy(): ApiError {
  return new ApiError(
    HttpStatus.SERVICE_UNAVAILABLE,
    'Service busy',
    [
      {
        code: 'compile_queue_full',
        message: 'Every model compiler is busy and the queue is full; retry shortly',
      },
    ],
    { 'Retry-After': RETRY_AFTER_SECONDS },
  );
}

function tooLarge(message: string): ApiError {
  return new ApiError(HttpStatus.PAYLOAD_TOO_LARGE, 'Payload too large', [
    { code: 'limit_exceeded', message },
  ]);
}

function refusalError(refusal: Refusal): ApiError {
  return new ApiError(refusal.status, refusal.message, refusal.problems);
}

/** A structured-cloned asset: its bytes arrive as a Uint8Array, not a Buffer. */
function toAsset(asset: ModelAsset): ModelAsset {
  const bytes = asset.bytes as Uint8Array;
  return {
    bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    contentType: asset.contentType,
  };
}
