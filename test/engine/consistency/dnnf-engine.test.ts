/**
 * An all-boolean model past the decision diagram's budget (docs/adr/0193): a 300-feature
 * CNF shaped like a feature model (a tree of `child ⇒ parent`, cross-tree implications and
 * exclusions) needs more than the diagram's 2 million steps given a table-free finite
 * part, and compiles into a decision-DNNF instead. It is exact: its count, the counts
 * under answers and each value's availability equal bench/count-cnf.ts, an independent
 * #SAT counter; the stored form (format 6) answers the same. With features priced, its
 * guided configuration is exact at that size (docs/adr/0209): bounds, the cheapest
 * completion at their minimum, forced picks resolved without a conflict.
 */
import { describe, expect, it } from 'vitest';
import { countModels } from '../../../bench/count-cnf.js';
import { compileDocument, evaluate } from '../../../src/engine/work.js';
import { deserializeConsistency, serializeConsistency } from '../../../src/engine/work.js';
import { dimacsToModel } from '../../../tools/dimacs-to-model.mjs';
import { prng } from '../../support/prng.js';

const VARIABLES = 300;

function featureClauses(random: () => number): number[][] {
  const clauses: number[][] = [[1]];
  for (let v = 2; v <= VARIABLES; v++)
    clauses.push([-v, Math.max(1, v - 1 - Math.floor(random() * 6))]);
  for (let c = 0; c < 80; c++) {
    const a = 1 + Math.floor(random() * VARIABLES);
    const b = 1 + Math.floor(random() * VARIABLES);
    if (a !== b) clauses.push([-a, random() < 0.5 ? b : -b]);
  }
  return clauses;
}

describe('an all-boolean model past the diagram budget', () => {
  const clauses = featureClauses(prng(7));
  const text = [`p cnf ${VARIABLES} ${clauses.length}`, ...clauses.map((c) => `${c.join(' ')} 0`)];
  const { document } = dimacsToModel(text.join('\n'), { name: 'feature tree', indexKeys: true });
  const compiled = compileDocument(document);
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
  const model = compiled.model;
  const key = (v: number): string => model.questions[v - 1].key;

  it('compiles into a decision-DNNF, exact, its count the independent count', () => {
    expect(model.consistency.dnnf).toBeDefined();
    expect(model.consistency.analysis.exact).toBe(true);
    expect(model.consistency.analysis.configurations).toBe(String(countModels(VARIABLES, clauses)));
  });

  it('answers: counts and each value availability equal the independent counter', () => {
    const random = prng(11);
    const stored = deserializeConsistency(serializeConsistency(model.consistency));
    expect(stored?.dnnf?.root).toBe(model.consistency.dnnf?.root);
    const reloaded = compileDocument(document, undefined, { consistency: stored });
    if (!reloaded.ok) throw new Error('reload');
    for (let round = 0; round < 3; round++) {
      const answered = new Map<number, boolean>();
      while (answered.size < 4) answered.set(1 + Math.floor(random() * VARIABLES), random() < 0.6);
      const units = (skip = -1): number[][] =>
        [...answered].filter(([v]) => v !== skip).map(([v, yes]) => [yes ? v : -v]);
      const questions = Object.fromEntries(
        [...answered].map(([v, yes]) => [key(v), { values: [yes] }]),
      );
      for (const which of [model, reloaded.model]) {
        const line = evaluate(which, { modelId: 1, versionNumber: 1, questions }).line;
        const expected = countModels(VARIABLES, [...clauses, ...units()]);
        expect(line.consistency.configurations, `round ${round}`).toBe(String(expected));
        for (let probe = 0; probe < 6; probe++) {
          const v = probe < 2 ? [...answered.keys()][probe] : 1 + Math.floor(random() * VARIABLES);
          const unavailable = [false, true].filter(
            (yes) => countModels(VARIABLES, [...clauses, ...units(v), [yes ? v : -v]]) === 0n,
          );
          const shown = line.questions.find((q) => q.key === key(v));
          expect(shown?.unavailable_values ?? [], `round ${round} ${key(v)}`).toEqual(unavailable);
        }
      }
    }
  });
});

describe('guided configuration on the all-boolean model past the diagram budget', () => {
  const clauses = featureClauses(prng(7));
  const text = [`p cnf ${VARIABLES} ${clauses.length}`, ...clauses.map((c) => `${c.join(' ')} 0`)];
  const { document } = dimacsToModel(text.join('\n'), { name: 'feature tree', indexKeys: true });
  const random = prng(13);
  const questions = document.questions as Array<{ key: string }>;
  const priced = {
    ...document,
    pricing: {
      base_price: '100.00',
      adjustments: questions
        .filter(() => random() < 0.3)
        .map((question) => ({
          key: `price_${question.key}`,
          label: 'feature',
          amount: String(1 + Math.floor(random() * 90)),
          when: `${question.key} == true`,
        })),
    },
  };
  const compiled = compileDocument(priced);
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
  const model = compiled.model;
  const request = (answers: Record<string, { values: unknown[] }>, extra = {}) => ({
    modelId: 1,
    versionNumber: 1,
    questions: answers,
    ...extra,
  });

  it('exact price bounds; the cheapest completion costs their minimum; a forced pick resolves exactly', () => {
    expect(model.consistency.dnnf).toBeDefined();
    const deadValues = new Map(
      evaluate(model, request({})).line.questions.map((q) => [q.key, q.unavailable_values ?? []]),
    );
    let forced = 0;
    for (let round = 0; round < 6; round++) {
      const answers: Record<string, { values: unknown[] }> = {};
      for (let i = 0; i < 5; i++) {
        const line = evaluate(model, request(answers)).line;
        const open = line.questions.filter(
          (q) => q.values.length === 0 && (q.unavailable_values ?? []).length === 0,
        );
        const question = open[Math.floor(random() * open.length)];
        answers[question.key] = { values: [random() < 0.5] };
      }
      const line = evaluate(model, request(answers)).line;
      expect(line.price_bounds, `round ${round}`).toEqual({ exact: true });
      const range = line.price_range as { min: string; max: string };
      const cheapest = evaluate(model, request(answers, { complete: 'cheapest' })).line;
      expect(cheapest.pricing.total, `round ${round}`).toBe(range.min);
      // Each value of an unanswered question has bounds within the line's range (an
      // answered question's other value is priced with its answer left out).
      for (const question of line.questions.filter((q) => answers[q.key] === undefined))
        for (const bounds of Object.values(question.value_prices ?? {})) {
          expect(Number(bounds.from)).toBeGreaterThanOrEqual(Number(range.min));
          expect(Number(bounds.to)).toBeLessThanOrEqual(Number(range.max));
        }
      // A value the answers block but some configuration has (not blocked with no answers).
      const blocked = line.questions.find((q) =>
        (q.unavailable_values ?? []).some((v) => !deadValues.get(q.key)?.includes(v)),
      );
      if (blocked === undefined) continue;
      const value = (blocked.unavailable_values ?? []).find(
        (v) => !deadValues.get(blocked.key)?.includes(v),
      );
      const resolved = evaluate(
        model,
        request(answers, { resolve: { question: blocked.key, value } }),
      );
      const resolution = resolved.line.resolution;
      if (resolved.errors.some((error) => error.code === 'resolution_impossible')) continue;
      expect(resolution?.exact, `round ${round}`).toBe(true);
      expect(resolution?.changes.length, `round ${round}`).toBeGreaterThan(0);
      expect(resolved.errors.filter((error) => error.code === 'conflict')).toEqual([]);
      expect(resolved.line.questions.find((q) => q.key === blocked.key)?.values).toEqual([value]);
      forced++;
    }
    expect(forced).toBeGreaterThan(0);
  }, 120_000);
});
