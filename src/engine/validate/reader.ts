import { TEXT_MAX_LENGTHS, type EngineLimits } from '../limits.js';
import { DECIMAL_PATTERN, Money } from '../money.js';
import type { ProblemList } from '../problems.js';

import { isPositiveInteger, isRecord, type JsonRecord } from '../source/record.js';

// Read by the source stage too (imports), so defined there: source/ sits below validate/.
export { isPositiveInteger, isRecord, type JsonRecord };

/** A CEL expression as written in the model, with the path that names it in problems. */
export interface ExpressionSource {
  readonly source: string;
  readonly path: string;
}

export const QUESTION_KEY_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;
export const OPTION_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** Rule, trigger, BOM, adjustment and image keys: docs/model-format.md only asks for uniqueness. */
export const SECTION_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** Names CEL (or cel-js) already uses: a question or variable with one of these keys could never be read. */
const CEL_RESERVED = new Set(
  (
    'as break const continue else for function if import let loop package namespace return var void while ' +
    'true false null in int uint double bool string bytes list map null_type type dyn cel optional google ' +
    'timestamp duration'
  ).split(' '),
);

/**
 * Keys a configuration's answers may not use (the request boundary refuses them anywhere
 * in `questions`, as a trap for code that indexes plain objects): no question may be
 * named so, or it could never be answered. `__proto__` already fails the key pattern.
 */
const ANSWER_RESERVED = new Set(['constructor', 'prototype']);

export function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Date) return 'a date';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * Structural validation helpers: each reads one member, reports what is wrong with
 * its path and returns undefined instead of throwing, so that one upload reports
 * every problem.
 */
export class Reader {
  constructor(
    readonly problems: ProblemList,
    readonly limits: EngineLimits,
  ) {}

  fail(code: string, message: string, path?: string): undefined {
    this.problems.add(code, message, path);
    return undefined;
  }

  record(value: unknown, path: string): JsonRecord | undefined {
    if (isRecord(value)) return value;
    return this.fail('invalid_type', `${path} must be an object, got ${describeType(value)}`, path);
  }

  list(value: unknown, path: string): unknown[] | undefined {
    if (Array.isArray(value)) return value;
    return this.fail('invalid_type', `${path} must be a list, got ${describeType(value)}`, path);
  }

  /** An optional list member: absent or null gives `[]`; not a list is reported and gives `[]`. */
  optionalList(value: unknown, path: string): readonly unknown[] {
    if (value === undefined || value === null) return [];
    return this.list(value, path) ?? [];
  }

  /** Reports members that are neither allowed nor `x-` extensions. */
  allowKeys(record: JsonRecord, allowed: ReadonlySet<string>, path: string): void {
    for (const key of Object.keys(record)) {
      if (!allowed.has(key) && !key.startsWith('x-')) {
        this.fail('unknown_key', `unknown member '${key}'`, childPath(path, key));
      }
    }
  }

  string(record: JsonRecord, key: string, path: string, required = false): string | undefined {
    const value = record[key];
    const at = childPath(path, key);
    if (value === undefined || value === null) {
      return required ? this.fail('required', `${at} is required`, at) : undefined;
    }
    if (typeof value !== 'string') {
      return this.fail('invalid_type', `${at} must be a string, got ${describeType(value)}`, at);
    }
    if (required && value.trim() === '')
      return this.fail('required', `${at} must not be empty`, at);
    return value;
  }

  /** A text member (label, description, message…): a string no longer than TEXT_MAX_LENGTHS. */
  text(record: JsonRecord, key: string, path: string, required = false): string | undefined {
    const value = this.string(record, key, path, required);
    if (value === undefined) return undefined;
    return this.textWithin(value, key, childPath(path, key));
  }

  /** `value` when it fits the limit of text member `kind`, else a `too_long` problem at `at`. */
  textWithin(value: string, kind: string, at: string): string | undefined {
    const max = TEXT_MAX_LENGTHS[kind];
    if (max === undefined || value.length <= max) return value;
    return this.fail(
      'too_long',
      `${at} is ${value.length} characters; a ${kind} takes at most ${max}`,
      at,
    );
  }

  key(record: JsonRecord, path: string, pattern: RegExp, what: string): string | undefined {
    const key = this.string(record, 'key', path, true);
    if (key === undefined) return undefined;
    if (!pattern.test(key)) {
      return this.fail(
        'invalid_identifier',
        `${what} key '${key}' must match ${pattern.source}`,
        childPath(path, 'key'),
      );
    }
    if (pattern === QUESTION_KEY_PATTERN && CEL_RESERVED.has(key)) {
      return this.fail(
        'invalid_identifier',
        `'${key}' is a reserved word in CEL`,
        childPath(path, 'key'),
      );
    }
    if (pattern === QUESTION_KEY_PATTERN && ANSWER_RESERVED.has(key)) {
      return this.fail(
        'invalid_identifier',
        `'${key}' is reserved: answers may not use it as a key`,
        childPath(path, 'key'),
      );
    }
    return key;
  }

  number(record: JsonRecord, key: string, path: string, integer = false): number | undefined {
    const value = record[key];
    if (value === undefined || value === null) return undefined;
    const at = childPath(path, key);
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      return this.fail('invalid_type', `${at} must be a number, got ${describeType(value)}`, at);
    }
    if (integer && !Number.isSafeInteger(value)) {
      return this.fail('invalid_type', `${at} must be an integer`, at);
    }
    return value;
  }

  boolean(record: JsonRecord, key: string, path: string): boolean | undefined {
    const value = record[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'boolean') return value;
    const at = childPath(path, key);
    return this.fail('invalid_type', `${at} must be true or false, got ${describeType(value)}`, at);
  }

  /** A money amount: a decimal string (never a YAML/JSON float, which would be inexact). */
  decimal(record: JsonRecord, key: string, path: string): Money | undefined {
    const value = record[key];
    if (value === undefined || value === null) return undefined;
    const at = childPath(path, key);
    if (typeof value !== 'string' || !DECIMAL_PATTERN.test(value)) {
      const got = typeof value === 'string' ? `'${value}'` : describeType(value);
      return this.fail(
        'invalid_decimal',
        `${at} must be a decimal string such as "12.50", got ${got}`,
        at,
      );
    }
    return new Money(value);
  }

  /** A CEL expression; its length limit is checked here, before anything parses it. */
  expression(
    record: JsonRecord,
    key: string,
    path: string,
    required = false,
  ): ExpressionSource | undefined {
    const source = this.string(record, key, path, required);
    if (source === undefined) return undefined;
    return this.expressionText(source, childPath(path, key));
  }

  expressionText(source: string, path: string): ExpressionSource | undefined {
    const bytes = Buffer.byteLength(source, 'utf8');
    if (bytes > this.limits.expressionBytes) {
      return this.fail(
        'limit_exceeded',
        `expression is ${bytes} bytes; the limit expressionBytes is ${this.limits.expressionBytes}`,
        path,
      );
    }
    if (source.trim() === '') return this.fail('required', `${path} must not be empty`, path);
    return { source, path };
  }

  /** Reports a key already seen in `seen` (keys are unique within their section). */
  unique(seen: Set<string>, key: string, path: string, what: string): boolean {
    if (seen.has(key)) {
      this.fail('duplicate_key', `duplicate ${what} key '${key}'`, childPath(path, 'key'));
      return false;
    }
    seen.add(key);
    return true;
  }
}
