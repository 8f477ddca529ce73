import type { Validation } from './context.js';
import { LANGUAGE_PATTERN } from './general.js';

/**
 * `translation`: `{language: {path: text}}`. Every path must name a text the model
 * has (a typo would otherwise silently never translate).
 */
export function validateTranslation(
  v: Validation,
  value: unknown,
): Map<string, Map<string, string>> {
  const result = new Map<string, Map<string, string>>();
  if (value === undefined || value === null) return result;
  const record = v.record(value, 'translation');
  if (record === undefined) return result;
  for (const [language, entries] of Object.entries(record)) {
    const path = `translation.${language}`;
    if (!LANGUAGE_PATTERN.test(language)) {
      v.fail('invalid_value', `'${language}' is not a language code`, path);
      continue;
    }
    const texts = v.record(entries, path);
    if (texts === undefined) continue;
    const map = new Map<string, string>();
    for (const [textPath, text] of Object.entries(texts)) {
      const at = `${path}.${textPath}`;
      if (typeof text !== 'string') v.fail('invalid_type', 'a translation is a string', at);
      else if (!v.texts.has(textPath))
        v.fail('unknown_reference', `the model has no text at '${textPath}'`, at);
      else if (v.textWithin(text, textPath.slice(textPath.lastIndexOf('.') + 1), at) !== undefined)
        map.set(textPath, text);
    }
    result.set(language, map);
  }
  return result;
}
