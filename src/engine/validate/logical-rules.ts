import type { CompiledQuestion, LogicalRule } from '../model-core.js';
import type { Validation } from './context.js';
import { childPath, isRecord, type JsonRecord } from './reader.js';

/** The members that make a rule logical; a rule has one of them, or `assert`, or `allowed`. */
export const LOGICAL_RULE_KEYS = ['clause', 'at_least', 'at_most', 'requires', 'excludes'] as const;
const BOUND_KEYS = new Set(['count', 'of']);

/**
 * `question = option`, `question != option`, and for a boolean question `question`
 * (= true) or `!question` (= false). Option keys hold no `=`, `!` or spaces.
 */
const LITERAL_PATTERN = /^\s*(!?)\s*([a-z][a-z0-9_]*)\s*(?:(!=|=)\s*([^\s=!]+))?\s*$/;

interface Literal {
  question: number;
  option: number;
  negated: boolean;
}

/**
 * Reads the one logical member of a rule (`member`, one of LOGICAL_RULE_KEYS) into the
 * bound it states: `clause` at least one literal, `requires: [a, b]` the clause
 * (not a) or b, `excludes: [a, b]` the clause (not a) or (not b), `at_least` /
 * `at_most` `{count, of}`. Undefined (with problems reported) when it is not valid.
 */
export function readLogicalRule(
  v: Validation,
  record: JsonRecord,
  member: (typeof LOGICAL_RULE_KEYS)[number],
  path: string,
  questionIndex: ReadonlyMap<string, number>,
  questions: readonly CompiledQuestion[],
): LogicalRule | undefined {
  const at = childPath(path, member);
  const value = record[member];
  const literals = (list: unknown, listPath: string): Literal[] | undefined => {
    const items = v.list(list, listPath);
    if (items === undefined) return undefined;
    if (items.length === 0) return v.fail('invalid_value', `${listPath} needs a literal`, listPath);
    const read = items.map((item, i) =>
      readLiteral(v, item, childPath(listPath, i), questionIndex, questions),
    );
    return read.every((literal) => literal !== undefined) ? read : undefined;
  };
  switch (member) {
    case 'clause': {
      const read = literals(value, at);
      return read === undefined ? undefined : logical('at_least', 1, read);
    }
    case 'requires':
    case 'excludes': {
      const read = literals(value, at);
      if (read === undefined) return undefined;
      if (read.length !== 2) return v.fail('invalid_value', `${at} takes exactly two literals`, at);
      const [first, second] = read;
      const other = member === 'requires' ? second : { ...second, negated: !second.negated };
      return logical('at_least', 1, [{ ...first, negated: !first.negated }, other]);
    }
    case 'at_least':
    case 'at_most': {
      const bound = v.record(value, at);
      if (bound === undefined) return undefined;
      v.allowKeys(bound, BOUND_KEYS, at);
      const read = literals(bound.of, childPath(at, 'of'));
      const count = v.number(bound, 'count', at, true);
      if (count === undefined) {
        if (bound.count === undefined) v.fail('required', `${at}.count is required`, at);
        return undefined;
      }
      if (read === undefined) return undefined;
      if (count < 0 || count > read.length)
        return v.fail(
          'invalid_value',
          `${at}.count must be between 0 and the ${read.length} literals of 'of'`,
          childPath(at, 'count'),
        );
      return logical(member, count, read);
    }
  }
}

function logical(bound: LogicalRule['bound'], count: number, literals: Literal[]): LogicalRule {
  const questions = literals.map((literal) => literal.question);
  let spread = 1;
  for (let i = 0; i < questions.length; i++) {
    let same = 0;
    for (let j = i; j < questions.length; j++) if (questions[j] === questions[i]) same++;
    spread = Math.max(spread, same);
    // Quadratic only while short: a long list counts per question in a map instead.
    if (questions.length > 16) {
      spread = spreadOf(questions);
      break;
    }
  }
  return {
    spread,
    bound,
    count,
    questions,
    options: literals.map((literal) => literal.option),
    negated: literals.map((literal) => (literal.negated ? 1 : 0)),
  };
}

/** The most literals on one question. */
function spreadOf(questions: readonly number[]): number {
  const perQuestion = new Map<number, number>();
  let spread = 0;
  for (const question of questions) {
    const count = (perQuestion.get(question) ?? 0) + 1;
    perQuestion.set(question, count);
    spread = Math.max(spread, count);
  }
  return spread;
}

function readLiteral(
  v: Validation,
  item: unknown,
  at: string,
  questionIndex: ReadonlyMap<string, number>,
  questions: readonly CompiledQuestion[],
): Literal | undefined {
  if (typeof item !== 'string')
    return v.fail(
      'invalid_type',
      `${at} must be a literal such as 'question = option', got ${isRecord(item) ? 'an object' : typeof item}`,
      at,
    );
  const match = LITERAL_PATTERN.exec(item);
  if (match === null || (match[1] === '!' && match[3] !== undefined))
    return v.fail(
      'invalid_value',
      `'${item}' is not a literal: write 'question = option', 'question != option', or for a boolean 'question' or '!question'`,
      at,
    );
  const [, bang, key, operator, optionKey] = match;
  const q = questionIndex.get(key);
  if (q === undefined) return v.fail('unknown_reference', `'${key}' is not a question`, at);
  const question = questions[q];
  const negated = bang === '!' || operator === '!=';
  if (question.type === 'boolean') {
    const option = optionKey === undefined ? 1 : ['false', 'true'].indexOf(optionKey);
    if (option < 0)
      return v.fail('invalid_value', `${key} is a boolean: its values are true and false`, at);
    return { question: q, option, negated };
  }
  if (question.type !== 'choice' && question.type !== 'multi_choice')
    return v.fail(
      'invalid_value',
      `${key} is a ${question.type} question; literals take choice, multi_choice and boolean questions`,
      at,
    );
  if (optionKey === undefined)
    return v.fail('invalid_value', `'${item}' needs an option: '${key} = option'`, at);
  const option = question.optionIndex.get(optionKey);
  if (option === undefined)
    return v.fail('unknown_reference', `'${optionKey}' is not an option of ${key}`, at);
  return { question: q, option, negated };
}
