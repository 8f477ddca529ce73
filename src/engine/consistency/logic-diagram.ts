import type { LogicalRule } from '../model-core.js';
import type { LayerPlan } from './domains.js';
import { FALSE, type MddStore, TRUE } from './mdd.js';

/**
 * The diagram of a logical rule over its literals' layers, built directly (no
 * enumeration): a counter of the literals that hold so far, one node per layer and count.
 * A clause (at least 1) is a chain of one node per layer; `at_least k` / `at_most k` of n
 * literals at most n × (k + 1) nodes. A single-value question's "no value" is an open
 * literal: it counts for `at_least` and not for `at_most` (evaluate/logical-rule.ts reads
 * answers the same way), so the rule never fails for an unanswered question.
 */
export function logicDiagram(store: MddStore, plan: LayerPlan, rule: LogicalRule): number {
  const atLeast = rule.bound === 'at_least';
  const k = rule.count;
  // Per layer a literal reads: per value, how many of the rule's literals it satisfies.
  const gains = new Map<number, Int32Array>();
  for (let i = 0; i < rule.questions.length; i++) {
    const q = rule.questions[i];
    const multi = plan.domains[q]?.kind === 'multi';
    const option = rule.options[i];
    const layer = plan.firstLayer[q] + (multi ? option : 0);
    const size = plan.domain[layer];
    let gain = gains.get(layer);
    if (gain === undefined) gains.set(layer, (gain = new Int32Array(size)));
    const negated = rule.negated[i] === 1;
    for (let v = 0; v < size; v++) {
      // multi_choice layers: 0 not selected, 1 selected; single: 0 no value, then v - 1.
      if (!multi && v === 0) {
        if (atLeast) gain[v]++;
        continue;
      }
      const equal = multi ? v === 1 : v - 1 === option;
      if (equal !== negated) gain[v]++;
    }
  }
  const layers = [...gains.keys()].sort((a, b) => a - b);
  // States: literals holding so far, capped where the outcome is settled (k reached for
  // at_least: TRUE; k + 1 for at_most: FALSE).
  const cap = atLeast ? k : k + 1;
  const settled = atLeast ? TRUE : FALSE;
  let below = new Int32Array(cap + 1);
  for (let s = 0; s <= cap; s++) below[s] = (atLeast ? s >= k : s <= k) ? TRUE : FALSE;
  for (let i = layers.length - 1; i >= 0; i--) {
    const layer = layers[i];
    const gain = gains.get(layer) as Int32Array;
    const children = new Int32Array(gain.length);
    const current = new Int32Array(cap + 1);
    current[cap] = settled;
    for (let s = 0; s < cap; s++) {
      for (let v = 0; v < gain.length; v++) children[v] = below[Math.min(cap, s + gain[v])];
      current[s] = store.node(layer, children);
    }
    below = current;
  }
  return below[0];
}
