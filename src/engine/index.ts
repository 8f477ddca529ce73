/**
 * The engine's entry for the service's main thread (docs/ENGINE.md "Stages and public
 * API", docs/adr/0200): every type, and the few values whose modules reach no compile,
 * evaluate, describe or revive code (constants and small pure helpers). Engine work runs
 * in the engine workers (docs/adr/0050-engine-worker-runtime.md), which take the stages and
 * the runtime plumbing from ./work.ts. `npm run check:cycles` fails when a value exported
 * here loads engine working code on the main thread.
 */
export { ENGINE_VERSION } from './version.js';
export { DEFAULT_ENGINE_LIMITS, resolveLimits, type EngineLimits } from './limits.js';
export {
  type ConflictAnswer,
  MAX_REPORTED_PROBLEMS,
  ProblemList,
  type Problem,
} from './problems.js';
export { QUESTION_TYPES, type QuestionType } from './cel/environment.js';
export { Money } from './money.js';
export { sourceFormatOf, type ModelSourceFormat } from './source/content-type.js';
export { MAX_PATH_LENGTH, unsafePathReason } from './source/paths.js';
export { unsafeTextProblems, unsafeTextReason } from './source/text.js';
export { storedEngineVersion } from './consistency/stored-version.js';
export { consistencyTimeLimitMs } from './consistency/budget.js';
export {
  compactLine,
  type CompactableLine,
  type CompactCartLine,
  type CompactLine,
} from './evaluate/compact-line.js';
// Types only below: erased, they load nothing.
export type { Result } from './result.js';
export type { ValidatedModel } from './stages/validate.js';
export type { CompiledModel, CompileOptions, CompileResult } from './stages/compile.js';
export type { ConsistencyForm, ModelAnalysis } from './consistency/form.js';
export type {
  DescribedOption,
  DescribedQuestion,
  DescribedRule,
  DescribeOptions,
  ModelDescription,
} from './describe.js';
export type { ImportedModel, ModelAsset, ModelSource, SourceResult } from './source/index.js';
export type { CacheEntryOptions } from './cache.js';
export type { RevivedModel } from './transfer.js';
export type * from './types.js';
