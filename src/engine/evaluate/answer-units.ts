import type { ConsistencyForm } from '../consistency/form.js';
import { domainIndex } from '../consistency/domains.js';
import { freeAssignment } from '../consistency/query.js';
import type { CelValue, CompiledModel, CompiledQuestion } from '../model.js';
import type { EvaluationState } from './state.js';

/** One answer as diagram restrictions: `values[i]` for layer `layers[i]`. */
export interface AnswerUnit {
  readonly question: number;
  readonly layers: readonly number[];
  readonly values: readonly number[];
}

/**
 * The effective values of visible finite questions as restrictions (a multi_choice:
 * its selected options), the user's answers and the soft values (defaults, trigger
 * values) apart, in value order; one pass for both. A value outside the finite domain
 * (an integer off range or step: already an error) restricts nothing.
 */
export function answerUnits(
  model: CompiledModel,
  state: EvaluationState,
): { user: AnswerUnit[]; soft: AnswerUnit[] } {
  const form = model.consistency;
  const user: AnswerUnit[] = [];
  const soft: AnswerUnit[] = [];
  const { valueOrder } = model;
  const questions = model.questions.length;
  for (let i = 0; i < valueOrder.length; i++) {
    const q = valueOrder[i];
    if (q >= questions) continue;
    const value = state.values[q];
    if (value === null || !state.visible[q]) continue;
    const source = state.sources[q];
    const into =
      source === 'user' ? user : source === 'default' || source === 'trigger' ? soft : undefined;
    const first = form.firstLayer[q];
    if (into === undefined || first < 0) continue;
    const unit = toUnit(form, model.questions[q], first, value);
    if (unit !== undefined) into.push(unit);
  }
  return { user, soft };
}

function toUnit(
  form: ConsistencyForm,
  question: CompiledQuestion,
  first: number,
  value: CelValue,
): AnswerUnit | undefined {
  const q = question.index;
  if (question.type === 'multi_choice') {
    // The selected options are the answer; the others are still open (the user may
    // add to the selection), so they restrict nothing.
    const layers: number[] = [];
    const values: number[] = [];
    for (const key of value as string[]) {
      layers.push(first + (question.optionIndex.get(key) as number));
      values.push(1);
    }
    return { question: q, layers, values };
  }
  const index = domainIndex(question, value);
  if (index <= 0 || index >= form.domain[first]) return undefined;
  return { question: q, layers: [first], values: [index] };
}

/**
 * The restriction array of a set of units: every other layer free, or as in `base`
 * (written into `into` when given, to reuse one buffer across many checks).
 */
export function restrict(
  form: ConsistencyForm,
  units: readonly AnswerUnit[],
  base?: Int32Array,
  into?: Int32Array,
): Int32Array {
  let fixed: Int32Array;
  if (into !== undefined) {
    fixed = into;
    if (base === undefined) fixed.fill(-1);
    else fixed.set(base);
  } else fixed = base === undefined ? freeAssignment(form) : base.slice();
  for (const unit of units)
    for (let i = 0; i < unit.layers.length; i++) fixed[unit.layers[i]] = unit.values[i];
  return fixed;
}
