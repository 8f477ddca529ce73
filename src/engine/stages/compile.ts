/**
 * Stage 2 of 3 (docs/ENGINE.md "Stages"): a ValidatedModel → a CompiledModel. Fails only
 * on an inconsistent model (`inconsistent_model`); past a budget it falls back instead.
 */
import { compileModel, type CompileOptions } from '../compile/compile-model.js';
import type { EngineLimits } from '../limits.js';
import type { CompiledModel } from '../model.js';
import type { Problem } from '../problems.js';
import { validateModel } from '../validate/validate-model.js';

export { compileModel, type CompileOptions };
export type { CompiledModel };

export type CompileResult = { ok: true; model: CompiledModel } | { ok: false; problems: Problem[] };

/**
 * The first two stages in one call, for callers that hold a document and want a model
 * (uploads, stored versions, the CLI, tests): validateModel, then compileModel.
 */
export function compileDocument(
  document: unknown,
  limits?: Partial<EngineLimits>,
  options: CompileOptions = {},
): CompileResult {
  const validated = validateModel(document, limits);
  if (!validated.ok) return validated;
  const compiled = compileModel(validated.value, options);
  return compiled.ok ? { ok: true, model: compiled.value } : compiled;
}
