import { countCompletions } from '../consistency/count.js';
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
  explainRules,
  isUnconditionalTable,
  keyList,
  onlyDiagramReasons,
  outsideDiagram,
  ruleQuestions,
} from './rule-mentions.js';
import type { EvaluationState } from './state.js';
import { propagatedCheck } from './propagated.js';
import { computeValues } from './values.js';

const USER = (source: string): boolean => source === 'user';
const SOFT = (source: string): boolean => source === 'default' || source === 'trigger';

/** The user's answers as diagram restrictions, once per evaluation. */
export interface Settled {
  readonly units: AnswerUnit[];
  /** `restrict(form, units)`. */
  readonly fixed: Int32Array;
}

/**
 * After the value phase (MODEL_FORMAT.md "Consistency: no dead ends"): the user's
 * answers that already conflict get one `conflict` error per answer of a minimal
 * conflicting set; otherwise soft values (defaults, trigger values) that would leave
 * no valid completion are left out (`suppressed`) and the values recomputed. Returns
 * the user's answers (as diagram restrictions too when the model has a diagram).
 */
export function settleConsistency(model: CompiledModel, state: EvaluationState): Settled {
  const form = model.consistency;
  // Past the compile budget: the same steps, with propagation as the check (sound:
  // what it refutes has no completion; see propagated.ts).
  const propagated = form.compiled ? undefined : propagatedCheck(form);
  const scratch = form.compiled ? freeAssignment(form) : NO_LAYERS;
  let units = answerUnits(model, state, USER);
  let fixed = form.compiled ? restrict(form, units) : NO_LAYERS;
  /** The user's answers with these soft values have a completion. */
  const fits = (soft: readonly AnswerUnit[]): boolean =>
    propagated === undefined
      ? isConsistent(form, restrict(form, soft, fixed, scratch))
      : propagated([...units, ...soft]);
  if (!fits([])) {
    state.conflict = minimalConflict(model, units, propagated);
    return { units, fixed };
  }
  // Each round suppresses a (question, source) pair for good (its triggers, then its
  // default), so there are at most two rounds per finite question; the value phase
  // charges its cost once however many rounds run (EvaluationState.startValuePhase).
  for (let round = 0; round < 2 * model.questions.length; round++) {
    const soft = answerUnits(model, state, SOFT);
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
    units = answerUnits(model, state, USER);
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
 * One `conflict` error per answer of the minimal conflicting set (after the answer
 * checks: a single answer that has its own error, e.g. too_many_selected, already
 * says why and gets no second one).
 */
export function reportConflict(state: EvaluationState): void {
  const keys = state.conflict;
  if (keys === undefined) return;
  if (keys.length === 1) {
    const prefix = `questions.${keys[0]}`;
    const own = state.errors.some(
      (error) => error.path === prefix || error.path?.startsWith(`${prefix}.`) === true,
    );
    if (own) return;
  }
  const message = `the answers to ${keys.join(', ')} have no valid completion together; change one of them`;
  for (const key of keys) state.error('conflict', message, `questions.${key}`);
}

/**
 * Step 3 with a diagram: an option is available exactly when it has a valid
 * completion with the user's other answers; an unavailable option keeps the local
 * reasons (tables, available_if) or, when the exclusion comes from how rules
 * interact, the rules that read its question, and gets `conflicts_with`.
 */
export function exactAvailability(
  model: CompiledModel,
  state: EvaluationState,
  { units, fixed }: Settled,
): void {
  const form = model.consistency;
  const { supported, consistent } = supports(form, fixed);
  state.valueSupport = supported;
  state.consistency = {
    exact: form.exact,
    ...(form.reason === undefined ? {} : { reason: form.reason }),
    configurations: consistent ? countCompletions(form, fixed) : '0',
  };
  if (!consistent) state.answerReasons = [...state.unavailableBecause];
  const unitOf = new Array<AnswerUnit | undefined>(model.questions.length);
  for (const unit of units) unitOf[unit.question] = unit;
  const scratch = freeAssignment(form);
  for (const question of model.questions) {
    if (question.type !== 'choice' && question.type !== 'multi_choice') continue;
    const first = form.firstLayer[question.index];
    if (first < 0) continue;
    const options = question.options;
    const local = state.unavailableBecause[question.index];
    const onlyDiagram = onlyDiagramReasons(model, question.index);
    let reasons: Array<readonly string[] | undefined> | undefined;
    let conflicts: Array<readonly string[] | undefined> | undefined;
    for (let o = 0; o < options.length; o++) {
      const layer = question.type === 'choice' ? first : first + o;
      const value = question.type === 'choice' ? o + 1 : 1;
      const localReasons = local?.[o];
      if (supported[form.valueBase[layer] + value] === 1) {
        // Reasons from outside the diagram (e.g. a rule whose `when` reads a number) still hold.
        if (
          !onlyDiagram &&
          localReasons?.some((key) => outsideDiagram(model, question, key)) === true
        ) {
          (reasons ??= new Array(options.length))[o] = localReasons.filter((key) =>
            outsideDiagram(model, question, key),
          );
        }
        continue;
      }
      const option = { question: question.index, layer, value };
      const keys = explainOption(model, units, unitOf, localReasons, state.values, option, scratch);
      (conflicts ??= new Array(options.length))[o] = keys;
      (reasons ??= new Array(options.length))[o] =
        localReasons !== undefined && localReasons.length > 0
          ? localReasons
          : explainRules(model, question.index, keys);
    }
    state.unavailableBecause[question.index] = reasons;
    state.conflictsWith[question.index] = conflicts;
  }
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
 * table's answered columns, then over every answer. `scratch` is all free.
 */
function explainOption(
  model: CompiledModel,
  units: readonly AnswerUnit[],
  unitOf: ReadonlyArray<AnswerUnit | undefined>,
  localReasons: readonly string[] | undefined,
  values: ReadonlyArray<unknown>,
  { question, layer, value }: { question: number; layer: number; value: number },
  scratch: Int32Array,
): readonly string[] {
  const form = model.consistency;
  if (liveValues(form)[form.valueBase[layer] + value] === 0) return [];
  // A table that always applies and excludes it with the answers of its other columns:
  // those answers conflict with it; one of them is the whole explanation.
  let tables: AnswerUnit[][] | undefined;
  for (const reason of localReasons ?? []) {
    if (!isUnconditionalTable(model, reason)) continue;
    const columns = ruleQuestions(model, reason);
    let filled: AnswerUnit | AnswerUnit[] | undefined;
    let byDefault = false;
    for (const q of columns) {
      const unit = q === question ? undefined : unitOf[q];
      if (unit === undefined) {
        // Only when the user's answers alone fill its columns (a default may be why).
        if (q !== question && values[q] !== null) byDefault = true;
      } else if (filled === undefined) filled = unit;
      else if (Array.isArray(filled)) filled.push(unit);
      else filled = [filled, unit];
    }
    if (byDefault || filled === undefined) continue;
    if (!Array.isArray(filled)) return keyList(model, filled.question);
    (tables ??= []).push(filled);
  }
  // Else often pairwise: one answer that has no completion with this value (cached rows).
  const pairs = compatibleWith(form, layer, value);
  for (const unit of units) {
    if (unit.layers.length === 1 && unit.layers[0] !== layer) {
      if (pairs[form.valueBase[unit.layers[0]] + unit.values[0]] === 0)
        return keyList(model, unit.question);
    }
  }
  // No single answer excludes it: two answered columns of a table that excludes it are
  // a minimal conflict as they are (no check needed); more, a few checks.
  scratch[layer] = value;
  try {
    for (const columns of tables ?? []) {
      if (columns.length === 2) return keysOf(model, columns, [0, 1]);
      const found = explainConflict(form, columns, scratch, layer, true);
      if (found !== undefined && found.length > 0) return keysOf(model, columns, found);
    }
    // Every answer (the option's own layer left out: a multi_choice's other selections stay).
    // Known: the value is live and unsupported with every answer.
    return keysOf(model, units, explainConflict(form, units, scratch, layer, units.length > 0));
  } finally {
    scratch[layer] = -1;
  }
}
