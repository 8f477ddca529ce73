import type { CompiledQuestion, CelValue } from './model-core.js';

/** A raw JSON value turned into the CEL value of a question, or why it cannot be. */
export type Conversion =
  | { readonly ok: true; readonly value: CelValue }
  | { readonly ok: false; readonly code: string; readonly message: string };

const fail = (code: string, message: string): Conversion => ({ ok: false, code, message });

type QuestionShape = Pick<CompiledQuestion, 'type' | 'optionIndex' | 'key'> & {
  readonly maxLength?: number;
};

/** Unicode code points of a string, counted only when its UTF-16 length could exceed `limit`. */
function longerThan(text: string, limit: number): boolean {
  if (text.length <= limit) return false;
  let count = 0;
  for (const _ of text) if (++count > limit) return true;
  return false;
}

/**
 * One element of an answer's `values` (or of a multi_choice literal) as its CEL
 * value: an option key, a double, an int (bigint), a boolean or a string.
 */
export function convertElement(question: QuestionShape, raw: unknown): Conversion {
  switch (question.type) {
    case 'choice':
    case 'multi_choice':
      if (typeof raw !== 'string') return fail('wrong_type', `expected an option key (a string)`);
      if (!question.optionIndex.has(raw)) {
        return fail('unknown_option', `'${raw}' is not an option of ${question.key}`);
      }
      return { ok: true, value: raw };
    case 'number':
      if (typeof raw !== 'number' || !Number.isFinite(raw))
        return fail('wrong_type', 'expected a number');
      return { ok: true, value: raw };
    case 'integer':
      if (typeof raw !== 'number' || !Number.isFinite(raw))
        return fail('wrong_type', 'expected an integer');
      if (!Number.isSafeInteger(raw)) return fail('wrong_type', 'expected an integer');
      return { ok: true, value: BigInt(raw) };
    case 'boolean':
      if (typeof raw !== 'boolean') return fail('wrong_type', 'expected true or false');
      return { ok: true, value: raw };
    case 'text':
      if (typeof raw !== 'string') return fail('wrong_type', 'expected a string');
      // Refused before any expression reads it: the static cost bounds assume max_length.
      if (question.maxLength !== undefined && longerThan(raw, question.maxLength))
        return fail('too_long', `${question.key} takes at most ${question.maxLength} characters`);
      return { ok: true, value: raw };
  }
}

/**
 * A literal of the question's type (a `default` or a trigger's `set` value): one
 * element, or for multi_choice a list of distinct option keys. An empty list is null
 * (unanswered).
 */
export function convertLiteral(question: QuestionShape, raw: unknown): Conversion {
  if (question.type !== 'multi_choice') return convertElement(question, raw);
  if (!Array.isArray(raw)) return fail('wrong_type', 'expected a list of option keys');
  const keys: string[] = [];
  for (const item of raw) {
    const converted = convertElement(question, item);
    if (!converted.ok) return converted;
    if (keys.includes(converted.value as string))
      return fail('duplicate_value', `'${String(item)}' is listed twice`);
    keys.push(converted.value as string);
  }
  return { ok: true, value: keys.length === 0 ? null : keys };
}

/**
 * A value computed by CEL (default_expr, trigger expression) in the question's
 * representation, or undefined when it does not fit (wrong type, no such option).
 */
export function fromCel(question: QuestionShape, value: unknown): CelValue | null | undefined {
  if (value === null) return null;
  switch (question.type) {
    case 'number':
      if (typeof value === 'bigint') return Number(value);
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'integer':
      if (typeof value === 'bigint') return value;
      return typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : undefined;
    case 'multi_choice': {
      if (!Array.isArray(value)) return undefined;
      const converted = convertLiteral(question, value);
      return converted.ok ? converted.value : undefined;
    }
    default: {
      const converted = convertElement(question, value);
      return converted.ok ? converted.value : undefined;
    }
  }
}

/** The `values` array of a cart line for a CEL value of the question (JSON-safe). */
export function toAnswerValues(value: CelValue | null): unknown[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return [...(value as unknown[])];
  if (typeof value === 'bigint') return [Number(value)];
  return [value];
}
