import type { RuleStatus, ValueSource } from '../../engine/index.js';

export { QUESTION_TYPES } from '../../engine/index.js';

/** The engine's other enums for Swagger; `satisfies` keeps them in step with its types. */
export const VALUE_SOURCES = [
  'user',
  'default',
  'trigger',
  'none',
  'completion',
] as const satisfies readonly ValueSource[];

export const RULE_STATUSES = [
  'passed',
  'failed',
  'pending',
  'skipped',
] as const satisfies readonly RuleStatus[];

/** An answer value: a number, a string (option key, text) or a boolean. */
export const ANSWER_VALUE = {
  oneOf: [{ type: 'number' }, { type: 'string' }, { type: 'boolean' }],
};
