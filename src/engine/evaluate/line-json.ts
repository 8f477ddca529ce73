import { questionsJson } from './questions-json.js';
import { partsJson } from './shared-parts.js';

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
