import { type EngineLimits, DEFAULT_ENGINE_LIMITS } from '../engine/index.js';
import type { EnvReader } from './env-reader.js';

/** The engine's safety limits, its compiled-model cache and its worker pools. */
export interface EngineConfig {
  engineLimits: EngineLimits;
  compiledModelCacheSize: number;
  /** Bytes the compiled-model cache may hold (estimated, see engine/model-size.ts). */
  compiledModelCacheBytes: number;
  /** Worker threads that compile models, and how many compiles may wait for one. */
  compileWorkers: number;
  compileQueueSize: number;
  /** Old-generation heap of each compile worker: a model that needs more is refused (413). */
  compileWorkerHeapMb: number;
  /**
   * What a compile may spend in the quick lane (one worker) before it moves to the compile
   * workers: a small model never waits behind another supplier's long compile. 0: no lane.
   */
  compileLaneMs: number;
  /** Old-generation heap of the quick lane's worker (a compile needing more moves on). */
  compileLaneHeapMb: number;
  /** Worker threads that evaluate and describe (each holds the versions hashed to it). */
  evaluationWorkers: number;
  /** Evaluations one company may have waiting (503 past it). */
  evaluationQueueSize: number;
  /** Old-generation heap of each evaluation worker (its cache share lives in it). */
  evaluationWorkerHeapMb: number;
  /** Wall-clock time one evaluation (or description) may run in its worker (422 past it). */
  evaluationTimeoutMs: number;
  /**
   * The engine workers' entry module instead of the built one: set by the tests only, which
   * run the app from the TypeScript sources (test/support/engine-worker-bundle.ts).
   */
  engineWorkerEntry: string | null;
}

export function readEngineConfig(read: EnvReader): EngineConfig {
  return {
    engineLimits: readEngineLimits(read),
    compiledModelCacheSize: read.int('COMPILED_MODEL_CACHE_SIZE', 200, 1, 100_000),
    compiledModelCacheBytes: read.int(
      'COMPILED_MODEL_CACHE_BYTES',
      // Two evaluation workers' shares of 192 MB: two thirds of each one's default heap,
      // and room for the 268-question car with its guided-configuration scratch (~170 MB).
      384 * 1024 * 1024,
      1024 * 1024,
      2 ** 40,
    ),
    compileWorkers: read.int('COMPILE_WORKERS', 1, 1, 64),
    compileQueueSize: read.int('COMPILE_QUEUE_SIZE', 8, 0, 10_000),
    compileWorkerHeapMb: read.int('COMPILE_WORKER_HEAP_MB', 256, 64, 16_384),
    compileLaneMs: read.int('COMPILE_LANE_MS', 1000, 0, 600_000),
    compileLaneHeapMb: read.int('COMPILE_LANE_HEAP_MB', 64, 16, 16_384),
    evaluationWorkers: read.int('EVALUATION_WORKERS', 2, 1, 64),
    evaluationQueueSize: read.int('EVALUATION_QUEUE_SIZE', 32, 0, 10_000),
    evaluationWorkerHeapMb: read.int('EVALUATION_WORKER_HEAP_MB', 384, 32, 16_384),
    evaluationTimeoutMs: read.int('EVALUATION_TIMEOUT_MS', 2000, 10, 600_000),
    engineWorkerEntry: read.env.ENGINE_WORKER_ENTRY || null,
  };
}

function readEngineLimits(read: EnvReader): EngineLimits {
  return {
    ...DEFAULT_ENGINE_LIMITS,
    uploadBytes: read.int('MODEL_UPLOAD_LIMIT', DEFAULT_ENGINE_LIMITS.uploadBytes, 1024, 2 ** 31),
    zipUncompressedBytes: read.int(
      'MODEL_ZIP_UNCOMPRESSED_LIMIT',
      DEFAULT_ENGINE_LIMITS.zipUncompressedBytes,
      1024,
      2 ** 31,
    ),
    // Images of a zip, uncompressed: each, and all of one upload together.
    assetBytes: read.int('MODEL_IMAGE_LIMIT', DEFAULT_ENGINE_LIMITS.assetBytes, 1024, 2 ** 31),
    modelAssetBytes: read.int(
      'MODEL_IMAGES_LIMIT',
      DEFAULT_ENGINE_LIMITS.modelAssetBytes,
      1024,
      2 ** 31,
    ),
    questions: read.int('MODEL_MAX_QUESTIONS', DEFAULT_ENGINE_LIMITS.questions, 1, 1_000_000),
    rules: read.int('MODEL_MAX_RULES', DEFAULT_ENGINE_LIMITS.rules, 1, 10_000_000),
    expressionCost: read.int(
      'MODEL_EXPRESSION_COST_LIMIT',
      DEFAULT_ENGINE_LIMITS.expressionCost,
      100,
      1_000_000_000,
    ),
    evaluationCost: read.int(
      'EVALUATION_COST_BUDGET',
      DEFAULT_ENGINE_LIMITS.evaluationCost,
      100,
      1_000_000_000,
    ),
    // The consistency compile budget; 0 compiles no diagram (availability by propagation).
    consistencyMs: read.int(
      'MODEL_CONSISTENCY_MS',
      DEFAULT_ENGINE_LIMITS.consistencyMs,
      0,
      3_600_000,
    ),
    consistencyBytes: read.int(
      'MODEL_CONSISTENCY_BYTES',
      DEFAULT_ENGINE_LIMITS.consistencyBytes,
      0,
      2 ** 40,
    ),
    // Units of compile work: whether a model is exact does not depend on the load.
    consistencySteps: read.int(
      'MODEL_CONSISTENCY_STEPS',
      DEFAULT_ENGINE_LIMITS.consistencySteps,
      0,
      2 ** 50,
    ),
    // Units of explanation work per evaluation (conflicts_with): past it, `explained: false`.
    explanationWork: read.int(
      'MODEL_EXPLANATION_WORK',
      DEFAULT_ENGINE_LIMITS.explanationWork,
      0,
      2 ** 50,
    ),
  };
}
