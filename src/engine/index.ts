/**
 * The configuration engine: compile a model document once per version, evaluate
 * configurations against it. Plain TypeScript, no framework or I/O.
 */
import type { CompiledModel } from './model.js';

export { ENGINE_VERSION } from './version.js';
export { compileModel, type CompileOptions, type CompileResult } from './compile/compile-model.js';
export type { ConsistencyForm, ModelAnalysis } from './consistency/form.js';
export { consistencyTimeLimitMs } from './consistency/fallback.js';
export {
  deserializeConsistency,
  serializeConsistency,
  storedEngineVersion,
} from './consistency/serialize.js';
export { evaluateConfiguration } from './evaluate/evaluate.js';
export {
  compactLine,
  type CompactableLine,
  type CompactCartLine,
  type CompactLine,
} from './evaluate/compact-line.js';
export {
  describeModel,
  type DescribedOption,
  type DescribedQuestion,
  type DescribeOptions,
  type ModelDescription,
} from './describe.js';
export { CompiledModelCache, type CacheEntryOptions } from './cache.js';
export { reviveModel, toTransferable, type RevivedModel } from './transfer.js';
export { DEFAULT_ENGINE_LIMITS, resolveLimits, type EngineLimits } from './limits.js';
export { MAX_REPORTED_PROBLEMS, ProblemList, type Problem } from './problems.js';
export { QUESTION_TYPES, type QuestionType } from './cel/environment.js';
export { Money } from './money.js';
export {
  importedModelIds,
  MAX_PATH_LENGTH,
  mergeImports,
  readModelSource,
  sourceFormatOf,
  unsafePathReason,
  unsafeTextProblems,
  unsafeTextReason,
  type ImportedModel,
  type ModelAsset,
  type ModelSource,
  type ModelSourceFormat,
  type SourceResult,
} from './source/index.js';
export type * from './types.js';
export type { CompiledModel };
