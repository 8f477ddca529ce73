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
    const path = `questions.${key}`;
    const index = model.questionIndex.get(key);
    if (index === undefined) {
      state.error('unknown_question', `the model has no question '${key}'`, path);
      continue;
    }
    const answer = raw[key];
    const values = isRecord(answer) ? answer.values : undefined;
    if (!Array.isArray(values)) {
      state.error('invalid_answer', 'an answer is {values: [...]}', path);
      state.answers[index] = { value: null, raw: [], invalid: true };
      continue;
    }
    state.answers[index] = readValues(model, index, values, path, state);
  }
}

function readValues(
  model: CompiledModel,
  index: number,
  values: unknown[],
  path: string,
  state: EvaluationState,
): UserAnswer {
  if (values.length === 0) return UNANSWERED;
  const question = model.questions[index];
  const multiple = question.type === 'multi_choice';
  let invalid = false;
  if (!multiple && values.length > 1) {
    state.error(
      'too_many_values',
      `${question.key} takes one value, got ${values.length}`,
      `${path}.values`,
    );
    invalid = true;
  }
  const converted: unknown[] = [];
  for (let i = 0; i < values.length && !(invalid && !multiple); i++) {
    const result = convertElement(question, values[i]);
    if (!result.ok) {
      state.error(result.code, result.message, `${path}.values[${i}]`);
      invalid = true;
    } else if (multiple && converted.includes(result.value)) {
      state.error(
        'duplicate_value',
        `'${String(values[i])}' is selected twice`,
        `${path}.values[${i}]`,
      );
      invalid = true;
    } else {
      converted.push(result.value);
    }
  }
  if (invalid) return { value: null, raw: [...values], invalid: true };
  return { value: multiple ? converted : converted[0], raw: [...values], invalid: false };
}
