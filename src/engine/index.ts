/**
 * The configuration engine's boundary: three stages with a typed artifact between them
 * (docs/ENGINE.md "Stages", docs/adr/0065), modelled on cel-es's parse → check → plan → run:
 *
 *   validateModel(document, limits) → Result<ValidatedModel>
 *   compileModel(validated, options) → Result<CompiledModel>
 *   evaluate(compiled, request) → Evaluation
 *
 * plus what callers need around them: the engine version, limits, problems, reading model
 * sources, describing a compiled model, and the line and value types. Runtime plumbing
 * (cache, transfer between threads, stored consistency forms, the compact line) is
 * the worker's business and lives in ./runtime.ts. Plain TypeScript, no framework or I/O.
 */
export { ENGINE_VERSION } from './version.js';
export type { Result } from './result.js';
export { validateModel, type ValidatedModel } from './stages/validate.js';
export { keyedProblems } from './validate/keyed-paths.js';
export {
  compileDocument,
  compileModel,
  type CompiledModel,
  type CompileOptions,
  type CompileResult,
} from './stages/compile.js';
export { evaluate } from './stages/evaluate.js';
export type { ModelAnalysis } from './consistency/form.js';
export {
  describeModel,
  type DescribedOption,
  type DescribedQuestion,
  type DescribeOptions,
  type ModelDescription,
} from './describe.js';
export { DEFAULT_ENGINE_LIMITS, resolveLimits, type EngineLimits } from './limits.js';
export {
  type ConflictAnswer,
  MAX_REPORTED_PROBLEMS,
  ProblemList,
  type Problem,
} from './problems.js';
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
export type { CompactableLine, CompactCartLine, CompactLine } from './evaluate/compact-line.js';
export type * from './types.js';
