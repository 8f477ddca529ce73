import type { CompiledModel, CompiledQuestion } from '../model.js';
import { toAnswerValues } from '../question-values.js';
import type { CompactLineOption, CompactLineQuestion } from '../types.js';
import { empty } from './empty.js';
import { eachQuestion } from './line-parts.js';
import type { EvaluationState } from './state.js';
import { unavailableValues } from './value-availability.js';

/**
 * The questions of the compact view (docs/model-format.md "The cart line", `?view=compact`),
 * read from the evaluation state as `lineQuestions` reads the full ones: per question
 * `key, values, source, visible, required`, `discarded` and `suppressed` only when not
 * empty, the unavailable options only (`[]` when all are available), `unavailable_values`
 * as in the full view. Built directly rather than by trimming full questions: a full
 * question allocates an object per option, labels and prices included, that the compact
 * view would drop at once (a third of an evaluation's allocation at 1,000 questions).
 * Member order is the full view's, so the JSON equals the trimmed full line's
 * (test/engine/evaluate/compact-view.test.ts).
 */
export function compactQuestions(
  model: CompiledModel,
  state: EvaluationState,
): CompactLineQuestion[] {
  return eachQuestion(model, (question) => {
    const index = question.index;
    const value = state.values[index];
    const visible = state.visible[index];
    const line: CompactLineQuestion = {
      key: question.key,
      values: value === null ? empty<unknown>() : toAnswerValues(value),
      source: state.sources[index],
      visible,
      required: state.required[index],
    };
    const discarded = visible ? undefined : state.answers[index].raw;
    if (discarded !== undefined && discarded.length > 0) line.discarded = discarded;
    const suppressed = state.suppressed[index];
    if (suppressed !== undefined && suppressed.length > 0) line.suppressed = suppressed;
    // As in the full view: a question with a value domain lists values, not options.
    const unavailable = unavailableValues(model, state, question);
    if (unavailable !== undefined) line.unavailable_values = unavailable;
    else if (question.options.length > 0) line.options = unavailableOptions(question, state);
    return line;
  });
}

function unavailableOptions(
  question: CompiledQuestion,
  state: EvaluationState,
): CompactLineOption[] {
  const reasons = state.unavailableBecause[question.index];
  if (reasons === undefined) return empty<CompactLineOption>();
  const conflicts = state.conflictsWith[question.index];
  const unexplained = state.unexplained[question.index];
  const options = question.options;
  const unavailable: CompactLineOption[] = [];
  for (let o = 0; o < options.length; o++) {
    const because = reasons[o] as string[] | undefined;
    if (because === undefined) continue;
    unavailable.push({
      key: options[o].key,
      available: false,
      unavailable_because: because,
      conflicts_with: (conflicts?.[o] as string[] | undefined) ?? empty<string>(),
      ...(unexplained?.[o] === 1 ? { explained: false as const } : {}),
    });
  }
  return unavailable;
}
