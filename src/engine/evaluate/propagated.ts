import type { DnnfQueries } from '../consistency/dnnf-query.js';
import type { ConsistencyForm } from '../consistency/form.js';
import { prepareForm, propagatorOf } from '../consistency/prepared.js';
import { domainProduct, type Propagator } from '../consistency/propagate.js';
import { freeAssignment } from '../consistency/query.js';
import { CompletionSearch } from '../consistency/search.js';
import type { Work } from '../consistency/work.js';
import type { CompiledModel } from '../model.js';
import { type AnswerUnit, restrict } from './answer-units.js';
import { confirmSupport, unconfirmedPaths } from './confirmed.js';
import { optionAvailability, unitsByQuestion } from './option-availability.js';
import { type Explaining, quickExplanation, searchExplanation } from './propagated-explanations.js';
import { mentionsOf } from './rule-mentions.js';
import type { EvaluationState } from './state.js';

/**
 * Past the compile budget (docs/model-format.md "Consistency": `exact: false`): the steps of
 * consistency.ts with generalized arc consistency (propagate.ts) in place of the
 * diagram, then a completion search within a budget (search.ts, confirmed.ts; ADR 0120).
 * An option reported unavailable has no valid completion, `conflict` errors and
 * suppressed soft values are proven; an option reported available has a completion
 * unless it is listed in `consistency.unconfirmed` (the search's budget ran out).
 * `conflicts_with` of an option propagation refutes is minimal with respect to
 * propagation; of one only the search refutes, minimal (the search as the oracle).
 *
 * A form whose finite part compiled into a decision-DNNF (dnnf-exact.ts, docs/adr/0193)
 * takes the same steps with the DNNF as the check: exact, so no search, every option
 * confirmed, the count exact and every `conflicts_with` minimal.
 */

/**
 * The check of the answers by propagation, then by a completion search within its budget
 * (search.ts): false only when they are proven to have no completion. Each check writes
 * its restrictions into one buffer (no array per check).
 */
export function propagatedCheck(form: ConsistencyForm): (set: readonly AnswerUnit[]) => boolean {
  const { dnnf } = prepareForm(form);
  if (dnnf !== undefined) {
    const buffer = freeAssignment(form);
    return (set) => dnnf.consistent(restrict(form, set, undefined, buffer));
  }
  const propagator = propagatorOf(form);
  const search = new CompletionSearch(form, propagator);
  const scratch = freeAssignment(form);
  return (set) => {
    const fixed = restrict(form, set, undefined, scratch);
    return propagator.closure(fixed) !== undefined && search.find(fixed) !== 'none';
  };
}

/**
 * Step 3 past the budget (option-availability.ts): an option (a boolean or integer
 * value too, see `state.valueSupport`) is available when propagation keeps it with the
 * user's other answers (its own question's answer left out, as with the diagram), and
 * gets `conflicts_with` minimal for propagation. `consistency.configurations` is null
 * and `configurations_at_most` the product of the propagated domains: an upper bound ('0'
 * when propagation refutes the answers), never reported as the count.
 */
export function propagatedAvailability(
  model: CompiledModel,
  state: EvaluationState,
  units: readonly AnswerUnit[],
  work: Work,
): void {
  const form = model.consistency;
  const { dnnf } = prepareForm(form);
  if (dnnf !== undefined) {
    dnnfAvailability(model, state, units, work, dnnf);
    return;
  }
  const propagator = propagatorOf(form);
  const fixed = restrict(form, units);
  const full = propagator.closure(fixed);
  const { supported, withoutAnswer } = supportedValues(form, propagator, fixed, full);
  const byPropagation = supported.slice();
  const search = new CompletionSearch(form, propagator);
  const closures = { full, withoutAnswer };
  const unconfirmed = unconfirmedPaths(
    model,
    confirmSupport(form, search, fixed, supported, closures),
  );
  state.valueSupport = supported;
  state.consistency = {
    exact: false,
    ...(form.reason === undefined ? {} : { reason: form.reason }),
    configurations: null,
    configurations_at_most: domainProduct(form, full),
    ...(unconfirmed.length === 0 ? {} : { unconfirmed }),
  };
  if (full === undefined) state.answerReasons = [...state.unavailableBecause];
  explainOptions(model, state, units, work, propagator, search, byPropagation);
}

/**
 * With the form's decision-DNNF: one pass gives every value's support with the other
 * layers' answers (dnnf-query.ts), a second the exact count.
 */
function dnnfAvailability(
  model: CompiledModel,
  state: EvaluationState,
  units: readonly AnswerUnit[],
  work: Work,
  dnnf: DnnfQueries,
): void {
  const form = model.consistency;
  const fixed = restrict(form, units);
  const { consistent, supported } = dnnf.supports(fixed);
  state.valueSupport = supported;
  state.consistency = {
    exact: form.exact,
    ...(form.reason === undefined ? {} : { reason: form.reason }),
    configurations: consistent ? String(dnnf.configurations(fixed)) : '0',
  };
  if (!consistent) state.answerReasons = [...state.unavailableBecause];
  explainOptions(model, state, units, work, dnnf, undefined, supported);
}

/** The options' `conflicts_with` (option-availability.ts), by the checker's closures. */
function explainOptions(
  model: CompiledModel,
  state: EvaluationState,
  units: readonly AnswerUnit[],
  work: Work,
  propagator: Explaining['propagator'],
  search: CompletionSearch | undefined,
  byPropagation: Uint8Array,
): void {
  const form = model.consistency;
  const supported = state.valueSupport as Uint8Array;
  const context: Explaining = {
    model,
    mentions: mentionsOf(model),
    propagator,
    search,
    byPropagation,
    units,
    unitOf: unitsByQuestion(model, units),
    values: state.values,
    withOption: freeAssignment(form),
    scratch: freeAssignment(form),
    work,
  };
  optionAvailability(
    context,
    state,
    supported,
    {
      quick: (option, localReasons) => quickExplanation(context, option, localReasons),
      search: (option, localReasons) => searchExplanation(context, option, localReasons),
    },
    work,
  );
}

/**
 * Per value: kept by propagation with the answers of the other layers (a layer's own
 * answer left out, one closure per answered layer; the rest read from `full`). The
 * closures are returned too: the completion search starts from them (confirmed.ts).
 */
function supportedValues(
  form: ConsistencyForm,
  propagator: Propagator,
  fixed: Int32Array,
  full: Uint8Array | undefined,
): { supported: Uint8Array; withoutAnswer: Map<number, Uint8Array | undefined> } {
  const { valueBase } = form;
  const supported =
    full === undefined ? new Uint8Array(valueBase[form.domain.length]) : full.slice();
  const withoutAnswer = new Map<number, Uint8Array | undefined>();
  for (let layer = 0; layer < fixed.length; layer++) {
    const answer = fixed[layer];
    if (answer < 0) continue;
    fixed[layer] = -1;
    const without = propagator.closure(fixed);
    fixed[layer] = answer;
    withoutAnswer.set(layer, without);
    const from = valueBase[layer];
    const to = valueBase[layer + 1];
    if (without === undefined) supported.fill(0, from, to);
    else supported.set(without.subarray(from, to), from);
  }
  return { supported, withoutAnswer };
}
