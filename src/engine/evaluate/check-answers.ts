import { conditionOr } from '../cel/expression.js';
import type { CompiledModel, CompiledQuestion, CelValue } from '../model.js';
import { Money } from '../money.js';
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
    if (value === null) {
      if (required && !state.answers[index].invalid) {
        state.error('required', `${question.key} is required`, `questions.${question.key}`);
      }
      continue;
    }
    const base = `questions.${question.key}`;
    const at = (i: number): string =>
      state.sources[index] === 'user' ? `${base}.values[${i}]` : base;
    checkValue(question, value, state, at, base);
  }
}

function checkValue(
  question: CompiledQuestion,
  value: CelValue,
  state: EvaluationState,
  at: (i: number) => string,
  base: string,
): void {
  switch (question.type) {
    case 'choice':
      checkAvailable(question, value as string, 0, state, at);
      return;
    case 'multi_choice': {
      const keys = value as string[];
      keys.forEach((key, i) => checkAvailable(question, key, i, state, at));
      if (question.minSelected !== undefined && keys.length < question.minSelected) {
        state.error(
          'too_few_selected',
          `select at least ${question.minSelected} for ${question.key}`,
          base,
        );
      }
      if (question.maxSelected !== undefined && keys.length > question.maxSelected) {
        state.error(
          'too_many_selected',
          `select at most ${question.maxSelected} for ${question.key}`,
          base,
        );
      }
      return;
    }
    case 'number':
    case 'integer':
      checkNumber(question, Number(value as number | bigint), state, at(0));
      return;
    case 'text': {
      const length = [...(value as string)].length;
      if (question.minLength !== undefined && length < question.minLength) {
        state.error(
          'too_short',
          `${question.key} needs at least ${question.minLength} characters`,
          at(0),
        );
      }
      if (question.maxLength !== undefined && length > question.maxLength) {
        state.error(
          'too_long',
          `${question.key} takes at most ${question.maxLength} characters`,
          at(0),
        );
      }
      return;
    }
    default:
      return;
  }
}

function checkAvailable(
  question: CompiledQuestion,
  key: string,
  i: number,
  state: EvaluationState,
  at: (i: number) => string,
): void {
  const option = question.optionIndex.get(key);
  const reasons =
    option === undefined ? undefined : state.unavailableBecause[question.index]?.[option];
  if (reasons === undefined) return;
  state.error(
    'option_unavailable',
    `option '${key}' of ${question.key} is not available (${reasons.join(', ')})`,
    at(i),
  );
}

function checkNumber(
  question: CompiledQuestion,
  value: number,
  state: EvaluationState,
  path: string,
): void {
  if (question.min !== undefined && value < question.min) {
    state.error('out_of_range', `${question.key} must be at least ${question.min}`, path);
  } else if (question.max !== undefined && value > question.max) {
    state.error('out_of_range', `${question.key} must be at most ${question.max}`, path);
  }
  if (question.step !== undefined && !onStep(value, question.min ?? 0, question.step)) {
    state.error(
      'off_step',
      `${question.key} must be ${question.min ?? 0} plus a multiple of ${question.step}`,
      path,
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
