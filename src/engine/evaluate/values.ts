import { conditionOr, UNKNOWN } from '../cel/expression.js';
import type { CompiledModel, CompiledQuestion, CompiledTrigger, CelValue } from '../model.js';
import { fromCel } from '../question-values.js';
import { toJsonValue } from './json.js';
import type { EvaluationState } from './state.js';

/**
 * Step 2: defaults, triggers, visibility and variables in the dependency order
 * fixed at compile, so each expression reads final values. Precedence of a
 * question's value: user > trigger > default; a hidden question is null and its
 * answer is discarded. Run again (soft values suppressed), it first undoes its own
 * outputs: warnings, applied trigger values and the cost it charged.
 */
export function computeValues(model: CompiledModel, state: EvaluationState): void {
  state.startValuePhase();
  state.sources.fill('none');
  const questionCount = model.questions.length;
  const triggerBase = questionCount + model.variables.length;
  const order = model.valueOrder;
  for (let i = 0; i < order.length; i++) {
    const node = order[i];
    if (node < questionCount) computeQuestion(model.questions[node], state);
    else if (node < triggerBase) computeVariable(model, node - questionCount, state);
    else runTrigger(model, model.triggers[node - triggerBase], state);
  }
}

function computeVariable(model: CompiledModel, index: number, state: EvaluationState): void {
  const variable = model.variables[index];
  const value = variable.expr.run(state.context);
  const known = value === UNKNOWN || value === undefined ? null : value;
  state.variables[index] = known;
  state.context.set(variable.key, known);
}

function runTrigger(model: CompiledModel, trigger: CompiledTrigger, state: EvaluationState): void {
  const fired = trigger.when.condition(state.context) === true;
  state.triggerFired[trigger.index] = fired;
  if (!fired) return;
  const values = state.triggerValues[trigger.index];
  for (let t = 0; t < trigger.targets.length; t++) {
    const target = trigger.targets[t];
    if (target.expr === undefined) {
      values[t] = target.literal;
      continue;
    }
    const question = model.questions[target.question];
    const raw = target.expr.run(state.context);
    const value = raw === UNKNOWN ? undefined : fromCel(question, raw);
    if (value === undefined) {
      state.warning(
        'invalid_trigger_value',
        `trigger ${trigger.key} computed no usable value for ${question.key}`,
        `triggers.${trigger.key}`,
      );
    }
    values[t] = value;
  }
}

function computeQuestion(question: CompiledQuestion, state: EvaluationState): void {
  const index = question.index;
  const visible = conditionOr(question.visibleIf, state.context, false);
  state.visible[index] = visible;
  let value: CelValue | null = null;
  if (visible) {
    const answer = state.answers[index];
    if (answer.value !== null) {
      value = answer.value;
      state.sources[index] = 'user';
    } else {
      const triggered =
        state.suppressTriggers[index] === 1 ? NOT_SET : fromTriggers(question, state);
      if (triggered !== NOT_SET) {
        // A trigger's value, even an empty one (`[]`), replaces the default.
        value = triggered;
        state.sources[index] = 'trigger';
      } else {
        value = state.suppressDefault[index] === 1 ? null : fromDefault(question, state);
        if (value !== null) state.sources[index] = 'default';
      }
    }
  }
  state.values[index] = value;
  state.context.set(question.key, value);
}

/** No firing trigger gave this question a usable value. */
const NOT_SET = Symbol('not-set');

/**
 * The last trigger in list order that fired with a usable value for this question;
 * null when that value is empty (a multi_choice set to `[]`), which still counts.
 */
function fromTriggers(
  question: CompiledQuestion,
  state: EvaluationState,
): CelValue | null | typeof NOT_SET {
  for (let i = question.triggers.length - 1; i >= 0; i--) {
    const triggerIndex = question.triggers[i];
    if (!state.triggerFired[triggerIndex]) continue;
    const value = state.triggerValues[triggerIndex][question.triggerTargets[i]];
    if (value === undefined) continue;
    state.triggerApplied[triggerIndex][question.key] =
      value === null ? (question.type === 'multi_choice' ? [] : null) : toJsonValue(value);
    return value;
  }
  return NOT_SET;
}

function fromDefault(question: CompiledQuestion, state: EvaluationState): CelValue | null {
  if (question.defaultExpr === undefined) return question.defaultValue;
  const raw = question.defaultExpr.run(state.context);
  if (raw === UNKNOWN) return null;
  const value = fromCel(question, raw);
  if (value === undefined) {
    state.warning(
      'invalid_default',
      `default_expr of ${question.key} gave no usable value`,
      `questions.${question.key}`,
    );
    return null;
  }
  return value;
}
