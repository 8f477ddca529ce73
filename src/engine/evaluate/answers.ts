import type { CompiledModel } from '../model.js';
import { convertElement } from '../question-values.js';
import { isRecord } from '../validate/reader.js';
import type { EvaluationState, UserAnswer } from './state.js';

const UNANSWERED: UserAnswer = Object.freeze({
  value: null,
  raw: [],
  invalid: false,
}) as UserAnswer;

/**
 * Step 1: the request's `{key: {values: [...]}}` as CEL values. Malformed answers
 * (unknown question, wrong type, unknown option, several values for a single
 * question) are errors and count as unanswered; range, step, length and
 * availability are checked later, on visible questions only.
 */
export function readAnswers(model: CompiledModel, raw: unknown, state: EvaluationState): void {
  state.answers.fill(UNANSWERED);
  if (!isRecord(raw)) {
    state.error(
      'invalid_answers',
      'questions must be an object: {question_key: {values: [...]}}',
      'questions',
    );
    return;
  }
  for (const key of Object.keys(raw)) {
    const index = model.questionIndex.get(key);
    if (index === undefined) {
      state.error('unknown_question', `the model has no question '${key}'`, `questions.${key}`);
      continue;
    }
    const answer = raw[key];
    const values = isRecord(answer) ? answer.values : undefined;
    if (!Array.isArray(values)) {
      state.error('invalid_answer', 'an answer is {values: [...]}', `questions.${key}`);
      state.answers[index] = { value: null, raw: [], invalid: true };
      continue;
    }
    state.answers[index] = readValues(model, index, values, state);
  }
}

function readValues(
  model: CompiledModel,
  index: number,
  values: unknown[],
  state: EvaluationState,
): UserAnswer {
  if (values.length === 0) return UNANSWERED;
  const question = model.questions[index];
  const first = values[0];
  // The usual answer, one known option key, without building a conversion result.
  if (
    values.length === 1 &&
    question.type === 'choice' &&
    typeof first === 'string' &&
    question.optionIndex.has(first)
  )
    return { value: first, raw: values, invalid: false };
  // Paths are built only for problems: a large request has thousands of answers.
  const path = `questions.${question.key}`;
  if (question.type === 'multi_choice') return readMultiple(question, values, path, state);
  if (values.length > 1) {
    state.error(
      'too_many_values',
      `${question.key} takes one value, got ${values.length}`,
      `${path}.values`,
    );
    return { value: null, raw: values, invalid: true };
  }
  const result = convertElement(question, values[0]);
  if (result.ok) return { value: result.value, raw: values, invalid: false };
  state.error(result.code, result.message, `${path}.values[0]`);
  return { value: null, raw: values, invalid: true };
}

function readMultiple(
  question: CompiledModel['questions'][number],
  values: unknown[],
  path: string,
  state: EvaluationState,
): UserAnswer {
  let invalid = false;
  const keys: string[] = [];
  for (let i = 0; i < values.length; i++) {
    const result = convertElement(question, values[i]);
    if (!result.ok) {
      state.error(result.code, result.message, `${path}.values[${i}]`);
      invalid = true;
    } else if (keys.includes(result.value as string)) {
      state.error(
        'duplicate_value',
        `'${String(values[i])}' is selected twice`,
        `${path}.values[${i}]`,
      );
      invalid = true;
    } else {
      keys.push(result.value as string);
    }
  }
  return invalid
    ? { value: null, raw: values, invalid: true }
    : { value: keys, raw: values, invalid: false };
}
