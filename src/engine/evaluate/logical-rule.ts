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

/**
 * The local check of an applying logical rule (as a table's, evaluate/availability.ts):
 * each option of a choice or multi_choice literal that would break the rule with the other
 * answers kept gets the rule's key as its reason (`unavailable_because`). Only when one
 * question can still decide the rule: a rule with enough open or holding literals on
 * other questions is skipped after one pass over its literals.
 */
export function logicalRuleReasons(
  model: CompiledModel,
  rule: LogicalRule,
  values: ReadonlyArray<CelValue | null>,
  addReason: (question: number, option: number) => void,
): void {
  const n = rule.questions.length;
  let holding = 0;
  let open = 0;
  for (let i = 0; i < n; i++) {
    const literal = literalState(model, rule, i, values);
    if (literal === OPEN) open++;
    else if (literal === HOLDS) holding++;
  }
  const atLeast = rule.bound === 'at_least';
  // One answer changes at most `spread` literals (one, when every literal has its own question).
  const spread = rule.spread;
  if (atLeast ? holding + open - spread >= rule.count : holding + spread <= rule.count) return;
  const done = new Set<number>();
  for (let i = 0; i < n; i++) {
    const q = rule.questions[i];
    if (done.has(q)) continue;
    done.add(q);
    const question = model.questions[q];
    if (question.type === 'boolean') continue;
    let otherHolding = holding;
    let otherOpen = open;
    for (let j = i; j < n; j++) {
      if (rule.questions[j] !== q) continue;
      const literal = literalState(model, rule, j, values);
      if (literal === OPEN) otherOpen--;
      else if (literal === HOLDS) otherHolding--;
    }
    const current = values[q];
    for (let o = 0; o < question.options.length; o++) {
      const optionKey = question.options[o].key;
      let value: CelValue;
      if (question.type !== 'multi_choice') value = optionKey;
      else if (Array.isArray(current))
        value = current.includes(optionKey) ? current : [...current, optionKey];
      else value = [optionKey];
      let gained = 0;
      for (let j = i; j < n; j++) {
        if (rule.questions[j] !== q) continue;
        const equal =
          question.type === 'multi_choice'
            ? (value as string[]).includes(question.options[rule.options[j]].key)
            : value === question.options[rule.options[j]].key;
        if (equal !== (rule.negated[j] === 1)) gained++;
      }
      const total = otherHolding + gained;
      if (atLeast ? total + otherOpen < rule.count : total > rule.count) addReason(q, o);
    }
  }
}
