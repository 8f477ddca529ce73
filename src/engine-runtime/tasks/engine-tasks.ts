import {
  describeModel,
  evaluate,
  type CompiledModel,
  type EngineLimits,
  type ModelAnalysis,
  type ModelDescription,
  CompiledModelCache,
  modelHeapBytes,
  reviveModel,
} from '../../engine/work.js';
import { ownedBytes } from '../owned-bytes.js';
import type { LineSnapshot } from './line-snapshot.js';
import { evaluateTask, type EvaluateTask, type SentLine } from './evaluate-task.js';

export type { EvaluateTask, LineSnapshot, SentLine };
import { AssetUrlSigner, type AssetUrlSigning } from '../asset-url-signer.js';
import { runBuild, runCompile, type BuildOutcome, type BuildTask } from './build-model.js';

/**
 * The tasks an engine worker runs (engine.worker.ts), as plain data in and out: the main
 * thread sends ids, answers and stored bytes, and gets back bytes and a few fields. A
 * worker keeps the compiled versions it was asked for (its own cache, bounded per worker);
 * the pool sends every task of one version to the same worker.
 */

/** A version by its ids; `key` is `${modelId}:${versionNumber}`. */
export interface VersionRef {
  readonly key: string;
  readonly modelId: number;
  readonly versionNumber: number;
}

/** Compile a stored version into this worker's cache (a miss), or keep one just built. */
export interface LoadTask {
  readonly kind: 'load';
  readonly version: VersionRef;
  readonly definition: Uint8Array;
  readonly consistency?: Uint8Array;
  readonly limits: EngineLimits;
  /**
   * Run on the model just compiled, kept or not: a version too large for this worker's
   * cache share is evaluated this way, compiled for each task (docs/adr/0160).
   */
  readonly then?: VersionTask;
}

export interface AdoptTask {
  readonly kind: 'adopt';
  readonly version: VersionRef;
  /** The transferable compiled form the upload's build produced. */
  readonly compiled: Uint8Array;
}

/**
 * Stored lines' answers checked on a version, in one task (a version's impact): each
 * line's validity and problem codes, never its line. The answers travel as the stored
 * JSON text and are parsed here, off the main thread.
 */
export interface VerdictsTask {
  readonly kind: 'verdicts';
  readonly version: VersionRef;
  readonly lines: readonly StoredAnswers[];
}

export interface StoredAnswers {
  /** The row's `answers` column: JSON text. */
  readonly answers: string;
  readonly languageCode: string | null;
}

/** Whether the version accepts a line, and the codes of its problems (each once). */
export interface Verdict {
  readonly valid: boolean;
  readonly codes: string[];
}

export interface DescribeTask {
  readonly kind: 'describe';
  readonly version: VersionRef;
  readonly companyId: number;
  readonly languageCode?: string | null;
}

export interface AnalysisTask {
  readonly kind: 'analysis';
  readonly version: VersionRef;
}

/** The tasks that run on a version already compiled in the worker. */
export type VersionTask = EvaluateTask | VerdictsTask | DescribeTask | AnalysisTask;

export type EngineTask = BuildTask | LoadTask | AdoptTask | VersionTask;

/** The version is not in this worker's cache: send a `load` first, then the task again. */
export interface Miss {
  readonly kind: 'miss';
}

export interface Loaded {
  readonly kind: 'loaded';
  /** False: the compiled form is larger than this worker's cache share, so it was not kept. */
  readonly kept: boolean;
  /** The consistency form built afresh (the stored one was missing or stale): to store. */
  readonly consistency?: Uint8Array;
}

export type TaskResult =
  | BuildOutcome
  | Miss
  | Loaded
  | SentLine
  | { kind: 'verdicts'; verdicts: Verdict[] }
  | { kind: 'described'; description: ModelDescription }
  | { kind: 'analysed'; analysis: ModelAnalysis }
  | { kind: 'adopted' };

/** A task's answer and the buffers that move with it. */
export interface Answer {
  value: TaskResult;
  transfer: ArrayBuffer[];
}

/** The settings a worker starts with (`workerData`). */
export interface EngineWorkerData {
  cacheEntries: number;
  cacheBytes: number;
  /** How the asset URLs of lines and descriptions are signed (AssetUrls' settings). */
  assetUrls: AssetUrlSigning;
}

const MISS: Miss = { kind: 'miss' };

export class EngineTasks {
  private readonly cache: CompiledModelCache;
  private readonly urls: AssetUrlSigner;

  constructor(settings: EngineWorkerData) {
    this.cache = new CompiledModelCache(settings.cacheEntries, settings.cacheBytes);
    this.urls = new AssetUrlSigner(settings.assetUrls);
  }

  async run(task: EngineTask): Promise<Answer> {
    switch (task.kind) {
      case 'build':
        return built(await runBuild(task));
      case 'load':
        return this.load(task);
      case 'adopt': {
        const revived = reviveModel(task.compiled);
        this.keep(task.version, revived.model, revived.bytes);
        return plain({ kind: 'adopted' });
      }
      default: {
        const model = this.cache.get(task.version.key);
        return model === undefined ? plain(MISS) : this.onModel(model, task);
      }
    }
  }

  private onModel(model: CompiledModel, task: VersionTask): Answer {
    switch (task.kind) {
      case 'evaluate':
        return evaluateTask(model, task, this.urls);
      case 'verdicts':
        return plain(verdicts(model, task));
      case 'describe': {
        const { modelId, versionNumber } = task.version;
        const assetUrl = (path: string) =>
          this.urls.url({ companyId: task.companyId, modelId, versionNumber, path });
        const description = describeModel(model, task.languageCode, { assetUrl });
        return plain({ kind: 'described', description });
      }
      case 'analysis':
        return plain({ kind: 'analysed', analysis: model.consistency.analysis });
    }
  }

  private load(task: LoadTask): Answer {
    const outcome = runCompile({
      kind: 'compile',
      definition: task.definition,
      limits: task.limits,
      ...(task.consistency === undefined ? {} : { consistency: task.consistency }),
    });
    // Stored definitions compiled at upload; failing now means the engine changed. A
    // compile out of call stack is the model's problem: its refusal goes to the caller.
    if (outcome.kind === 'refused' && outcome.status === 422) return plain(outcome);
    if (outcome.kind === 'refused')
      throw new Error(`Stored model ${task.version.key} no longer compiles`);
    const model = this.keep(task.version, outcome.model, modelHeapBytes(outcome.model));
    if (task.then !== undefined) return this.onModel(model, task.then);
    const kept = this.cache.get(task.version.key) !== undefined;
    const consistency = outcome.consistency && ownedBytes(outcome.consistency);
    return {
      value: { kind: 'loaded', kept, ...(consistency ? { consistency } : {}) },
      transfer: consistency ? [consistency.buffer as ArrayBuffer] : [],
    };
  }

  /**
   * Caches a compiled model under its estimated heap; one larger than the cache's bound is
   * not kept, and is returned all the same.
   */
  private keep(version: VersionRef, model: CompiledModel, bytes: number): CompiledModel {
    this.cache.set(version.key, model, {
      bytes,
      group: String(version.modelId),
      version: version.versionNumber,
    });
    return model;
  }
}

function verdicts(model: CompiledModel, task: VerdictsTask): TaskResult {
  const { modelId, versionNumber } = task.version;
  const verdicts = task.lines.map((line): Verdict => {
    const evaluation = evaluate(model, {
      modelId,
      versionNumber,
      questions: JSON.parse(line.answers) as unknown,
      languageCode: line.languageCode,
      // The smaller line: only its validity and problems are kept.
      view: 'compact',
    });
    const codes = [...new Set(evaluation.errors.map((problem) => problem.code))];
    return { valid: evaluation.valid, codes };
  });
  return { kind: 'verdicts', verdicts };
}

function plain(value: TaskResult): Answer {
  return { value, transfer: [] };
}

/** A build's bytes move to the main thread rather than being copied. */
function built(outcome: BuildOutcome): Answer {
  if (outcome.kind !== 'built') return plain(outcome);
  const compiled = ownedBytes(outcome.compiled);
  const definition = ownedBytes(outcome.definition);
  const consistency = ownedBytes(outcome.consistency);
  // Images too: an upload's may be tens of MB, which a copy would clone on the event loop.
  const assets = outcome.assets.map(([path, asset]): [string, typeof asset] => [
    path,
    { ...asset, bytes: ownedBytes(asset.bytes) },
  ]);
  const moved = [compiled, definition, consistency, ...assets.map(([, asset]) => asset.bytes)];
  return {
    value: { ...outcome, compiled, definition, consistency, assets },
    transfer: moved.map((bytes) => bytes.buffer as ArrayBuffer),
  };
}
