import type { CelValue, CompiledModel, LogicalRule } from '../model.js';

/**
 * Whether a logical rule holds for the values (docs/model-format.md "Logical rules"): a
 * literal on a single-value question with no value is open — it holds for `at_least` and
 * not for `at_most` — so the rule fails only when no answer still to come could satisfy
 * it, as the consistency form reads it (consistency/logic-diagram.ts).
 */
export function logicalRuleHolds(
  model: CompiledModel,
  rule: LogicalRule,
  values: ReadonlyArray<CelValue | null>,
): boolean {
  let holding = 0;
  let open = 0;
  for (let i = 0; i < rule.questions.length; i++) {
    const literal = literalState(model, rule, i, values);
    if (literal === OPEN) open++;
    else if (literal === HOLDS) holding++;
  }
  return rule.bound === 'at_least' ? holding + open >= rule.count : holding <= rule.count;
}

const HOLDS = 1;
const FAILS = 0;
const OPEN = 2;

function literalState(
  model: CompiledModel,
  rule: LogicalRule,
  i: number,
  values: ReadonlyArray<CelValue | null>,
): number {
  const question = model.questions[rule.questions[i]];
  const value = values[question.index];
  const option = rule.options[i];
  let equal: boolean;
  if (question.type === 'multi_choice') {
    equal = Array.isArray(value) && value.includes(question.options[option].key);
  } else if (value === null || value === undefined) {
    return OPEN;
  } else if (question.type === 'boolean') {
    equal = value === (option === 1);
  } else {
    equal = value === question.options[option].key;
  }
  return equal !== (rule.negated[i] === 1) ? HOLDS : FAILS;
}
