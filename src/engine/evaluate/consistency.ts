import {
  compatibleWith,
  freeAssignment,
  isConsistent,
  liveValues,
  supports,
} from '../consistency/query.js';
import { explainConflict } from '../consistency/explain.js';
import { quickXplain } from '../consistency/quickxplain.js';
import type { CompiledModel } from '../model.js';
import { type AnswerUnit, answerUnits, restrict } from './answer-units.js';
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
import { propagatedCheck } from './propagated.js';
import { computeValues } from './values.js';

/** The user's answers as diagram restrictions, once per evaluation. */
export interface Settled {
  readonly units: AnswerUnit[];
  /** `restrict(form, units)`. */
  readonly fixed: Int32Array;
}

/**
 * After the value phase (docs/model-format.md "Consistency: no dead ends"): the user's
 * answers that already conflict are kept as a minimal conflicting set (`state.conflict`,
 * reported by conflict-report.ts); otherwise soft values (defaults, trigger values) that would leave
 * no valid completion are left out (`suppressed`) and the values recomputed. Returns
 * the user's answers (as diagram restrictions too when the model has a diagram).
 */
export function settleConsistency(model: CompiledModel, state: EvaluationState): Settled {
  const form = model.consistency;
  // Past the compile budget: the same steps, with propagation as the check (sound:
  // what it refutes has no completion; see propagated.ts).
  const propagated = form.compiled ? undefined : propagatedCheck(form);
  const scratch = form.compiled ? freeAssignment(form) : NO_LAYERS;
  let { user: units, soft } = answerUnits(model, state);
  let fixed = form.compiled ? restrict(form, units) : NO_LAYERS;
  /** The user's answers with these soft values have a completion. */
  const fits = (added: readonly AnswerUnit[]): boolean =>
    propagated === undefined
      ? isConsistent(form, restrict(form, added, fixed, scratch))
      : propagated([...units, ...added]);
  if (!fits([])) {
    state.conflict = minimalConflict(model, units, propagated);
    return { units, fixed };
  }
  // Each round suppresses a (question, source) pair for good (its triggers, then its
  // default), so there are at most two rounds per finite question; the value phase
  // charges its cost once however many rounds run (EvaluationState.startValuePhase).
  for (let round = 0; round < 2 * model.questions.length; round++) {
    if (soft.length === 0 || fits(soft)) break;
    // The first soft value (in value order) after which no completion is left.
    let kept = 0;
    let breaks = soft.length;
    while (breaks - kept > 1) {
      const middle = (kept + breaks) >> 1;
      if (fits(soft.slice(0, middle))) kept = middle;
      else breaks = middle;
    }
    suppress(model, state, soft[breaks - 1].question);
    computeValues(model, state);
    ({ user: units, soft } = answerUnits(model, state));
    if (form.compiled) fixed = restrict(form, units);
    // Without the soft value, visibility may differ: a user answer it hid counts again,
    // and the user's answers may now conflict among themselves.
    if (!fits([])) {
      state.conflict = minimalConflict(model, units, propagated);
      break;
    }
  }
  return { units, fixed };
}

const NO_LAYERS = new Int32Array(0);

function suppress(model: CompiledModel, state: EvaluationState, q: number): void {
  const list = (state.suppressed[q] ??= []);
  if (state.sources[q] === 'trigger') {
    state.suppressTriggers[q] = 1;
    for (const t of model.questions[q].triggers)
      if (state.triggerFired[t]) list.push(model.triggers[t].key);
  } else {
    state.suppressDefault[q] = 1;
    list.push('default');
  }
}

function minimalConflict(
  model: CompiledModel,
  units: AnswerUnit[],
  propagated: ((set: readonly AnswerUnit[]) => boolean) | undefined,
): string[] {
  const keyOf = (unit: AnswerUnit): string => model.questions[unit.question].key;
  if (propagated !== undefined) return (quickXplain(units, propagated) ?? units).map(keyOf);
  const found = explainConflict(model.consistency, units, freeAssignment(model.consistency));
  return found === undefined ? units.map(keyOf) : found.map((c) => keyOf(units[c]));
}

/**
 * Step 3 with a diagram (option-availability.ts): exact support, `conflicts_with` a
 * minimal set of the user's other answers (explainOption).
 */
export function exactAvailability(
  model: CompiledModel,
  state: EvaluationState,
  { units, fixed }: Settled,
): void {
  const form = model.consistency;
  const domains = supports(form, fixed);
  const { supported, consistent } = domains;
  state.valueSupport = supported;
  state.consistency = {
    exact: form.exact,
    ...(form.reason === undefined ? {} : { reason: form.reason }),
    configurations: domains.configurations(),
  };
  if (!consistent) state.answerReasons = [...state.unavailableBecause];
  const mentions = mentionsOf(model);
  const context: Explaining = {
    model,
    mentions,
    units,
    unitOf: unitsByQuestion(model, units),
    values: state.values,
    scratch: freeAssignment(form),
    consistent,
  };
  optionAvailability(context, state, supported, (option, localReasons) =>
    explainOption(context, option, localReasons),
  );
}

interface Explaining extends AnswersToExplain {
  /** All free; each explanation restores it. */
  readonly scratch: Int32Array;
  /** The user's answers have a completion (then a conflict lies in the option's segment). */
  readonly consistent: boolean;
}

function keysOf(
  model: CompiledModel,
  list: readonly AnswerUnit[],
  found: readonly number[] | undefined,
): string[] {
  return (found ?? []).map((c) => model.questions[list[c].question].key);
}

/**
 * A minimal set of the user's other answers that, with this value, has no completion:
 * [] when the model alone excludes it; the one answered column of an excluding table;
 * one answer the pairwise relation excludes; else QuickXplain over an excluding
 * table's answered columns, then over every answer.
 */
function explainOption(
  { model, mentions, units, unitOf, values, scratch, consistent }: Explaining,
  { question, layer, value }: OptionValue,
  localReasons: readonly string[] | undefined,
): readonly string[] {
  const form = model.consistency;
  if (liveValues(form)[form.valueBase[layer] + value] === 0) return [];
  const tables: AnswerUnit[][] = [];
  const single = excludingTables(model, mentions, question, localReasons, unitOf, values, tables);
  if (single !== undefined) return single;
  // Else often pairwise: one answer that has no completion with this value (cached rows).
  const pair = pairConflict(model, units, layer, compatibleWith(form, layer, value));
  if (pair !== undefined) return pair;
  // No single answer excludes it: two answered columns of a table that excludes it are
  // a minimal conflict as they are (no check needed); more, a few checks. With
  // consistent answers the conflict lies in the option's own segment (segments.ts).
  const focus = consistent ? layer : -1;
  scratch[layer] = value;
  try {
    for (const columns of tables) {
      if (columns.length === 2) return keysOf(model, columns, [0, 1]);
      const found = explainConflict(form, columns, scratch, { keep: layer, known: true, focus });
      if (found !== undefined && found.length > 0) return keysOf(model, columns, found);
    }
    // Every answer (the option's own layer left out: a multi_choice's other selections stay).
    // Known: the value is live and unsupported with every answer.
    const known = units.length > 0;
    return keysOf(
      model,
      units,
      explainConflict(form, units, scratch, { keep: layer, known, focus }),
    );
  } finally {
    scratch[layer] = -1;
  }
}
