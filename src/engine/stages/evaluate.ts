/**
 * Stage 3 of 3 (docs/ENGINE.md "Stages"): a CompiledModel and a request (answers,
 * language, view) → an Evaluation (valid, errors, warnings, the cart line). Never throws
 * for bad answers: they are problems in the evaluation.
 */
import { evaluateConfiguration } from '../evaluate/evaluate.js';

export type { Evaluation, EvaluationRequest } from '../types.js';

/** evaluate/evaluate.ts's evaluateConfiguration, with its overloads (compact or full view). */
export const evaluate: typeof evaluateConfiguration = evaluateConfiguration;
