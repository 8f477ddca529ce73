import type { ConsistencyForm } from '../consistency/form.js';
import { domainProduct, type Propagator, propagatorOf } from '../consistency/propagate.js';
import { quickXplain } from '../consistency/quickxplain.js';
import type { CompiledModel, CompiledQuestion } from '../model.js';
import { type AnswerUnit, restrict } from './answer-units.js';
import {
  diagramSources,
  explainRules,
  isUnconditionalTable,
  ruleQuestions,
} from './rule-mentions.js';
import type { EvaluationState } from './state.js';

/**
 * Past the compile budget (MODEL_FORMAT.md "Consistency": `exact: false`): the steps of
 * consistency.ts with generalized arc consistency (propagate.ts) in place of the
 * diagram. Sound: an option reported unavailable has no valid completion, `conflict`
 * errors and suppressed soft values are proven; an available option may still have
 * none when rules interact in a cycle. Never weaker than checking one table or rule
 * at a time, and exact on a single table. `conflicts_with` is minimal with respect
 * to propagation: propagation refutes the set with the option, and without any one
 * of its answers it does not.
 */

/** The check of the answers by propagation: false only when they have no completion. */
export function propagatedCheck(form: ConsistencyForm): (set: readonly AnswerUnit[]) => boolean {
  const propagator = propagatorOf(form);
  return (set) => propagator.closure(restrict(form, set)) !== undefined;
}

/**
 * Step 3 past the budget: an option (a boolean or integer value too, see
 * `state.valueSupport`) is available when propagation keeps it with the user's other
 * answers (its own question's answer left out, as with the diagram); an unavailable
 * one keeps its local reasons or the rules naming its question, and gets
 * `conflicts_with`. `consistency.configurations` is the product of the propagated
 * domains: an upper bound ('0' when propagation refutes the answers).
 */
export function propagatedAvailability(
  model: CompiledModel,
  state: EvaluationState,
  units: readonly AnswerUnit[],
): void {
  const form = model.consistency;
  const propagator = propagatorOf(form);
  const fixed = restrict(form, units);
  const full = propagator.closure(fixed);
  const supported = supportedValues(form, propagator, fixed, full);
  state.valueSupport = supported;
  state.consistency = {
    exact: false,
    ...(form.reason === undefined ? {} : { reason: form.reason }),
    configurations: domainProduct(form, full),
  };
  if (full === undefined) state.answerReasons = [...state.unavailableBecause];
  const unitOf = new Array<AnswerUnit | undefined>(model.questions.length);
  for (const unit of units) unitOf[unit.question] = unit;
  const propagated = diagramSources(model);
  const explain: Explainer = { model, propagator, units, unitOf, values: state.values };
  for (const question of model.questions) {
    if (question.type !== 'choice' && question.type !== 'multi_choice') continue;
    const first = form.firstLayer[question.index];
    if (first < 0) continue;
    const options = question.options;
    const local = state.unavailableBecause[question.index];
    let reasons: Array<readonly string[] | undefined> | undefined;
    let conflicts: Array<readonly string[] | undefined> | undefined;
    for (let o = 0; o < options.length; o++) {
      const layer = question.type === 'choice' ? first : first + o;
      const value = question.type === 'choice' ? o + 1 : 1;
      const localReasons = local?.[o];
      if (supported[form.valueBase[layer] + value] === 1) {
        // Reasons from parts that are not propagated (not finite, past the bounds) still hold.
        const outside = localReasons?.filter((key) => !propagated.has(sourceOf(question, key)));
        if (outside !== undefined && outside.length > 0)
          (reasons ??= new Array(options.length))[o] = outside;
        continue;
      }
      const option = { question: question.index, layers: [layer], values: [value] };
      const conflict = explainOption(explain, localReasons, option);
      (conflicts ??= new Array(options.length))[o] = conflict;
      (reasons ??= new Array(options.length))[o] =
        localReasons !== undefined && localReasons.length > 0
          ? localReasons
          : explainRules(model, question.index, conflict);
    }
    state.unavailableBecause[question.index] = reasons;
    state.conflictsWith[question.index] = conflicts;
  }
}

/**
 * Per value: kept by propagation with the answers of the other layers (a layer's own
 * answer left out, one closure per answered layer; the rest read from `full`).
 */
function supportedValues(
  form: ConsistencyForm,
  propagator: Propagator,
  fixed: Int32Array,
  full: Uint8Array | undefined,
): Uint8Array {
  const { valueBase } = form;
  const supported =
    full === undefined ? new Uint8Array(valueBase[form.domain.length]) : full.slice();
  for (let layer = 0; layer < fixed.length; layer++) {
    const answer = fixed[layer];
    if (answer < 0) continue;
    fixed[layer] = -1;
    const without = propagator.closure(fixed);
    fixed[layer] = answer;
    const from = valueBase[layer];
    const to = valueBase[layer + 1];
    if (without === undefined) supported.fill(0, from, to);
    else supported.set(without.subarray(from, to), from);
  }
  return supported;
}

interface Explainer {
  readonly model: CompiledModel;
  readonly propagator: Propagator;
  readonly units: readonly AnswerUnit[];
  readonly unitOf: ReadonlyArray<AnswerUnit | undefined>;
  readonly values: ReadonlyArray<unknown>;
}

/** A set of the user's other answers that, with this value, propagation refutes (minimal for it). */
function explainOption(
  { model, propagator, units, unitOf, values }: Explainer,
  localReasons: readonly string[] | undefined,
  option: AnswerUnit,
): string[] {
  const form = model.consistency;
  const { question } = option;
  const layer = option.layers[0];
  const value = option.values[0];
  const alone = propagator.pairwise(layer, value);
  if (alone === undefined) return []; // propagation excludes it with nothing answered
  const consistentWith = (set: readonly AnswerUnit[]): boolean =>
    propagator.closure(restrict(form, [...set, option])) !== undefined;
  // A table that always applies and excludes it with the answers of its other columns.
  const tables: AnswerUnit[][] = [];
  for (const reason of localReasons ?? []) {
    if (!isUnconditionalTable(model, reason)) continue;
    const others = ruleQuestions(model, reason).filter((q) => q !== question);
    if (others.some((q) => values[q] !== null && unitOf[q] === undefined)) continue;
    const columns = others
      .map((q) => unitOf[q])
      .filter((unit): unit is AnswerUnit => unit !== undefined);
    if (columns.length === 1) return [model.questions[columns[0].question].key];
    if (columns.length > 1) tables.push(columns);
  }
  // One answer that propagation removes once this value is fixed (cached per value).
  for (const unit of units) {
    if (unit.layers.length === 1 && unit.layers[0] !== layer) {
      if (alone[form.valueBase[unit.layers[0]] + unit.values[0]] === 0)
        return [model.questions[unit.question].key];
    }
  }
  for (const columns of tables) {
    const found = quickXplain(columns, consistentWith);
    if (found !== undefined && found.length > 0)
      return found.map((unit) => model.questions[unit.question].key);
  }
  const candidates: AnswerUnit[] = [];
  for (const unit of units) {
    if (unit.question !== question) {
      candidates.push(unit);
      continue;
    }
    // A multi_choice's other selections are part of the conflict (max_selected…).
    const layers = unit.layers.filter((other) => other !== layer);
    if (layers.length > 0) candidates.push({ question, layers, values: layers.map(() => 1) });
  }
  const found = quickXplain(candidates, consistentWith);
  return (found ?? []).map((unit) => model.questions[unit.question].key);
}

/** `rules.<key>` for a rule reason, `questions.<q>.options.<o>` for an option's own key. */
function sourceOf(question: CompiledQuestion, reason: string): string {
  return question.optionIndex.has(reason)
    ? `questions.${question.key}.options.${reason}`
    : `rules.${reason}`;
}
