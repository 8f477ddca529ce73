/**
 * Line parts that answers cannot change once their few inputs are known (a rule with
 * its status, a BOM line with a literal quantity and price and no children), made once
 * per model and language and shared, frozen, by every line that has them: an evaluation
 * then allocates no object for them. At 1,000 questions the rules and BOM items are
 * 190 kB of a preview's JSON.
 */

import { derived } from '../derived.js';
import type { CompiledModel, LanguageTexts } from '../model.js';

/**
 * Languages per model version whose lines share parts: each holds about
 * `sharedPartBytes / SHARING_LANGUAGES`, so a model answered in many languages does not
 * grow without bound; the next languages' lines are built whole.
 */
export const SHARING_LANGUAGES = 2;

/** Where a model keeps the languages whose lines share parts (derived.ts). */
const SHARING = Symbol('sharing languages');

/** Whether lines of `model` in `texts` share parts: the first SHARING_LANGUAGES do. */
export function sharesParts(model: CompiledModel, texts: LanguageTexts): boolean {
  const languages = derived(model, SHARING, (): LanguageTexts[] => []);
  if (languages.includes(texts)) return true;
  if (languages.length >= SHARING_LANGUAGES) return false;
  languages.push(texts);
  return true;
}

/** `part`, frozen: from now on it may be in any number of lines. */
export function sharePart<T extends object>(part: T): T {
  return Object.freeze(part);
}

/**
 * An upper estimate of the heap the shared parts of a version hold once it has been
 * answered in SHARING_LANGUAGES languages: a rule line per rule and status, a BOM line
 * per fixed item, each with its translated text (strings at two bytes a character, as
 * the transfer estimate counts them).
 */
export function sharedPartBytes(model: CompiledModel): number {
  const texts = model.text.base.texts;
  const length = (slot: number | undefined) =>
    slot === undefined ? 0 : (texts[slot]?.length ?? 0);
  let bytes = 0;
  for (const rule of model.rules)
    bytes += 4 * (100 + 2 * (60 + rule.key.length + length(rule.messageSlot)));
  for (const item of model.bomItems) {
    const chars = item.key.length + item.sku.length + length(item.descriptionSlot);
    bytes += 2 * (100 + 2 * (80 + chars));
  }
  return SHARING_LANGUAGES * bytes;
}
