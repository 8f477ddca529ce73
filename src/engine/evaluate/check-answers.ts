import { conditionOr } from '../cel/expression.js';
import type { CompiledModel, CompiledQuestion, CelValue } from '../model.js';
import { Money } from '../money.js';
import { explainedByConflict } from './conflict-report.js';
import type { EvaluationState } from './state.js';

/**
 * Step 4: checks the effective value of every visible question: required,
 * availability, selection counts, range, step, length. Problems about a value the
 * user gave point at `questions.<key>.values[i]`; about a default or trigger value
 * at `questions.<key>`.
 */
export function checkAnswers(model: CompiledModel, state: EvaluationState): void {
  for (const question of model.questions) {
    const index = question.index;
    if (!state.visible[index]) continue;
    const required =
      typeof question.required === 'boolean'
        ? question.required
        : conditionOr(question.required, state.context, false);
    state.required[index] = required;
    const value = state.values[index];
    if (value !== null) checkValue(question, value, state);
    else if (required && !state.answers[index].invalid) {
      state.error('required', `${question.key} is required`, `questions.${question.key}`);
    }
  }
}

/** Where a problem with value i is reported (built only when there is a problem). */
function at(question: CompiledQuestion, state: EvaluationState, i?: number): string {
  const base = `questions.${question.key}`;
  return i === undefined || state.sources[question.index] !== 'user'
    ? base
    : `${base}.values[${i}]`;
}

function checkValue(question: CompiledQuestion, value: CelValue, state: EvaluationState): void {
  const key = question.key;
  switch (question.type) {
    case 'choice':
      checkAvailable(question, value as string, 0, state);
      return;
    case 'multi_choice': {
      const keys = value as string[];
      for (let i = 0; i < keys.length; i++) checkAvailable(question, keys[i], i, state);
      if (question.minSelected !== undefined && keys.length < question.minSelected) {
        state.error(
          'too_few_selected',
          `select at least ${question.minSelected} for ${key}`,
          at(question, state),
        );
      }
      if (question.maxSelected !== undefined && keys.length > question.maxSelected) {
        state.error(
          'too_many_selected',
          `select at most ${question.maxSelected} for ${key}`,
          at(question, state),
        );
      }
      return;
    }
    case 'number':
    case 'integer':
      checkNumber(question, Number(value as number | bigint), state);
      return;
    case 'text': {
      const length = codePoints(value as string);
      if (question.minLength !== undefined && length < question.minLength) {
        state.error(
          'too_short',
          `${key} needs at least ${question.minLength} characters`,
          at(question, state, 0),
        );
      }
      if (question.maxLength !== undefined && length > question.maxLength) {
        state.error(
          'too_long',
          `${key} takes at most ${question.maxLength} characters`,
          at(question, state, 0),
        );
      }
      return;
    }
    default:
      return;
  }
}

/** Characters as users count them (code points, not UTF-16 units). */
function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xdc00 || code > 0xdfff) count++; // low surrogates continue a character
  }
  return count;
}

function checkAvailable(
  question: CompiledQuestion,
  key: string,
  i: number,
  state: EvaluationState,
): void {
  const option = question.optionIndex.get(key);
  const reasons =
    option === undefined
      ? undefined
      : (state.answerReasons ?? state.unavailableBecause)[question.index]?.[option];
  if (reasons === undefined) return;
  // The conflict problem names the answer and these rules already (conflict-report.ts).
  if (explainedByConflict(state.model, state, question.index, option as number, reasons)) return;
  const message = `option '${key}' of ${question.key} is not available (${reasons.join(', ')})`;
  state.error('option_unavailable', message, at(question, state, i));
}

function checkNumber(question: CompiledQuestion, value: number, state: EvaluationState): void {
  const { key, min, max, step } = question;
  if (min !== undefined && value < min) {
    state.error('out_of_range', `${key} must be at least ${min}`, at(question, state, 0));
  } else if (max !== undefined && value > max) {
    state.error('out_of_range', `${key} must be at most ${max}`, at(question, state, 0));
  }
  if (step !== undefined && !onStep(value, min ?? 0, step)) {
    state.error(
      'off_step',
      `${key} must be ${min ?? 0} plus a multiple of ${step}`,
      at(question, state, 0),
    );
  }
}

/** Exact decimal test (0.3 is on a 0.1 step, which binary floating point gets wrong). */
function onStep(value: number, origin: number, step: number): boolean {
  if (Number.isInteger(value) && Number.isInteger(origin) && Number.isInteger(step)) {
    return (value - origin) % step === 0;
  }
  return new Money(value).minus(origin).mod(step).isZero();
}
