import { compatible, freeAssignment, isConsistent, supports } from '../consistency/query.js';
import { explainConflict } from '../consistency/explain.js';
import type { Walked } from '../consistency/segment-cache.js';
import { TRUE } from '../consistency/mdd.js';
import { checkerOf, prepareForm } from '../consistency/prepared.js';
import { quickXplain } from '../consistency/quickxplain.js';
import { charge, withinBudget, type Work } from '../consistency/work.js';
import { DEFAULT_ENGINE_LIMITS } from '../limits.js';
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
  /** The explanation budget (EngineLimits.explanationWork) left for the options. */
  readonly work: Work;
}

/**
 * After the value phase (docs/model-format.md "Consistency: no dead ends"): the user's
 * answers that already conflict are kept as a minimal conflicting set (`state.conflict`,
 * reported by conflict-report.ts); otherwise soft values (defaults, trigger values) that would leave
 * no valid completion are left out (`suppressed`) and the values recomputed. Returns
 * the user's answers (as restrictions too when the model has a diagram or a decision-DNNF).
 */
export function settleConsistency(model: CompiledModel, state: EvaluationState): Settled {
  const form = model.consistency;
  // Past the compile budget: the same steps, with propagation as the check (sound:
  // what it refutes has no completion; see propagated.ts).
  const propagated = form.compiled ? undefined : propagatedCheck(form);
  const scratch = form.compiled ? freeAssignment(form) : NO_LAYERS;
  let { user: units, soft } = answerUnits(model, state);
  // The restrictions the weighted queries read (price bounds): over a diagram or a DNNF.
  const restricts = form.compiled || form.dnnf !== undefined;
  let fixed = restricts ? restrict(form, units) : NO_LAYERS;
  const work: Work = { left: model.explanationWork ?? DEFAULT_ENGINE_LIMITS.explanationWork };
  /** The user's answers with these soft values have a completion. */
  const fits = (added: readonly AnswerUnit[]): boolean =>
    propagated === undefined
      ? isConsistent(form, restrict(form, added, fixed, scratch))
      : propagated([...units, ...added]);
  if (!fits([])) {
    state.conflict = minimalConflict(model, units, propagated, work);
    return { units, fixed, work };
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
    if (restricts) fixed = restrict(form, units);
    // Without the soft value, visibility may differ: a user answer it hid counts again,
    // and the user's answers may now conflict among themselves.
    if (!fits([])) {
      state.conflict = minimalConflict(model, units, propagated, work);
      break;
    }
  }
  return { units, fixed, work };
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

/**
 * A minimal conflicting set of the user's answers, within the explanation budget; past
 * it, every answer (a conflicting set, not a minimal one).
 */
function minimalConflict(
  model: CompiledModel,
  units: AnswerUnit[],
  propagated: ((set: readonly AnswerUnit[]) => boolean) | undefined,
  work: Work,
): string[] {
  const keyOf = (unit: AnswerUnit): string => model.questions[unit.question].key;
  if (propagated !== undefined) {
    const form = model.consistency;
    const found = withinBudget(() =>
      quickXplain(units, (set) => {
        const checker = checkerOf(form);
        const before = checker.revised;
        const consistent = propagated(set);
        charge(work, checker.revised - before);
        return consistent;
      }),
    );
    return (found ?? units).map(keyOf);
  }
  const form = model.consistency;
  const found = withinBudget(() => explainConflict(form, units, freeAssignment(form), { work }));
  return found === undefined ? units.map(keyOf) : found.map((c) => keyOf(units[c]));
}

/**
 * Step 3 with a diagram (option-availability.ts): exact support, `conflicts_with` a
 * minimal set of the user's other answers (explainOption), within the budget. `known`:
 * the supported values and counts of the price bounds' walks (bounds-first.ts).
 */
export function exactAvailability(
  model: CompiledModel,
  state: EvaluationState,
  { units, fixed, work }: Settled,
  known?: Walked,
): void {
  const form = model.consistency;
  const domains = supports(form, fixed, known);
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
    work,
    bySegment: consistent ? unitsBySegment(model, units) : undefined,
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

interface Explaining extends AnswersToExplain {
  /** All free; each explanation restores it. */
  readonly scratch: Int32Array;
  /** The user's answers have a completion (then a conflict lies in the option's segment). */
  readonly consistent: boolean;
  readonly work: Work;
  /**
   * With consistent answers, per segment its single-layer answers: the only ones the
   * pairwise relation can find incompatible with a value of that segment (the others
   * are live, as every answer is, and in an independent segment).
   */
  readonly bySegment: ReadonlyArray<readonly AnswerUnit[] | undefined> | undefined;
}

function unitsBySegment(
  model: CompiledModel,
  units: readonly AnswerUnit[],
): Array<AnswerUnit[] | undefined> {
  const { ofLayer } = prepareForm(model.consistency).segments;
  const groups: Array<AnswerUnit[] | undefined> = [];
  for (const unit of units) {
    if (unit.layers.length !== 1) continue;
    const segment = ofLayer[unit.layers[0]];
    if (segment >= 0) (groups[segment] ??= []).push(unit);
  }
  return groups;
}

function keysOf(
  model: CompiledModel,
  list: readonly AnswerUnit[],
  found: readonly number[] | undefined,
): string[] {
  return (found ?? []).map((c) => model.questions[list[c].question].key);
}

/**
 * Without a search, a minimal set of the user's other answers that, with this value,
 * has no completion: [] when the model alone excludes it; the one answered column of an
 * excluding table; one answer the pairwise relation excludes (a lookup in the prepared
 * form, pairs.ts); two answered columns of the first excluding table (a minimal
 * conflict as they are). Else null: a search is needed.
 */
function quickExplanation(
  { model, mentions, units, unitOf, values, work, bySegment }: Explaining,
  { question, layer, value }: OptionValue,
  localReasons: readonly string[] | undefined,
): readonly string[] | null {
  const form = model.consistency;
  if (prepareForm(form).live[form.valueBase[layer] + value] === 0) return [];
  const tables: AnswerUnit[][] = [];
  const single = excludingTables(model, mentions, question, localReasons, unitOf, values, tables);
  if (single !== undefined) return single;
  const segment = form.root > TRUE ? prepareForm(form).segments.ofLayer[layer] : -1;
  const candidates =
    bySegment === undefined ? units : segment < 0 ? [] : (bySegment[segment] ?? []);
  const pair = pairConflict(
    model,
    candidates,
    layer,
    (otherLayer, other) => compatible(form, layer, value, otherLayer, other, work),
    work,
  );
  if (pair !== undefined) return pair;
  if (tables.length > 0 && tables[0].length === 2) return keysOf(model, tables[0], [0, 1]);
  return null;
}

/**
 * QuickXplain over an excluding table's answered columns, then over every answer. With
 * consistent answers the conflict lies in the option's own segment (segments.ts).
 */
function searchExplanation(
  { model, mentions, units, unitOf, values, scratch, consistent, work }: Explaining,
  { question, layer, value }: OptionValue,
  localReasons: readonly string[] | undefined,
): readonly string[] {
  const form = model.consistency;
  const tables: AnswerUnit[][] = [];
  excludingTables(model, mentions, question, localReasons, unitOf, values, tables);
  const focus = consistent ? layer : -1;
  scratch[layer] = value;
  try {
    for (const columns of tables) {
      if (columns.length === 2) return keysOf(model, columns, [0, 1]);
      const found = explainConflict(form, columns, scratch, {
        keep: layer,
        known: true,
        focus,
        work,
      });
      if (found !== undefined && found.length > 0) return keysOf(model, columns, found);
    }
    // Every answer (the option's own layer left out: a multi_choice's other selections stay).
    // Known: the value is live and unsupported with every answer.
    const known = units.length > 0;
    return keysOf(
      model,
      units,
      explainConflict(form, units, scratch, { keep: layer, known, focus, work }),
    );
  } finally {
    scratch[layer] = -1;
  }
}
