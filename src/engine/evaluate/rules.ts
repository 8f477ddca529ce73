import { derived } from '../derived.js';
import { failedWithInputs, UNKNOWN } from '../cel/expression.js';
import type { CompiledModel, CompiledRule, LanguageTexts } from '../model.js';
import type { LineRule, RuleStatus } from '../types.js';
import { logicalRuleHolds } from './logical-rule.js';
import { sharePart } from './shared-parts.js';
import type { EvaluationState } from './state.js';

/** Each rule's line by status (`rule.index * 4 + STATUS_SLOT[status]`), per language. */
/** Where a model's texts keep their rule lines (derived.ts). */
const RULE_LINES = Symbol('rule lines');
const STATUS_SLOT: Readonly<Record<RuleStatus, number>> = {
  passed: 0,
  failed: 1,
  pending: 2,
  skipped: 3,
};

/**
 * Step 5: rule statuses. `when` false → skipped, unknown → pending; an assert that is
 * unknown while a name it reads is null (an unanswered question) is pending, never
 * violated. One that is unknown with every name it reads set failed to evaluate (division
 * by zero, overflow…): no answer still to come can settle it, so it fails with
 * `rule_error` rather than letting the line through as pending. A failed rule is an
 * error or a warning by its severity, with the (translated) rule message.
 */
export function evaluateRules(
  model: CompiledModel,
  state: EvaluationState,
  texts: LanguageTexts,
  prepared: boolean,
): LineRule[] {
  const shared = prepared ? sharedRuleLines(model, texts) : undefined;
  const lines = model.rules.map((rule) => {
    let passed: boolean | 'pending' = true;
    let code = 'rule_failed';
    if (state.ruleGate[rule.index] === 'applies') {
      if (rule.table !== undefined) passed = state.tableMatched[rule.index];
      else if (rule.logic !== undefined) passed = logicalRuleHolds(model, rule.logic, state.values);
      else if (rule.assert !== undefined) {
        const value = rule.assert.condition(state.context);
        if (value !== UNKNOWN) passed = value;
        else if (failedWithInputs(rule.assert, state.context))
          [passed, code] = [false, 'rule_error'];
        else passed = 'pending';
      }
    }
    const status = state.ruleStatus(rule.index, passed);
    const message = texts.texts[rule.messageSlot];
    if (status === 'failed') {
      if (rule.severity === 'error') state.error(code, message, `rules.${rule.key}`);
      else state.warning(code, message, `rules.${rule.key}`);
    }
    if (shared === undefined) return ruleLine(rule, status, message);
    // Shared by every line with this rule in this status (shared-parts.ts).
    return (shared[rule.index * 4 + STATUS_SLOT[status]] ??= sharePart(
      ruleLine(rule, status, message),
    ));
  });
  return lines;
}

function ruleLine(rule: CompiledRule, status: RuleStatus, message: string): LineRule {
  return { key: rule.key, status, severity: rule.severity, message };
}

/** A model's texts belong to it alone, so they stand for its rules too. */
function sharedRuleLines(model: CompiledModel, texts: LanguageTexts): Array<LineRule | undefined> {
  return derived(texts, RULE_LINES, () => new Array<LineRule | undefined>(model.rules.length * 4));
}
