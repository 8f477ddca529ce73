/**
 * Stage 3 of 3 (docs/ENGINE.md "Stages"): a CompiledModel and a request (answers,
 * language, view) → an Evaluation (valid, errors, warnings, the cart line). Never throws
 * for bad answers: they are problems in the evaluation.
 */
import { evaluateConfiguration } from '../evaluate/evaluate.js';

export type { Evaluation, EvaluationRequest } from '../types.js';

/** evaluate/evaluate.ts's evaluateConfiguration, with its overloads (compact or full view). */
export const evaluate: typeof evaluateConfiguration = evaluateConfiguration;

/**
 * `complete: 'cheapest'`'s completion on its own, for a caller that holds the evaluated
 * line already (a line moved to a version): it need not evaluate the same answers again.
 */
export { cheapestCompletion, effectiveAnswers } from '../evaluate/completion.js';
