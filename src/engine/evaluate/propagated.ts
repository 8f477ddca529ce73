import type { ConsistencyForm } from '../consistency/form.js';
import { propagatorOf } from '../consistency/prepared.js';
import { domainProduct, type Propagator } from '../consistency/propagate.js';
import { quickXplain } from '../consistency/quickxplain.js';
import { freeAssignment } from '../consistency/query.js';
import { CompletionSearch } from '../consistency/search.js';
import { charge, type Work } from '../consistency/work.js';
import type { CompiledModel } from '../model.js';
import { type AnswerUnit, restrict } from './answer-units.js';
import { confirmSupport, unconfirmedPaths } from './confirmed.js';
import {
  type AnswersToExplain,
  excludingTables,
  optionAvailability,
  type OptionValue,
  pairConflict,
  unitsByQuestion,
} from './option-availability.js';
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
 */

/**
 * The check of the answers by propagation, then by a completion search within its budget
 * (search.ts): false only when they are proven to have no completion. Each check writes
 * its restrictions into one buffer (no array per check).
 */
export function propagatedCheck(form: ConsistencyForm): (set: readonly AnswerUnit[]) => boolean {
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

/** `check()`, its propagation charged to the budget (part nodes revised). */
function charged<T>(propagator: Propagator, work: Work, check: () => T): T {
  const before = propagator.revised;
  try {
    return check();
  } finally {
    charge(work, propagator.revised - before);
  }
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

interface Explaining extends AnswersToExplain {
  readonly propagator: Propagator;
  /** Refutes what propagation keeps (an option the search proved has no completion). */
  readonly search: CompletionSearch;
  /** Per value: kept by propagation (before the search), so explained with the search. */
  readonly byPropagation: Uint8Array;
  /** All free but the option being explained (restored after each). */
  readonly withOption: Int32Array;
  /** The restrictions of one check. */
  readonly scratch: Int32Array;
  readonly work: Work;
}

/**
 * Without a search: [] when propagation excludes the value with nothing answered, one
 * excluding table's answer, or one answer propagation removes once the value is fixed
 * (the pairwise row, cached by the propagator); else null.
 */
function quickExplanation(
  { model, mentions, propagator, units, unitOf, values, work }: Explaining,
  { question, layer, value }: OptionValue,
  localReasons: readonly string[] | undefined,
): readonly string[] | null {
  const form = model.consistency;
  const alone = charged(propagator, work, () => propagator.pairwise(layer, value));
  if (alone === undefined) return []; // propagation excludes it with nothing answered
  const tables: AnswerUnit[][] = [];
  const single = excludingTables(model, mentions, question, localReasons, unitOf, values, tables);
  if (single !== undefined) return single;
  const { valueBase } = form;
  const compatible = (other: number, v: number): boolean => alone[valueBase[other] + v] === 1;
  return pairConflict(model, units, layer, compatible, work) ?? null;
}

/**
 * A set of the user's other answers that, with this value, propagation refutes (minimal for
 * it), or, for a value only the completion search refutes, that the search refutes.
 */
function searchExplanation(
  context: Explaining,
  { question, layer, value }: OptionValue,
  localReasons: readonly string[] | undefined,
): readonly string[] {
  const { model, mentions, propagator, search, units, unitOf, values, withOption, scratch, work } =
    context;
  const form = model.consistency;
  const refutedBySearch = context.byPropagation[form.valueBase[layer] + value] === 1;
  const tables: AnswerUnit[][] = [];
  excludingTables(model, mentions, question, localReasons, unitOf, values, tables);
  const keysOf = (found: AnswerUnit[] | undefined): string[] =>
    (found ?? []).map((unit) => model.questions[unit.question].key);
  withOption[layer] = value;
  try {
    // The option's own layer is written last: a candidate never overrides it.
    const consistentWith = (set: readonly AnswerUnit[]): boolean => {
      restrict(form, set, withOption, scratch)[layer] = value;
      // Refuted by propagation: minimal for it (each check a fixpoint). Refuted only by the
      // search: the search decides, as propagation keeps every set with it.
      return charged(
        propagator,
        work,
        () =>
          propagator.closure(scratch) !== undefined &&
          (!refutedBySearch || search.find(scratch) !== 'none'),
      );
    };
    for (const columns of tables) {
      const found = quickXplain(columns, consistentWith);
      if (found !== undefined && found.length > 0) return keysOf(found);
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
    // All of them conflict with it (propagation or the search refuted it): when the search's
    // budget is spent before it can say so again, they are the explanation (not minimal).
    return keysOf(quickXplain(candidates, consistentWith) ?? candidates);
  } finally {
    withOption[layer] = -1;
  }
}
