/**
 * Line parts that answers cannot change once their few inputs are known (a rule with
 * its status, a BOM line with a literal quantity and price and no children), made once
 * per model and language and shared, frozen, by every line that has them, with their
 * JSON text written once. An evaluation then allocates no object for them, and the
 * serializer copies their text instead of writing them again (line-json.ts). At 1,000
 * questions the rules and BOM items are 190 kB of a preview's JSON.
 */

import type { CompiledModel, LanguageTexts } from '../model.js';

/**
 * Languages per model version whose lines use prepared text and shared parts (here and
 * in questions-json.ts): each holds about `lineTextBytes` (line-json.ts), so a model
 * answered in many languages does not grow without bound; the next languages' lines
 * are built and written as before.
 */
export const PREPARED_LANGUAGES = 2;

const preparedLanguages = new WeakMap<CompiledModel, LanguageTexts[]>();

/** Whether lines of `model` in `texts` use prepared text: the first PREPARED_LANGUAGES do. */
export function preparesText(model: CompiledModel, texts: LanguageTexts): boolean {
  let languages = preparedLanguages.get(model);
  if (languages === undefined) preparedLanguages.set(model, (languages = []));
  if (languages.includes(texts)) return true;
  if (languages.length >= PREPARED_LANGUAGES) return false;
  languages.push(texts);
  return true;
}

/** The JSON text of each shared part. */
const partTexts = new WeakMap<object, string>();

/** Lists that may hold shared parts (a line's `rules`, `bom_items`). */
const partLists = new WeakSet<readonly object[]>();

/** `part`, frozen, with its JSON text: from now on it may be in any number of lines. */
export function sharePart<T extends object>(part: T): T {
  partTexts.set(part, JSON.stringify(Object.freeze(part)));
  return part;
}

/** Records that `list` may hold shared parts (its other elements are stringified). */
export function notePartList<T extends object>(list: T[]): T[] {
  partLists.add(list);
  return list;
}

/**
 * The JSON text of `list[start..end)`, comma-separated, without brackets, or undefined
 * when the list is not a noted one.
 */
export function partsJson(
  list: readonly unknown[],
  start: number,
  end: number,
): string | undefined {
  if (!partLists.has(list as readonly object[])) return undefined;
  let json = '';
  for (let i = start; i < end; i++) {
    const part = list[i];
    const text = typeof part === 'object' && part !== null ? partTexts.get(part) : undefined;
    json += (i > start ? ',' : '') + (text ?? JSON.stringify(part) ?? 'null');
  }
  return json;
}
