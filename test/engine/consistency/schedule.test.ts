/**
 * The conjunction schedule by a tree decomposition (docs/adr/0121): the buckets cover
 * every part once, children come before their parent and inside its subtree; and whatever the budget, an exact compile gives the same diagram whether
 * the tree schedule finished or gave up to the prefix schedule.
 */
import { describe, expect, it } from 'vitest';
import { compileDocument } from '../../../src/engine/work.js';
import { MddStore } from '../../../src/engine/consistency/mdd.js';
import { OverCap } from '../../../src/engine/consistency/mdd-budget.js';
import { minFillOrder, treeSchedule } from '../../../src/engine/consistency/schedule.js';
import { chainedTablesModel, lcg } from '../helpers.js';

function randomScopes(questions: number, parts: number, seed: number): number[][] {
  const next = lcg(seed);
  return Array.from({ length: parts }, () => {
    const size = next(4);
    return [...new Set(Array.from({ length: size }, () => next(questions)))];
  });
}

describe('treeSchedule', () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`covers every part once, children first, subtrees nested (seed ${seed})`, () => {
      const questions = 6 + (seed % 5) * 5;
      const scopes = randomScopes(questions, questions + seed * 3, seed);
      const { buckets, roots } = treeSchedule(questions, scopes);
      const seen = scopes.map(() => 0);
      const parents = buckets.map(() => 0);
      buckets.forEach((bucket, b) => {
        for (const i of bucket.parts) seen[i]++;
        for (const child of bucket.children) {
          expect(child).toBeLessThan(b);
          parents[child]++;
          for (const q of buckets[child].questions) expect(bucket.questions).toContain(q);
        }
        // A part sits in the bucket of the first question of its scope to be eliminated.
        for (const i of bucket.parts) expect(scopes[i]).toContain(bucket.questions[0]);
      });
      scopes.forEach((scope, i) => expect(seen[i]).toBe(scope.length === 0 ? 0 : 1));
      buckets.forEach((_, b) => expect(parents[b]).toBe(roots.includes(b) ? 0 : 1));
      expect(minFillOrder(questions, scopes).sort((a, b) => a - b)).toEqual(
        Array.from({ length: questions }, (_, q) => q),
      );
    });
  }
});

describe('the schedule within the work budget', () => {
  it('gives the same count at every budget that compiles exactly (tree or prefix schedule, or the decision-DNNF)', () => {
    // Every table also allows all-o0: the model has a configuration to count.
    const document = chainedTablesModel(14, 9, { values: 5, rows: 25, openRow: true });
    const full = compileDocument(document, { consistencyMs: 3_600_000 });
    if (!full.ok) throw new Error('rejected');
    const expected = full.model.consistency.analysis.configurations;
    expect(expected).not.toBeNull();
    let exactRuns = 0;
    for (let steps = 1_000; steps <= 16_000_000 && exactRuns < 4; steps *= 2) {
      const result = compileDocument(document, {
        consistencyMs: 3_600_000,
        consistencySteps: steps,
      });
      if (!result.ok) throw new Error('rejected');
      const { analysis, compiled } = result.model.consistency;
      if (!analysis.exact) continue;
      exactRuns++;
      expect(analysis.configurations).toBe(expected);
      // Past the diagram's budget the decision-DNNF is exact too, with its own size.
      if (compiled) expect(analysis.size).toEqual(full.model.consistency.analysis.size);
    }
    expect(exactRuns).toBeGreaterThan(0);
  });

  it("a store's work cap throws OverCap (not a budget error)", () => {
    const store = new MddStore(new Int32Array([3, 3]), {
      deadline: Infinity,
      bytes: 1 << 30,
      steps: 1 << 30,
    });
    store.workCap = 10;
    expect(() => store.charge(2_048)).toThrow(OverCap);
  });
});
