import { UNKNOWN } from '../cel/expression.js';
import type { CompiledModel, LanguageTexts } from '../model.js';
import type { LineRule } from '../types.js';
import type { EvaluationState } from './state.js';

/**
 * Step 5: rule statuses. `when` false → skipped, unknown → pending; an assert that is
 * unknown is pending, never violated. A failed rule is an error or a warning by its
 * severity, with the (translated) rule message.
 */
export function evaluateRules(
  model: CompiledModel,
  state: EvaluationState,
  texts: LanguageTexts,
): LineRule[] {
  return model.rules.map((rule) => {
    let passed: boolean | 'pending' = true;
    if (state.ruleGate[rule.index] === 'applies') {
      if (rule.table !== undefined) passed = state.tableMatched[rule.index];
      else if (rule.assert !== undefined) {
        const value = rule.assert.condition(state.context);
        passed = value === UNKNOWN ? 'pending' : value;
      }
    }
    const status = state.ruleStatus(rule.index, passed);
    const message = texts.texts[rule.messageSlot];
    if (status === 'failed') {
      if (rule.severity === 'error') state.error('rule_failed', message, `rules.${rule.key}`);
      else state.warning('rule_failed', message, `rules.${rule.key}`);
    }
    return { key: rule.key, status, severity: rule.severity, message };
  });
}
