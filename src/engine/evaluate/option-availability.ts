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

/** `conflicts_with` of an option the check does not support, given its local reasons. */
export type ExplainOption = (
  option: OptionValue,
  localReasons: readonly string[] | undefined,
) => readonly string[];

/**
 * Step 3 of the consistency evaluation, with the diagram or past the budget (the
 * explanation differs): an option is available exactly when `supported` marks its
 * value; an unavailable one keeps its local reasons (tables, available_if) or, when
 * the exclusion comes from how rules interact, the rules that read its question, and
 * gets `conflicts_with`. A supported option keeps the local reasons that come from
 * parts the check does not hold (e.g. a rule whose `when` reads a number).
 */
export function optionAvailability(
  { model, mentions }: Pick<AnswersToExplain, 'model' | 'mentions'>,
  state: EvaluationState,
  supported: Uint8Array,
  explain: ExplainOption,
): void {
  const form = model.consistency;
  for (const question of model.questions) {
    // A pause point every few questions: explaining a large model's options takes long.
    if (question.type !== 'choice' && question.type !== 'multi_choice') continue;
    const first = form.firstLayer[question.index];
    if (first < 0) continue;
    const options = question.options;
    const local = state.unavailableBecause[question.index];
    const onlyDiagram = mentions.restrictedOutside[question.index] === 0;
    let reasons: Array<readonly string[] | undefined> | undefined;
    let conflicts: Array<readonly string[] | undefined> | undefined;
    for (let o = 0; o < options.length; o++) {
      const layer = question.type === 'choice' ? first : first + o;
      const value = question.type === 'choice' ? o + 1 : 1;
      const localReasons = local?.[o];
      if (supported[form.valueBase[layer] + value] === 1) {
        if (!onlyDiagram && localReasons?.some((key) => outsideDiagram(model, question, key))) {
          (reasons ??= new Array(options.length))[o] = localReasons.filter((key) =>
            outsideDiagram(model, question, key),
          );
        }
        continue;
      }
      const keys = explain({ question: question.index, layer, value }, localReasons);
      (conflicts ??= new Array(options.length))[o] = keys;
      (reasons ??= new Array(options.length))[o] =
        localReasons !== undefined && localReasons.length > 0
          ? localReasons
          : explainRules(model, question.index, keys, o);
    }
    state.unavailableBecause[question.index] = reasons;
    state.conflictsWith[question.index] = conflicts;
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
 * One answer (of a single layer other than the option's) that `pairs` — the values
 * compatible with the option alone — excludes: its key list; else undefined.
 */
export function pairConflict(
  model: CompiledModel,
  units: readonly AnswerUnit[],
  layer: number,
  pairs: Uint8Array,
): readonly string[] | undefined {
  const { valueBase } = model.consistency;
  for (const unit of units) {
    if (unit.layers.length !== 1 || unit.layers[0] === layer) continue;
    if (pairs[valueBase[unit.layers[0]] + unit.values[0]] === 0)
      return mentionsOf(model).keyLists[unit.question];
  }
  return undefined;
}
