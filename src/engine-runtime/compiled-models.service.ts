import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { Worker } from 'node:worker_threads';
import { ApiError } from '../common/errors/api-error.js';
import { AppConfig } from '../config/app-config.js';
import { AssetUrls } from './asset-urls.js';
import {
  type EngineLimits,
  type LineView,
  type ModelAnalysis,
  type ModelDescription,
  type ModelSourceFormat,
  consistencyTimeLimitMs,
} from '../engine/index.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { traced } from '../tracing/task-trace.js';
import { WorkerFailure, type WorkerEntry } from './worker-pool.js';
import { CompileLanes } from './compile-lanes.js';
import { type StoredVersion, VersionTasks, versionRef } from './version-tasks.js';
import type {
  BuildOutcome,
  BuildTask,
  BuiltAsset,
  Refusal,
  StoredImport,
} from './tasks/build-model.js';
import type {
  EngineWorkerData,
  SentLine,
  StoredAnswers,
  TaskResult,
  Verdict,
} from './tasks/engine-tasks.js';
import type { AnswerChange, Guidance, LineResolution, ResolveRequest } from './tasks/guidance.js';
import { compileProblem } from './engine-problems.js';
import { type EvaluatedLine, receivedLine } from './evaluated-line.js';
import { engineObservers } from './engine-observers.js';
import {
  STORED_VERSIONS,
  storedVersion,
  type StoredVersions,
  type VersionAsset,
  type VersionKey,
} from './stored-versions.port.js';
import { jsonTextOf } from '../common/http/json-body-facts.js';

export type {
  AnswerChange,
  EvaluatedLine,
  Guidance,
  LineResolution,
  ResolveRequest,
  StoredAnswers,
  StoredVersion,
  Verdict,
  VersionKey,
};
export { QUARANTINE_AFTER } from './version-tasks.js';

/** An upload turned into a stored-ready version: the merged definition, compiled. */
export interface BuiltModel {
  /** The merged definition to store, deflated in the worker (definition-bytes.ts). */
  definition: Uint8Array;
  /** Its consistency form to store (serialized in the worker). */
  consistency: Uint8Array;
  /** Its `general` section (validated by the compile). */
  general: Record<string, unknown>;
  /** The compiled form as transferable bytes: handed to the worker that will evaluate it. */
  compiled: Uint8Array;
  /** Options no valid configuration can use (the upload's warnings). */
  deadOptions: string[];
  /** `general.name` and `general.code` as the compile read them. */
  name: string;
  code?: string;
  assets: Map<string, VersionAsset>;
  format: ModelSourceFormat;
}

/** The models an upload imports, loaded by the caller (they live in the database). */
export interface LoadedImports {
  models: StoredImport[];
  assets: Map<string, VersionAsset>;
}

/** An upload's bytes as read from the request. */
export interface UploadBytes {
  bytes: Uint8Array;
  format: ModelSourceFormat;
}

/** What a configuration is evaluated with. */
export interface LineRequest {
  questions: unknown;
  languageCode: string | null;
  view: LineView;
  /** Also the snapshot a cart row stores (both views, deflated). */
  snapshot?: boolean;
  /** A preview's `resolve` and `complete`. */
  guidance?: Guidance;
  /** Carry the answers over by the nearest valid configuration (a line moved to this version). */
  move?: boolean;
}

/** What a compile may spend besides the consistency form. */
export const COMPILE_REST_MS = 30_000;

/**
 * The time limit of one compile, counted from when a worker starts it. The consistency
 * budget (MODEL_CONSISTENCY_MS) is soft: past it the model is still accepted with
 * `exact: false`, so the hard limit outlasts it (consistencyTimeLimitMs) plus
 * COMPILE_REST_MS for the rest of the compile.
 */
export function compileTimeoutMs(limits: EngineLimits): number {
  return consistencyTimeLimitMs(limits) + COMPILE_REST_MS;
}

/**
 * All engine work, in worker threads (docs/adr/0050-engine-worker-runtime.md): uploads
 * compile in the compile lanes (fair between suppliers, a quick lane first: CompileLanes); evaluations, descriptions and
 * analyses run in the evaluation pool, each version in the worker its key hashes to, which
 * keeps it compiled (fair between companies). Every task has a wall-clock deadline past
 * which its worker is terminated; a version whose evaluations keep running past theirs is
 * quarantined until a new version is uploaded. The main thread sends plain data and gets
 * bytes and a few fields back: it never compiles, revives or evaluates a model.
 */
@Injectable()
export class CompiledModels implements OnModuleDestroy {
  private readonly logger = new Logger(CompiledModels.name);
  private readonly compiles: CompileLanes;
  private readonly versions: VersionTasks;
  private readonly compileTimeout: number;

  constructor(
    private readonly config: AppConfig,
    urls: AssetUrls,
    metrics: MetricsService,
    @Inject(STORED_VERSIONS) private readonly storedVersions: StoredVersions,
  ) {
    this.compileTimeout = compileTimeoutMs(config.engineLimits);
    const entry = workerEntry(config);
    const workerData: EngineWorkerData = {
      cacheEntries: config.compiledModelCacheSize,
      cacheBytes: Math.floor(config.compiledModelCacheBytes / config.evaluationWorkers),
      assetUrls: urls.signing,
    };
    const lanes = engineObservers(config, metrics);
    this.compiles = new CompileLanes({
      entry,
      workerData,
      workers: config.compileWorkers,
      heapMb: config.compileWorkerHeapMb,
      perTenant: config.compileQueueSize,
      timeoutMs: this.compileTimeout,
      quickMs: config.compileLaneMs,
      quickHeapMb: config.compileLaneHeapMb,
      observer: lanes.observer('compile', () => this.compiles.waiting),
    });
    this.versions = new VersionTasks({
      pool: {
        name: 'evaluation',
        entry,
        workers: config.evaluationWorkers,
        heapMb: config.evaluationWorkerHeapMb,
        perTenant: config.evaluationQueueSize,
        workerData,
        observer: lanes.observer('evaluation', () => this.versions.waiting),
      },
      limits: config.engineLimits,
      evaluationTimeoutMs: config.evaluationTimeoutMs,
      compileTimeoutMs: this.compileTimeout,
      onQuarantine: lanes.onQuarantine,
    });
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([this.compiles.close(), this.versions.close()]);
  }

  /** Reads, merges and compiles an upload of `supplierId` (whose queue it waits in). */
  async build(
    upload: UploadBytes,
    supplierId: number,
    loadImports: (ids: number[]) => Promise<LoadedImports>,
  ): Promise<BuiltModel> {
    // The worker that will be handed the version starts meanwhile, not after the compile.
    this.versions.warm();
    const task: BuildTask = {
      kind: 'build',
      bytes: upload.bytes,
      format: upload.format,
      limits: this.config.engineLimits,
    };
    let outcome = await this.compile(task, supplierId);
    let imported: LoadedImports | undefined;
    if (outcome.kind === 'needs_imports') {
      imported = await loadImports(outcome.ids);
      const withImports = { models: imported.models, assetPaths: [...imported.assets.keys()] };
      outcome = await this.compile({ ...task, imported: withImports }, supplierId);
    }
    if (outcome.kind === 'refused') throw refusalError(outcome);
    if (outcome.kind !== 'built') throw new Error('the compile worker asked for imports twice');
    const assets = new Map(outcome.assets.map(([path, asset]) => [path, toAsset(asset)]));
    for (const [path, asset] of imported?.assets ?? [])
      if (!assets.has(path)) assets.set(path, asset);
    return {
      definition: outcome.definition,
      consistency: outcome.consistency,
      general: outcome.general,
      compiled: outcome.compiled,
      deadOptions: outcome.deadOptions,
      name: outcome.name,
      ...(outcome.code === undefined ? {} : { code: outcome.code }),
      assets,
      format: outcome.format,
    };
  }

  /**
   * Hands a version just stored to the worker that will evaluate it (uploads compile
   * once) and has it evaluate the empty configuration there, so that the first buyer's
   * preview finds it ready (docs/adr/0197). Settles once it is, or after the evaluation
   * deadline (a worker busy with others' work: the preparation goes on, the upload is
   * answered). Best effort, never rejected: should it fail, the first evaluation
   * compiles the stored version.
   */
  async remember(modelId: number, versionNumber: number, built: BuiltModel): Promise<void> {
    const adopted = this.versions.adopt(versionRef(modelId, versionNumber), built.compiled);
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((done) => {
      timer = setTimeout(done, this.config.evaluationTimeoutMs);
    });
    await Promise.race([adopted, waited]).finally(() => clearTimeout(timer));
  }

  /** Evaluates a configuration for `companyId` (its queue, its asset URLs). */
  async evaluate(key: VersionKey, companyId: number, request: LineRequest): Promise<EvaluatedLine> {
    const version = storedVersion(this.storedVersions, key);
    // JSON text crosses to the worker at a third of a structured clone's cost, most of it
    // off the worker (5,000 answers: clone 1.4 ms here + 3 ms there; text 0.8 + 1.4 ms).
    // Answers parsed from a request body go as the body wrote them: no stringify at all.
    const questions = jsonTextOf(request.questions) ?? JSON.stringify(request.questions ?? null);
    const result = await this.versions.run(version, `company:${companyId}`, (ref) => ({
      kind: 'evaluate',
      version: ref,
      companyId,
      questions,
      languageCode: request.languageCode,
      view: request.view,
      ...(request.snapshot ? { snapshot: true } : {}),
      ...(request.guidance ? { guidance: request.guidance } : {}),
      ...(request.move ? { move: true } : {}),
    }));
    return receivedLine(result as SentLine);
  }

  /**
   * Stored lines' answers checked on a version (a version's impact), in one task whose
   * deadline is one evaluation's per line: validity and problem codes only.
   */
  async verdicts(key: VersionKey, tenant: string, lines: StoredAnswers[]): Promise<Verdict[]> {
    const version = storedVersion(this.storedVersions, key);
    const deadline = this.config.evaluationTimeoutMs * Math.max(1, lines.length);
    const result = await this.versions.run(
      version,
      tenant,
      (ref) => ({ kind: 'verdicts', version: ref, lines }),
      deadline,
    );
    return (result as Extract<TaskResult, { kind: 'verdicts' }>).verdicts;
  }

  /** The version's questions and options as a company sees them (GET …/companies/{id}/models). */
  async describe(
    key: VersionKey,
    companyId: number,
    languageCode: string | null | undefined,
  ): Promise<ModelDescription> {
    const version = storedVersion(this.storedVersions, key);
    const result = await this.versions.run(version, `company:${companyId}`, (ref) => ({
      kind: 'describe',
      version: ref,
      companyId,
      languageCode,
    }));
    return (result as Extract<TaskResult, { kind: 'described' }>).description;
  }

  /** The version's consistency analysis (GET /v1/models/{id}). */
  async analysis(key: VersionKey, tenant: string): Promise<ModelAnalysis> {
    const version = storedVersion(this.storedVersions, key);
    const result = await this.versions.run(version, tenant, (ref) => ({
      kind: 'analysis',
      version: ref,
    }));
    return (result as Extract<TaskResult, { kind: 'analysed' }>).analysis;
  }

  /** The evaluation workers running a task now (tests stop one mid-request). */
  busyEvaluationWorkers(): Worker[] {
    return this.versions.busyWorkers();
  }

  private async compile(task: BuildTask, supplierId: number): Promise<BuildOutcome> {
    try {
      return await this.compiles.run<BuildOutcome>(traced(task), supplierId);
    } catch (error) {
      if (error instanceof WorkerFailure && error.reason !== 'busy')
        this.logger.warn(`A model compile failed in its worker: ${error.reason}`);
      throw compileProblem(error, this.compileTimeout, this.config.compileWorkerHeapMb);
    }
  }
}

/** The built worker (dist), or the one the tests bundled from the TypeScript sources. */
function workerEntry(config: AppConfig): WorkerEntry {
  if (config.engineWorkerEntry !== null)
    return { filename: pathToFileURL(config.engineWorkerEntry) };
  const built = new URL('./tasks/engine.worker.js', import.meta.url);
  if (existsSync(fileURLToPath(built))) return { filename: built };
  throw new Error('tasks/engine.worker.js is missing: run `npm run build` first');
}

function refusalError(refusal: Refusal): ApiError {
  return new ApiError(refusal.status, refusal.message, refusal.problems);
}

/** An image the worker built (its bytes moved here, not copied) as a version stores it. */
function toAsset(asset: BuiltAsset): VersionAsset {
  return {
    contentType: asset.contentType,
    sha256: asset.sha256,
    size: asset.bytes.byteLength,
    bytes: asset.bytes,
  };
}
