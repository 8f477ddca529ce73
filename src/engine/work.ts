/**
 * The engine's entry for the code that runs engine work: the engine workers' tasks
 * (src/engine-runtime/tasks/) and the CLI's own process. Everything the main-thread entry
 * (./index.ts) exports, plus the three stages (docs/adr/0065)
 *
 *   validateModel(document, limits) → Result<ValidatedModel>
 *   compileModel(validated, options) → Result<CompiledModel>
 *   evaluate(compiled, request) → Evaluation (and cheapestCompletion, its completion alone)
 *
 * and what runs around them: reading model sources, describing a compiled model, the
 * compiled-model cache, transfer between threads and stored consistency forms. A separate
 * file because these values load all of the engine (docs/adr/0200): ESLint lets only the
 * workers' tasks and the CLI import it.
 */
export * from './index.js';
export { validateModel } from './stages/validate.js';
export { keyedProblems } from './validate/keyed-paths.js';
export { compileDocument, compileModel } from './stages/compile.js';
export { cheapestCompletion, effectiveAnswers, evaluate } from './stages/evaluate.js';
export { describeModel } from './describe.js';
export { importedModelIds, mergeImports, readModelSource } from './source/index.js';
export { CompiledModelCache } from './cache.js';
export { modelHeapBytes } from './heap-estimate.js';
export { reviveModel, toTransferable } from './transfer.js';
export { deserializeConsistency, serializeConsistency } from './consistency/serialize.js';
