import type { CompiledModel } from '../model.js';
import { isLineQuestionList, questionsJson } from './questions-json.js';
import { PREPARED_LANGUAGES, partsJson } from './shared-parts.js';

/**
 * Whether `value` is an object holding a line's question list as `questions`: a cart line
 * (or a copy of one) inside a larger answer, such as a page of a cart's lines. The
 * serializer writes such an object member by member, so that its questions are split
 * into slices too instead of the whole line being one `JSON.stringify`.
 */
export function holdsLineQuestions(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  const questions = (value as { questions?: unknown }).questions;
  return Array.isArray(questions) && isLineQuestionList(questions);
}

/**
 * The JSON text of `list[start..end)` (comma-separated, without brackets) when `list` is
 * a line's questions, rules or BOM items as the engine made them: written from prepared
 * text (questions-json.ts, shared-parts.ts). Undefined for any other list (the caller
 * stringifies it). Equal to `JSON.stringify(list.slice(start, end)).slice(1, -1)`.
 */
export function lineListJson(
  list: readonly unknown[],
  start: number,
  end: number,
): string | undefined {
  return questionsJson(list, start, end) ?? partsJson(list, start, end);
}

/**
 * An upper estimate of the heap the prepared text of one language holds once a version
 * has been answered in it: the questions' and options' text (questions-json.ts), and the
 * shared rules and fixed BOM lines (shared-parts.ts). A version prepares at most
 * PREPARED_LANGUAGES languages; a rule seen in more statuses holds a little more.
 * Strings count two bytes a character, as the transfer estimate does. Calibrated on
 * generated models (heap after a collection, `--expose-gc`): 1.9 MB held at 1,000
 * questions, 8.5 MB at 5,000 (estimated: 2.0 and 10.1 MB).
 */
export function lineTextBytes(model: CompiledModel): number {
  const texts = model.text.base.texts;
  const length = (slot: number | undefined) =>
    slot === undefined ? 0 : (texts[slot]?.length ?? 0);
  let bytes = 0;
  for (const question of model.questions) {
    bytes += 150 + 2 * (question.key.length + length(question.labelSlot));
    const prices = model.optionPriceTexts[question.index];
    for (let o = 0; o < question.options.length; o++) {
      const option = question.options[o];
      const chars = option.key.length + length(option.labelSlot) + (prices[o]?.length ?? 0);
      bytes += 200 + 2 * (70 + chars);
    }
  }
  for (const rule of model.rules)
    bytes += 100 + 2 * (60 + rule.key.length + length(rule.messageSlot));
  for (const item of model.bomItems) {
    const chars = item.key.length + item.sku.length + length(item.descriptionSlot);
    bytes += 100 + 2 * (80 + chars);
  }
  return bytes;
}

/** The prepared text a version may hold in all: PREPARED_LANGUAGES languages' worth. */
export function preparedTextBytes(model: CompiledModel): number {
  return PREPARED_LANGUAGES * lineTextBytes(model);
}
