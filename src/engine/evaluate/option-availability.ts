import { charge, withinBudget, type Work } from '../consistency/work.js';
import type { CompiledModel } from '../model.js';
import type { AnswerUnit } from './answer-units.js';
import { explainRules, type Mentions, mentionsOf, outsideDiagram } from './rule-mentions.js';
import type { EvaluationState } from './state.js';

/** An option as a diagram value: its question, layer and value. */
/** What explaining an option needs of the evaluation, with the diagram or by propagation. */
export interface AnswersToExplain {
  readonly model: CompiledModel;
  readonly mentions: Mentions;
  /** The user's answers as restrictions, and per question its answer's unit. */
  readonly units: readonly AnswerUnit[];
  readonly unitOf: ReadonlyArray<AnswerUnit | undefined>;
  readonly values: ReadonlyArray<unknown>;
}

export interface OptionValue {
  readonly question: number;
  readonly layer: number;
  readonly value: number;
}

/**
 * How an option the check does not support is explained: first `quick` (no search:
 * the model alone, one excluding table's answer, one answer the pairwise relation
 * excludes) — its keys, or null when a search is needed; then, for those, `search`.
 * Both charge the evaluation's explanation budget (consistency/work.ts), which throws
 * OutOfWork once it is spent.
 */
export interface ExplainSteps {
  quick(option: OptionValue, localReasons: readonly string[] | undefined): readonly string[] | null;
  search(option: OptionValue, localReasons: readonly string[] | undefined): readonly string[];
}

interface Pending extends OptionValue {
  readonly option: number;
  readonly localReasons: readonly string[] | undefined;
}

/**
 * Step 3 of the consistency evaluation, with the diagram or past the budget (the
 * explanation differs): an option is available exactly when `supported` marks its
 * value; an unavailable one keeps its local reasons (tables, available_if) or, when
 * the exclusion comes from how rules interact, the rules that read its question, and
 * gets `conflicts_with`. A supported option keeps the local reasons that come from
 * parts the check does not hold (e.g. a rule whose `when` reads a number).
 *
 * Explanations stay within `work` (docs/adr/0061-explanation-budget.md): every option's
 * quick step first, then the searches in question order; an option reached past the
 * budget gets no `conflicts_with`, its local reasons or the rules that read its question
 * as `unavailable_because`, and `explained: false`. Availability is decided before and
 * never depends on the budget.
 */
export function optionAvailability(
  { model, mentions }: Pick<AnswersToExplain, 'model' | 'mentions'>,
  state: EvaluationState,
  supported: Uint8Array,
  steps: ExplainSteps,
  work: Work,
): void {
  const form = model.consistency;
  const pending: Pending[] = [];
  const record = (
    q: number,
    o: number,
    keys: readonly string[] | undefined,
    localReasons: readonly string[] | undefined,
  ): void => {
    const count = model.questions[q].options.length;
    (state.conflictsWith[q] ??= new Array(count))[o] = keys;
    (state.unavailableBecause[q] ??= new Array(count))[o] =
      localReasons !== undefined && localReasons.length > 0
        ? localReasons
        : explainRules(model, q, keys ?? [], o);
    if (keys === undefined) (state.unexplained[q] ??= new Uint8Array(count))[o] = 1;
  };
  for (const question of model.questions) {
    if (question.type !== 'choice' && question.type !== 'multi_choice') continue;
    const first = form.firstLayer[question.index];
    if (first < 0) continue;
    const options = question.options;
    const local = state.unavailableBecause[question.index];
    const onlyDiagram = mentions.restrictedOutside[question.index] === 0;
    state.unavailableBecause[question.index] = undefined;
    state.conflictsWith[question.index] = undefined;
    for (let o = 0; o < options.length; o++) {
      const layer = question.type === 'choice' ? first : first + o;
      const value = question.type === 'choice' ? o + 1 : 1;
      const localReasons = local?.[o];
      if (supported[form.valueBase[layer] + value] === 1) {
        if (!onlyDiagram && localReasons?.some((key) => outsideDiagram(model, question, key))) {
          (state.unavailableBecause[question.index] ??= new Array(options.length))[o] =
            localReasons.filter((key) => outsideDiagram(model, question, key));
        }
        continue;
      }
      const option = { question: question.index, layer, value };
      const keys =
        work.left < 0 ? undefined : withinBudget(() => steps.quick(option, localReasons));
      if (keys === null) pending.push({ ...option, option: o, localReasons });
      else record(question.index, o, keys, localReasons);
    }
  }
  for (const { option, localReasons, ...value } of pending) {
    const keys = work.left < 0 ? undefined : withinBudget(() => steps.search(value, localReasons));
    record(value.question, option, keys, localReasons);
  }
}

/** Per question: the user's answer as a unit, or undefined. */
export function unitsByQuestion(
  model: CompiledModel,
  units: readonly AnswerUnit[],
): Array<AnswerUnit | undefined> {
  const unitOf = new Array<AnswerUnit | undefined>(model.questions.length);
  for (const unit of units) unitOf[unit.question] = unit;
  return unitOf;
}

/**
 * The tables that always apply, exclude the option, and whose other columns the user
 * answered (a default or trigger value in one of them may be why: then not taken):
 * with one answered column, that answer alone conflicts with the option — its key
 * list is returned; tables with two or more answered columns are added to `tables`.
 */
export function excludingTables(
  model: CompiledModel,
  mentions: Mentions,
  question: number,
  localReasons: readonly string[] | undefined,
  unitOf: ReadonlyArray<AnswerUnit | undefined>,
  values: ReadonlyArray<unknown>,
  tables: AnswerUnit[][],
): readonly string[] | undefined {
  for (const reason of localReasons ?? []) {
    if (!mentions.unconditionalTables.has(reason)) continue;
    let filled: AnswerUnit | AnswerUnit[] | undefined;
    let byDefault = false;
    for (const q of mentions.byRule.get(reason) ?? []) {
      if (q === question) continue;
      const unit = unitOf[q];
      if (unit === undefined) {
        if (values[q] !== null) byDefault = true;
      } else if (filled === undefined) filled = unit;
      else if (Array.isArray(filled)) filled.push(unit);
      else filled = [filled, unit];
    }
    if (byDefault || filled === undefined) continue;
    if (!Array.isArray(filled)) return mentions.keyLists[filled.question];
    tables.push(filled);
  }
  return undefined;
}

/**
 * One answer (of a single layer other than the option's) that is not `compatible` with
 * the option alone (the pairwise relation): its key list; else undefined.
 */
export function pairConflict(
  model: CompiledModel,
  units: readonly AnswerUnit[],
  layer: number,
  compatible: (layer: number, value: number) => boolean,
  work: Work,
): readonly string[] | undefined {
  charge(work, units.length);
  for (const unit of units) {
    if (unit.layers.length !== 1 || unit.layers[0] === layer) continue;
    if (!compatible(unit.layers[0], unit.values[0]))
      return mentionsOf(model).keyLists[unit.question];
  }
  return undefined;
}
