import type { ConsistencyForm } from '../consistency/form.js';
import {
  compatibleWith,
  countCompletions,
  isConsistent,
  liveValues,
  supports,
} from '../consistency/query.js';
import { quickXplain } from '../consistency/quickxplain.js';
import type { CompiledModel } from '../model.js';
import { type AnswerUnit, answerUnits, restrict } from './answer-units.js';
import {
  diagramSources,
  explainRules,
  isUnconditionalTable,
  ruleQuestions,
} from './rule-mentions.js';
import type { EvaluationState } from './state.js';
import { propagatedCheck } from './propagated.js';
import { computeValues } from './values.js';

const USER = (source: string): boolean => source === 'user';
const SOFT = (source: string): boolean => source === 'default' || source === 'trigger';

/**
 * After the value phase (MODEL_FORMAT.md "Consistency: no dead ends"): the user's
 * answers that already conflict get one `conflict` error per answer of a minimal
 * conflicting set; otherwise soft values (defaults, trigger values) that would leave
 * no valid completion are left out (`suppressed`) and the values recomputed. Returns
 * the user's answers as diagram restrictions.
 */
export function settleConsistency(model: CompiledModel, state: EvaluationState): AnswerUnit[] {
  const form = model.consistency;
  // Past the compile budget: the same steps, with propagation as the check (sound:
  // what it refutes has no completion; see propagated.ts).
  const consistent = form.compiled
    ? (set: readonly AnswerUnit[]): boolean => isConsistent(form, restrict(form, set))
    : propagatedCheck(form);
  let units = answerUnits(model, state, USER);
  if (!consistent(units)) {
    state.conflict = minimalConflict(model, units, consistent);
    return units;
  }
  const warningCount = state.warnings.length;
  for (let round = 0; round < model.questions.length; round++) {
    const soft = answerUnits(model, state, SOFT);
    if (soft.length === 0 || consistent([...units, ...soft])) break;
    // The first soft value (in value order) after which no completion is left.
    let fits = 0;
    let breaks = soft.length;
    while (breaks - fits > 1) {
      const middle = (fits + breaks) >> 1;
      if (consistent([...units, ...soft.slice(0, middle)])) fits = middle;
      else breaks = middle;
    }
    suppress(model, state, soft[breaks - 1].question);
    state.warnings.length = warningCount;
    for (let t = 0; t < state.triggerApplied.length; t++) state.triggerApplied[t] = {};
    computeValues(model, state);
    units = answerUnits(model, state, USER);
    if (!consistent(units)) break;
  }
  return units;
}

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
  consistent: (set: readonly AnswerUnit[]) => boolean,
): string[] {
  const found = quickXplain(units, consistent) ?? units;
  return found.map((unit) => model.questions[unit.question].key);
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
  units: readonly AnswerUnit[],
): void {
  const form = model.consistency;
  const fixed = restrict(form, units);
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
  const inDiagram = diagramSources(model);
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
        // Reasons from outside the diagram (e.g. a rule whose `when` reads a number) still hold.
        const outside = localReasons?.filter((key) => !inDiagram.has(sourceOf(question, key)));
        if (outside !== undefined && outside.length > 0)
          (reasons ??= new Array(options.length))[o] = outside;
        continue;
      }
      const conflict = explainOption(model, form, units, unitOf, localReasons, state.values, {
        question: question.index,
        layers: [layer],
        values: [value],
      });
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

/** `rules.<key>` for a rule reason, `questions.<q>.options.<o>` for an option's own key. */
function sourceOf(question: CompiledModel['questions'][number], reason: string): string {
  return question.optionIndex.has(reason)
    ? `questions.${question.key}.options.${reason}`
    : `rules.${reason}`;
}

/** A minimal set of the user's other answers that, with this value, has no completion. */
function explainOption(
  model: CompiledModel,
  form: ConsistencyForm,
  units: readonly AnswerUnit[],
  unitOf: ReadonlyArray<AnswerUnit | undefined>,
  localReasons: readonly string[] | undefined,
  values: ReadonlyArray<unknown>,
  option: AnswerUnit,
): string[] {
  const { question } = option;
  const layer = option.layers[0];
  const value = option.values[0];
  if (liveValues(form)[form.valueBase[layer] + value] === 0) return []; // the model alone excludes it
  const consistentWith = (set: readonly AnswerUnit[]): boolean =>
    isConsistent(form, restrict(form, [...set, option]));
  // A table that always applies and excludes it with the answers of its other columns:
  // those answers conflict with it; one of them is the whole explanation.
  const tables: AnswerUnit[][] = [];
  for (const reason of localReasons ?? []) {
    if (!isUnconditionalTable(model, reason)) continue;
    const others = ruleQuestions(model, reason).filter((q) => q !== question);
    // Only when the user's answers alone fill its columns (a default may be why).
    if (others.some((q) => values[q] !== null && unitOf[q] === undefined)) continue;
    const columns = others
      .map((q) => unitOf[q])
      .filter((unit): unit is AnswerUnit => unit !== undefined);
    if (columns.length === 1) return [model.questions[columns[0].question].key];
    if (columns.length > 1) tables.push(columns);
  }
  // Else often pairwise: one answer that has no completion with this value (cached rows).
  const pairs = compatibleWith(form, layer, value);
  for (const unit of units) {
    if (unit.layers.length === 1 && unit.layers[0] !== layer) {
      if (pairs[form.valueBase[unit.layers[0]] + unit.values[0]] === 0)
        return [model.questions[unit.question].key];
    }
  }
  // A minimal subset of one excluding table's answered columns (a few checks).
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
    const values = layers.map(() => 1);
    if (layers.length > 0) candidates.push({ question, layers, values });
  }
  const found = quickXplain(candidates, consistentWith);
  return (found ?? []).map((unit) => model.questions[unit.question].key);
}
