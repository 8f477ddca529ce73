import { QUESTION_TYPES, type QuestionType } from '../cel/environment.js';
import type { Expression } from '../cel/expression.js';
import type { CompiledOption, CompiledQuestion, CelValue } from '../model-core.js';
import { convertLiteral } from '../question-values.js';
import type { Validation } from './context.js';
import { childPath, type JsonRecord, OPTION_KEY_PATTERN, QUESTION_KEY_PATTERN } from './reader.js';

const QUESTION_KEYS = new Set([
  'key',
  'type',
  'label',
  'description',
  'unit',
  'required',
  'visible_if',
  'default',
  'default_expr',
  'options',
  'min_selected',
  'max_selected',
  'min',
  'max',
  'step',
  'min_length',
  'max_length',
]);
const OPTION_KEYS = new Set(['key', 'label', 'description', 'price', 'available_if', 'image']);
/** Members that only some question types accept. */
const MEMBERS_BY_TYPE: Readonly<Record<string, readonly QuestionType[]>> = {
  options: ['choice', 'multi_choice'],
  min_selected: ['multi_choice'],
  max_selected: ['multi_choice'],
  min: ['number', 'integer'],
  max: ['number', 'integer'],
  step: ['number', 'integer'],
  min_length: ['text'],
  max_length: ['text'],
};
export const DEFAULT_TEXT_MAX_LENGTH = 1000;

function isQuestionType(value: unknown): value is QuestionType {
  return typeof value === 'string' && (QUESTION_TYPES as readonly string[]).includes(value);
}

/** Validates `questions`; `names` collects question and variable keys (one namespace). */
export function validateQuestions(
  v: Validation,
  value: unknown,
  names: Set<string>,
): CompiledQuestion[] {
  const list = v.optionalList(value, 'questions');
  const questions: CompiledQuestion[] = [];
  for (const [record, path] of v.records(list, 'questions')) {
    const question = validateQuestion(v, record, path, questions.length);
    if (question === undefined) continue;
    if (!v.unique(names, question.key, path, 'question/variable')) continue;
    questions.push(question);
  }
  return questions;
}

function validateQuestion(
  v: Validation,
  record: JsonRecord,
  path: string,
  index: number,
): CompiledQuestion | undefined {
  v.allowKeys(record, QUESTION_KEYS, path);
  const key = v.key(record, path, QUESTION_KEY_PATTERN, 'question');
  const type = record.type;
  if (!isQuestionType(type)) {
    const at = childPath(path, 'type');
    v.fail(
      type === undefined ? 'required' : 'invalid_value',
      `type must be one of ${QUESTION_TYPES.join(', ')}`,
      at,
    );
    return undefined;
  }
  for (const [member, types] of Object.entries(MEMBERS_BY_TYPE)) {
    if (record[member] !== undefined && !types.includes(type)) {
      v.fail(
        'invalid_value',
        `${member} does not apply to a ${type} question`,
        childPath(path, member),
      );
    }
  }
  const label = v.text(record, 'label', path, true);
  const description = v.text(record, 'description', path);
  const unit = v.text(record, 'unit', path);
  const required = readRequired(v, record, path);
  const visibleIf = v.expr(record, 'visible_if', path);
  const options =
    type === 'choice' || type === 'multi_choice' ? readOptions(v, record, path, key ?? '') : [];
  const integer = type === 'integer';
  const min = v.number(record, 'min', path, integer);
  const max = v.number(record, 'max', path, integer);
  const step = v.number(record, 'step', path, integer);
  if (step !== undefined && step <= 0)
    v.fail('invalid_value', 'step must be positive', childPath(path, 'step'));
  if (min !== undefined && max !== undefined && min > max) {
    v.fail('invalid_value', 'min is greater than max', childPath(path, 'max'));
  }
  const counts = readCounts(v, record, path);
  if (key === undefined) return undefined;

  const question: CompiledQuestion = {
    index,
    key,
    type,
    labelSlot: v.texts.add(`questions.${key}.label`, label ?? key, true),
    descriptionSlot: v.texts.addOptional(`questions.${key}.description`, description, true),
    unit,
    required,
    visibleIf,
    defaultValue: null,
    defaultExpr: undefined,
    options: options.map((option) => ({
      ...option.option,
      labelSlot: v.texts.add(
        `questions.${key}.options.${option.option.key}.label`,
        option.label,
        true,
      ),
      descriptionSlot: v.texts.addOptional(
        `questions.${key}.options.${option.option.key}.description`,
        option.description,
        true,
      ),
    })),
    optionIndex: new Map(options.map((option, i) => [option.option.key, i])),
    min,
    max,
    step: step !== undefined && step > 0 ? step : undefined,
    ...counts,
    maxLength: type === 'text' ? (counts.maxLength ?? DEFAULT_TEXT_MAX_LENGTH) : undefined,
    triggers: [],
    triggerTargets: [],
  };
  return { ...question, ...readDefault(v, record, path, question) };
}

function readRequired(v: Validation, record: JsonRecord, path: string): boolean | Expression {
  const value = record.required;
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') return v.expr(record, 'required', path) ?? false;
  v.fail(
    'invalid_type',
    'required must be true, false or a CEL expression',
    childPath(path, 'required'),
  );
  return false;
}

function readCounts(v: Validation, record: JsonRecord, path: string) {
  const read = (member: string): number | undefined => {
    const count = v.number(record, member, path, true);
    if (count !== undefined && count < 0) {
      return v.fail('invalid_value', `${member} must not be negative`, childPath(path, member));
    }
    return count;
  };
  const counts = {
    minSelected: read('min_selected'),
    maxSelected: read('max_selected'),
    minLength: read('min_length'),
    maxLength: read('max_length'),
  };
  if ((counts.minSelected ?? 0) > (counts.maxSelected ?? Infinity)) {
    v.fail(
      'invalid_value',
      'min_selected is greater than max_selected',
      childPath(path, 'max_selected'),
    );
  }
  if ((counts.minLength ?? 0) > (counts.maxLength ?? Infinity)) {
    v.fail('invalid_value', 'min_length is greater than max_length', childPath(path, 'max_length'));
  }
  return counts;
}

interface OptionDraft {
  option: Omit<CompiledOption, 'labelSlot' | 'descriptionSlot'>;
  label: string;
  description: string | undefined;
}

function readOptions(
  v: Validation,
  record: JsonRecord,
  path: string,
  questionKey: string,
): OptionDraft[] {
  const at = childPath(path, 'options');
  if (record.options === undefined) {
    v.fail('required', `a choice question needs options`, at);
    return [];
  }
  const list = v.list(record.options, at);
  if (list === undefined) return [];
  if (list.length === 0) v.fail('invalid_value', 'a choice question needs at least one option', at);
  // Checked before any option is read: the limit guards this work.
  if (list.length > v.limits.optionsPerQuestion) {
    v.fail(
      'limit_exceeded',
      `question ${questionKey} has ${list.length} options; the limit optionsPerQuestion is ${v.limits.optionsPerQuestion}`,
      at,
    );
    return [];
  }
  const seen = new Set<string>();
  const options: OptionDraft[] = [];
  for (const [option, optionPath] of v.records(list, at)) {
    v.allowKeys(option, OPTION_KEYS, optionPath);
    const key = v.key(option, optionPath, OPTION_KEY_PATTERN, 'option');
    const label = v.text(option, 'label', optionPath, true);
    const description = v.text(option, 'description', optionPath);
    const price = v.decimal(option, 'price', optionPath);
    const availableIf = v.expr(option, 'available_if', optionPath);
    const image = v.string(option, 'image', optionPath);
    if (key === undefined || !v.unique(seen, key, optionPath, 'option')) continue;
    options.push({ option: { key, price, availableIf, image }, label: label ?? key, description });
  }
  return options;
}

function readDefault(
  v: Validation,
  record: JsonRecord,
  path: string,
  question: CompiledQuestion,
): { defaultValue: CelValue | null; defaultExpr: Expression | undefined } {
  const defaultExpr = v.expr(record, 'default_expr', path);
  const raw = record.default;
  if (raw === undefined || raw === null) return { defaultValue: null, defaultExpr };
  const at = childPath(path, 'default');
  if (defaultExpr !== undefined) {
    v.fail('invalid_value', 'give either default or default_expr, not both', at);
    return { defaultValue: null, defaultExpr };
  }
  const converted = convertLiteral(question, raw);
  if (!converted.ok) {
    v.fail('invalid_default', `default of ${question.key}: ${converted.message}`, at);
    return { defaultValue: null, defaultExpr };
  }
  const number = typeof converted.value === 'bigint' ? Number(converted.value) : converted.value;
  const { min, max } = question;
  if (
    typeof number === 'number' &&
    ((min !== undefined && number < min) || (max !== undefined && number > max))
  ) {
    v.fail('invalid_default', `default of ${question.key} is outside min/max`, at);
  }
  return { defaultValue: converted.value, defaultExpr };
}
