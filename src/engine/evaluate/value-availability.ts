import type { CompiledModel, CompiledQuestion } from '../model.js';
import { empty } from './empty.js';
import type { EvaluationState } from './state.js';

/**
 * The values of a boolean or finite integer question that have no valid completion
 * with the user's other answers (docs/model-format.md "Consistency": "an option o of
 * question Q (a value, for boolean and integer)"), ascending; undefined for a
 * question without a finite domain. Read from the same per-value support as options
 * (exact with the diagram, by propagation past the budget). Listed as the
 * *unavailable* ones: usually none, where a list of available integers would repeat
 * up to 1,000 values in every line.
 */
export function unavailableValues(
  model: CompiledModel,
  state: EvaluationState,
  question: CompiledQuestion,
): Array<boolean | number> | undefined {
  if (question.type !== 'boolean' && question.type !== 'integer') return undefined;
  const form = model.consistency;
  const support = state.valueSupport;
  const first = form.firstLayer[question.index];
  if (support === undefined || first < 0) return undefined;
  const base = form.valueBase[first];
  const min = question.min ?? 0;
  const step = question.step ?? 1;
  let list: Array<boolean | number> | undefined;
  for (let v = 1; v < form.domain[first]; v++) {
    if (support[base + v] === 1) continue;
    (list ??= []).push(question.type === 'boolean' ? v === 2 : min + (v - 1) * step);
  }
  return list ?? empty<boolean | number>();
}

/**
 * A finite integer question's admissible values given the user's other answers
 * (docs/model-format.md "Guided configuration"): the supported values as closed intervals
 * in the question's units, consecutive values (one step apart) merged; [] when none.
 * Undefined for other questions.
 */
export function allowedValues(
  model: CompiledModel,
  state: EvaluationState,
  question: CompiledQuestion,
): Array<[number, number]> | undefined {
  if (question.type !== 'integer') return undefined;
  const form = model.consistency;
  const support = state.valueSupport;
  const first = form.firstLayer[question.index];
  if (support === undefined || first < 0) return undefined;
  const base = form.valueBase[first];
  const min = question.min ?? 0;
  const step = question.step ?? 1;
  const intervals: Array<[number, number]> = [];
  let open: [number, number] | undefined;
  for (let v = 1; v < form.domain[first]; v++) {
    const value = min + (v - 1) * step;
    if (support[base + v] !== 1) open = undefined;
    else if (open !== undefined) open[1] = value;
    else intervals.push((open = [value, value]));
  }
  return intervals;
}
