// What a buyer reads for a problem: plain words from the catalog by its code, the
// question's label instead of its key. The API's own message and code are written for
// developers (docs/api.md); they go to the console, and to the modeller's view.
import type { Translate, MessageKey } from './i18n/index.js';
import type { ApiFailure, Line, Problem } from './api.js';

/** Problems of the answers, which a buyer fixes by answering: by code, with the question's label. */
const ANSWER_PROBLEMS = new Set([
  'required',
  'out_of_range',
  'off_step',
  'too_few_selected',
  'too_many_selected',
  'too_short',
  'too_long',
  'option_unavailable',
]);

/** Problems that say what an answer's value is (a type or format), for the buyer in one phrase. */
const VALUE_PROBLEMS = new Set([
  'wrong_type',
  'unknown_option',
  'duplicate_value',
  'too_many_values',
  'invalid_answer',
]);

/** The question key a problem's path names (`questions.color`, `questions.color.values[0]`). */
export function questionOf(path: string | undefined): string | undefined {
  return /^questions\.([a-z][a-z0-9_]*)/.exec(path ?? '')?.[1];
}

/**
 * A problem is the buyer's when it is about their answers (or a rule, whose message the
 * modeller wrote for buyers); anything else (a BOM quantity that cannot be computed, an
 * expression's error, a cost limit) is the modeller's.
 */
export function isBuyerProblem(p: Problem): boolean {
  return (
    ANSWER_PROBLEMS.has(p.code) ||
    VALUE_PROBLEMS.has(p.code) ||
    p.code === 'rule_failed' ||
    p.code === 'conflict' ||
    p.code === 'model_not_valid'
  );
}

/** A buyer's problem in words (a conflict is told by the line view, with the answers). */
export function problemText(p: Problem, line: Line | undefined, t: Translate): string {
  const key = questionOf(p.path);
  const label = (key && line?.questions.find((q) => q.key === key)?.label) || key || '';
  if (ANSWER_PROBLEMS.has(p.code)) return t(`problem.${p.code}` as MessageKey, { label });
  if (VALUE_PROBLEMS.has(p.code)) return t('problem.invalid_value', { label });
  if (p.code === 'rule_failed') {
    const rule = /^rules\.(.+)$/.exec(p.path ?? '')?.[1];
    return line?.rules.find((r) => r.key === rule)?.message ?? p.message;
  }
  if (p.code === 'model_not_valid') return t('problem.model_not_valid');
  return t('problem.technical');
}

/** Error codes of the API with a sentence of their own in the catalogs. */
const FAILURE_CODES = [
  'currency_mismatch',
  'cart_company_mismatch',
  'cart_full',
  'stale_line',
  'model_retired',
];

/** A failed call in the buyer's words: by the first problem code the catalogs know, else by status. */
export function failureText(failure: ApiFailure, t: Translate): string {
  const known = failure.problems.find((p) => FAILURE_CODES.includes(p.code));
  if (known) return t(`error.${known.code}` as MessageKey);
  if (failure.status === 0) return t('error.network');
  if (failure.problems.some((p) => ANSWER_PROBLEMS.has(p.code))) return t('error.incomplete');
  if (failure.status === 401 || failure.status === 403) return t('error.session');
  if (failure.status === 404) return t('error.notFound');
  return t('error.generic');
}
