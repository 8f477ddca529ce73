import {
  type CartLine,
  describeModel,
  evaluate,
  type CompiledModel,
  type EngineLimits,
  type LineView,
  type ModelAnalysis,
  type ModelDescription,
  type Problem,
} from '../../engine/index.js';
import { CompiledModelCache, reviveModel } from '../../engine/runtime.js';
import { ownedBytes } from '../../workers/owned-bytes.js';
import { lineBytes, transferOf, type LineSnapshot } from './line-snapshot.js';

export type { LineSnapshot };
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
}

export interface AdoptTask {
  readonly kind: 'adopt';
  readonly version: VersionRef;
  /** The transferable compiled form the upload's build produced. */
  readonly compiled: Uint8Array;
}

export interface EvaluateTask {
  readonly kind: 'evaluate';
  readonly version: VersionRef;
  /** The company the line's asset URLs are scoped to. */
  readonly companyId: number;
  /** The answers as JSON text (parsed here: cheaper than a structured clone). */
  readonly questions: string;
  readonly languageCode: string | null;
  readonly view: LineView;
  /** Also the line to store (add to cart): both views (LineSnapshot). */
  readonly snapshot?: boolean;
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

export type EngineTask =
  BuildTask | LoadTask | AdoptTask | EvaluateTask | VerdictsTask | DescribeTask | AnalysisTask;

/** The version is not in this worker's cache: send a `load` first, then the task again. */
export interface Miss {
  readonly kind: 'miss';
}

/** An evaluated line: its JSON as bytes, and what the main thread decides with. */
export interface EvaluatedLine {
  readonly kind: 'evaluated';
  readonly valid: boolean;
  readonly errors: Problem[];
  readonly warnings: Problem[];
  readonly total: string;
  readonly currency: string;
  /**
   * UTF-8 JSON of the line (docs/model-format.md "The cart line"), in the asked view; with
   * a snapshot, that view's stored form (without `version_number`, line-snapshot.ts).
   */
  readonly line: Uint8Array;
  /** When the task asked for it. */
  readonly snapshot?: LineSnapshot;
}

export interface Loaded {
  readonly kind: 'loaded';
  /** The consistency form built afresh (the stored one was missing or stale): to store. */
  readonly consistency?: Uint8Array;
}

export type TaskResult =
  | BuildOutcome
  | Miss
  | Loaded
  | EvaluatedLine
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
      case 'adopt':
        this.keep(task.version, task.compiled);
        return plain({ kind: 'adopted' });
      case 'evaluate':
        return this.withModel(task.version, (model) => evaluateTask(model, task, this.urls));
      case 'verdicts':
        return this.withModel(task.version, (model) => plain(verdicts(model, task)));
      case 'describe':
        return this.withModel(task.version, (model) => {
          const { modelId, versionNumber } = task.version;
          const assetUrl = (path: string) =>
            this.urls.url({ companyId: task.companyId, modelId, versionNumber, path });
          const description = describeModel(model, task.languageCode, { assetUrl });
          return plain({ kind: 'described', description });
        });
      case 'analysis':
        return this.withModel(task.version, (model) =>
          plain({ kind: 'analysed', analysis: model.consistency.analysis }),
        );
    }
  }

  private withModel(version: VersionRef, use: (model: CompiledModel) => Answer): Answer {
    const model = this.cache.get(version.key);
    return model === undefined ? plain(MISS) : use(model);
  }

  private load(task: LoadTask): Answer {
    const outcome = runCompile({
      kind: 'compile',
      definition: task.definition,
      limits: task.limits,
      ...(task.consistency === undefined ? {} : { consistency: task.consistency }),
    });
    // Stored definitions compiled at upload; failing now means the engine changed.
    if (outcome.kind === 'refused')
      throw new Error(`Stored model ${task.version.key} no longer compiles`);
    this.keep(task.version, outcome.compiled);
    const consistency = outcome.consistency && ownedBytes(outcome.consistency);
    return {
      value: { kind: 'loaded', ...(consistency ? { consistency } : {}) },
      transfer: consistency ? [consistency.buffer as ArrayBuffer] : [],
    };
  }

  /** Revives a transferable compiled form into the cache (its size is measured as it is). */
  private keep(version: VersionRef, compiled: Uint8Array): void {
    const revived = reviveModel(compiled);
    this.cache.set(version.key, revived.model, {
      bytes: revived.bytes,
      group: String(version.modelId),
      version: version.versionNumber,
    });
  }
}

function evaluateTask(model: CompiledModel, task: EvaluateTask, urls: AssetUrlSigner): Answer {
  const { modelId, versionNumber } = task.version;
  const evaluation = evaluate(model, {
    modelId,
    versionNumber,
    questions: JSON.parse(task.questions) as unknown,
    languageCode: task.languageCode,
    // Company-scoped, so that whoever may use the line (an intent token too) may load them.
    assetUrl: (path) => urls.url({ companyId: task.companyId, modelId, versionNumber, path }),
    // A snapshot keeps both views: the compact one is cut from the full line.
    view: task.snapshot ? 'full' : task.view,
  });
  const { total, currency } = evaluation.line.pricing;
  const { line, snapshot } = lineBytes(evaluation.line as CartLine, task, versionNumber);
  return {
    value: {
      kind: 'evaluated',
      valid: evaluation.valid,
      errors: evaluation.errors,
      warnings: evaluation.warnings,
      total,
      currency,
      line,
      ...(snapshot ? { snapshot } : {}),
    },
    transfer: transferOf(line, snapshot),
  };
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
  return {
    value: { ...outcome, compiled, definition, consistency },
    transfer: [compiled, definition, consistency].map((bytes) => bytes.buffer as ArrayBuffer),
  };
}
