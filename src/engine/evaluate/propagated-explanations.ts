import { quickXplain } from '../consistency/quickxplain.js';
import type { CompletionSearch } from '../consistency/search.js';
import { charge, type Work } from '../consistency/work.js';
import { type AnswerUnit, restrict } from './answer-units.js';
import {
  type AnswersToExplain,
  excludingTables,
  type OptionValue,
  pairConflict,
} from './option-availability.js';

/**
 * Explanations past the compile budget (propagated.ts): `conflicts_with` of an option by
 * the form's checker, its propagator or, when the form has one, its decision-DNNF
 * (exact: then every explanation is minimal).
 */

/** What the explanations check with: the closure of restrictions, and its work so far. */
export interface Checker {
  closure(fixed: Int32Array): Uint8Array | undefined;
  pairwise(layer: number, value: number): Uint8Array | undefined;
  readonly revised: number;
}

/** `check()`, its work charged to the budget (part nodes revised, or DNNF edges examined). */
export function charged<T>(propagator: Checker, work: Work, check: () => T): T {
  const before = propagator.revised;
  try {
    return check();
  } finally {
    charge(work, propagator.revised - before);
  }
}

export interface Explaining extends AnswersToExplain {
  readonly propagator: Checker;
  /** Refutes what propagation keeps (an option the search proved has no completion); none when exact. */
  readonly search: CompletionSearch | undefined;
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
export function quickExplanation(
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
export function searchExplanation(
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
          (!refutedBySearch || search?.find(scratch) !== 'none'),
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
