import { describeModel, evaluate, type CompiledModel } from '../../engine/index.js';

/**
 * The views evaluated: each view once, then the full view again, since a second and third
 * evaluation of a large model still ran several times slower than the next ones (the
 * 268-question car: 130, 9, 4 ms, then 2–4 ms).
 */
const WARM_UP_VIEWS = ['full', 'compact', 'full', 'full'] as const;

/**
 * A version just adopted, made ready for its first buyer (docs/adr/0197): what a first
 * evaluation builds once and keeps on the model (the consistency form's prepared
 * structures, derived indexes) and the code paths the JIT compiles are built here, by
 * its description and the empty configuration in both views (what a configure page asks
 * first), before the upload is answered, rather than on the first buyer's click. What
 * they answer is thrown away.
 */
export function warmUp(
  model: CompiledModel,
  version: { readonly modelId: number; readonly versionNumber: number },
): void {
  const { modelId, versionNumber } = version;
  describeModel(model, null);
  for (const view of WARM_UP_VIEWS)
    evaluate(model, { modelId, versionNumber, questions: {}, languageCode: null, view });
}
