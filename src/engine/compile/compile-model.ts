import type { ConsistencyForm } from '../consistency/form.js';
import { compileConsistency, formFitsModel } from '../consistency/compile.js';
import { deserializeConsistency } from '../consistency/serialize.js';
import type { Expression } from '../cel/expression.js';
import type { EngineLimits } from '../limits.js';
import type { CompiledModel } from '../model.js';
import type { ModelCore } from '../model-core.js';
import { ProblemList } from '../problems.js';
import type { Result } from '../result.js';
import type { ValidatedModel } from '../validate/validate-model.js';
import { compactModel } from './compact.js';
import { optionPriceTables, priceBom } from './prices.js';

export interface CompileOptions {
  /**
   * A consistency form stored with the version (bytes from serializeConsistency, or
   * the form itself): reused instead of recompiling when it was built by this engine
   * version for this model.
   */
  consistency?: Uint8Array | ConsistencyForm;
  /**
   * false: no decision diagram, the form a model past the diagram's budget gets (its
   * decision-DNNF, else propagation; consistency/compile.ts `CompileChoice`).
   */
  diagram?: boolean;
}

/** Parts named in the message of a conflict (each part is also the path of a problem). */
const CONFLICT_NAMED = 20;

/**
 * Compiles a validated model: prices and lookups precomputed, everything an evaluation
 * walks compacted, the consistency form compiled (or the stored one reused). Fails only
 * when the model has no valid configuration (`inconsistent_model`, one problem per part of
 * a minimal conflicting set); past the consistency budget it falls back to propagation.
 */
export function compileModel(
  validated: ValidatedModel,
  options: CompileOptions = {},
): Result<CompiledModel> {
  const { questions, pricing, limits } = validated;
  const model: ModelCore = {
    general: validated.general,
    imports: validated.imports,
    questions,
    questionIndex: validated.questionIndex,
    variables: validated.variables,
    rules: validated.rules,
    triggers: validated.triggers,
    bomItems: priceBom(validated.bomItems, pricing),
    pricing,
    images: validated.images,
    text: validated.text,
    valueOrder: validated.valueOrder,
    ...optionPriceTables(questions, pricing),
    optionConditions: questions.filter((question) =>
      question.options.some((option) => option.availableIf),
    ),
    costBudget: limits.evaluationCost,
    explanationWork: limits.explanationWork,
    extensions: validated.extensions,
  };
  const completeOf = (draft: Expression): Expression => {
    const expression = validated.complete.get(draft);
    if (expression === undefined) throw new Error(`no complete form of ${draft.path}`);
    return expression;
  };
  const core = compactModel(model, { complete: completeOf, setters: validated.setters });
  const consistency = attachConsistency(core, limits, options);
  if (consistency.conflict.length > 0) {
    const problems = new ProblemList();
    const named = consistency.conflict.slice(0, CONFLICT_NAMED);
    const more = consistency.conflict.length - named.length;
    const message = `the model has no valid configuration: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''} conflict`;
    for (const source of consistency.conflict) problems.add('inconsistent_model', message, source);
    return { ok: false, problems: problems.items };
  }
  return { ok: true, value: { ...core, consistency } };
}

/** The stored form when it fits this model and engine version, else a fresh compile. */
function attachConsistency(
  core: ModelCore,
  limits: EngineLimits,
  { consistency: stored, diagram }: CompileOptions,
): ConsistencyForm {
  const form = stored instanceof Uint8Array ? deserializeConsistency(stored) : stored;
  if (form !== undefined && formFitsModel(form, core)) return form;
  return compileConsistency(core, limits, { diagram });
}
