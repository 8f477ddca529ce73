/**
 * The time budget while expressions are enumerated (docs/model-format.md "Consistency": past the
 * compile budget a model is accepted with `exact: false`). The store checked the deadline
 * only every 1,024 new nodes, and enumerating a rule whose result is (almost) all TRUE
 * creates next to none: two 315-option questions and a ~1,000,000-unit assert took 135 s
 * against 30 s and came back exact. The enumeration now checks the deadline itself.
 */
import { describe, expect, it } from 'vitest';
import { compileDocument, type CompiledModel } from '../../../src/engine/work.js';
import { consistencyTimeLimitMs } from '../../../src/engine/consistency/fallback.js';
import { TIME_BUDGET_REASON } from '../../../src/engine/consistency/mdd-budget.js';
import { choice, evaluate, model, rule } from '../helpers.js';

const keys = (n: number) => Array.from({ length: n }, (_, i) => `o${i}`);
const list = Array.from({ length: 80 }, (_, i) => i).join(',');

/**
 * Two choice questions of n options and one error rule refusing (o1, o2), its assert
 * costing ~1,000,000 units (~1.4 ms) per assignment: n = 60 is 3,721 assignments, ~5 s.
 */
const costly = (n: number) =>
  model({
    questions: [choice('a', keys(n)), choice('b', keys(n))],
    rules: [
      {
        key: 'r',
        message: 'not o1 with o2',
        assert: `cel.bind(l, [${list}], l.all(x, l.all(y, a != 'o1' || b != 'o2')))`,
      },
    ],
  });

function compiled(document: unknown, consistencyMs?: number): CompiledModel {
  const limits = consistencyMs === undefined ? {} : { consistencyMs };
  const result = compileDocument(document, limits);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.model;
}

describe('the consistency time budget during enumeration', () => {
  it('a small instance is exact within the default budget (the rule itself is fine)', () => {
    const analysis = compiled(costly(4)).consistency.analysis;
    expect(analysis.exact).toBe(true);
    expect(analysis.configurations).toBe(String(5 * 5 - 1));
  });

  it('past a 50 ms budget the enumeration stops: not exact, the deadline the reason', () => {
    const result = compiled(costly(60), 50);
    const { analysis } = result.consistency;
    expect(result.consistency.compiled).toBe(false);
    expect(analysis.exact).toBe(false);
    expect(analysis.reason).toContain(TIME_BUDGET_REASON);
    // The fallback's own (fresh) budget runs out on the same rule: it stays out of
    // propagation, named in the reason, and its local check keeps applying.
    expect(analysis.reason).toContain('1 parts past the propagation budget (rules.r)');
    const refused = evaluate(result, { a: 'o1', b: 'o2' });
    expect(rule(refused, 'r')).toMatchObject({ status: 'failed' });
    expect(rule(evaluate(result, { a: 'o1', b: 'o3' }), 'r')).toMatchObject({ status: 'passed' });
  });

  it('diagram and fallback are each bounded: the compile worker allows for both', () => {
    const limits = {
      consistencyMs: 50,
      consistencyBytes: 256 * 1024 * 1024,
      consistencySteps: 1e8,
    };
    expect(consistencyTimeLimitMs(limits)).toBe(100);
    // A zero budget skips the diagram; the fallback then has the default 30 s.
    expect(consistencyTimeLimitMs({ ...limits, consistencyMs: 0 })).toBe(30_000);
    expect(consistencyTimeLimitMs({ ...limits, consistencyBytes: 0 })).toBe(30_000);
    expect(consistencyTimeLimitMs({ ...limits, consistencyMs: 30_000 })).toBe(60_000);
  });
});
