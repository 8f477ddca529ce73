/**
 * When a click asks for price bounds over a diagram, availability takes its supported values
 * from the bounds' walks instead of its own top-down pass (evaluate/bounds-first.ts,
 * docs/adr/0236). On random priced models and answer sets (conflicting ones too), a line
 * evaluated with price bounds must say exactly what the same line says without them, apart
 * from the prices the bounds add: availability, reasons, counts, errors. Each answer set is
 * evaluated twice with bounds, the second time with availability's results kept.
 */
import { describe, expect, it } from 'vitest';
import { compileDocument, evaluate } from '../../../src/engine/work.js';
import { randomlyPriced } from '../../../bench/random-prices.js';
import { chainModel } from '../consistency/chain-model.js';
import { prng } from '../consistency/random-model.js';
import { MODELS, pricedModel, randomAnswers, request } from './guided-models.js';

/** What the price bounds add to a line, and the one member that differs between two runs. */
const BOUND_KEYS = [
  'price_from',
  'price_to',
  'price_range',
  'price_bounds',
  'value_prices',
  'option_prices',
];
const TIMING = 'evaluated_in_ms';

/** The evaluation as JSON, without the members named in `leftOut`. */
function without(result: unknown, leftOut: readonly string[]): unknown {
  return JSON.parse(
    JSON.stringify(result, (key, value: unknown) => (leftOut.includes(key) ? undefined : value)),
  );
}

describe('availability from the price bounds’ walks', () => {
  it(`equals availability's own pass on ${MODELS} random priced models`, () => {
    let compared = 0;
    let unavailable = 0;
    for (let seed = 1; seed <= MODELS; seed++) {
      const random = prng(9100 + seed);
      const { document, specs } = pricedModel(random, 'decomposable');
      const compiled = compileDocument(document);
      if (!compiled.ok) continue;
      const model = compiled.model;
      for (let r = 0; r < 8; r++) {
        const answers = randomAnswers(random, specs, 0.2 + 0.1 * (r % 4));
        const context = `seed ${seed} answers ${JSON.stringify(answers)}`;
        const plain = evaluate(model, request(answers, { priceBounds: false }));
        const bounded = evaluate(model, request(answers));
        const again = evaluate(model, request(answers));
        expect(bounded.line.price_bounds?.exact, context).toBe(true);
        expect(without(bounded, [...BOUND_KEYS, TIMING]), context).toEqual(
          without(plain, [...BOUND_KEYS, TIMING]),
        );
        expect(without(again, [TIMING]), context).toEqual(without(bounded, [TIMING]));
        compared++;
        for (const question of plain.line.questions)
          for (const option of question.options ?? []) if (!option.available) unavailable++;
      }
    }
    expect(compared).toBeGreaterThan(100);
    expect(unavailable).toBeGreaterThan(100);
  }, 120_000);

  it('counts past 2^53 as availability does, along a walk on a chain of tables', () => {
    const random = prng(31);
    const compiled = compileDocument(randomlyPriced(chainModel(36, 6, random), random));
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
    const model = compiled.model;
    const answers: Record<string, { values: unknown[] }> = {};
    const counts: string[] = [];
    for (let step = 0; step < 30; step++) {
      const plain = evaluate(model, request(answers, { priceBounds: false }));
      const bounded = evaluate(model, request(answers));
      expect(without(bounded, [...BOUND_KEYS, TIMING]), `step ${step}`).toEqual(
        without(plain, [...BOUND_KEYS, TIMING]),
      );
      counts.push(plain.line.consistency?.configurations ?? '');
      const open = plain.line.questions.filter((question) => question.values.length === 0);
      const question = open[Math.floor(random() * open.length)];
      const options = (question.options ?? []).filter((option) => option.available);
      answers[question.key] = { values: [options[Math.floor(random() * options.length)].key] };
    }
    expect(BigInt(counts[0])).toBeGreaterThan(2n ** 60n);
    expect(BigInt(counts[counts.length - 1])).toBeLessThan(2n ** 52n);
  }, 120_000);
});
