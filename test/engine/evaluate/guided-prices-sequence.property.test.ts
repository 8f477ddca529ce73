/**
 * Price bounds carry work from one evaluation to the next (consistency/pair-pass.ts keeps
 * the backward weights of the nodes below the deepest changed answer; segment-weights.ts
 * keeps results per segment). After any sequence of clicks on one compiled model — an
 * answer added, changed, removed, the same answers again, an earlier answer set — the
 * bounds must equal a fresh computation (also after walks stopped past their work budget),
 * and the per-segment passes must equal the whole-diagram passes of weighted.ts.
 */
import { describe, expect, it } from 'vitest';
import { segmentedMinPair } from '../../../src/engine/consistency/segment-weights.js';
import { minPass, valueMins } from '../../../src/engine/consistency/weighted.js';
import { compileDocument, evaluate } from '../../../src/engine/work.js';
import { domainCount, prng } from '../consistency/random-model.js';
import { type Answers, MODELS, pricedModel, request, type Specs } from './guided-models.js';

type Random = () => number;

/** The next click: add or change an answer (most often), remove one, or go back. */
function click(random: Random, specs: Specs, answers: Answers, seen: Answers[]): Answers {
  const roll = random();
  if (roll < 0.1 && seen.length > 0) return seen[Math.floor(random() * seen.length)];
  if (roll < 0.15) return answers;
  const keys = Object.keys(answers);
  if (roll < 0.3 && keys.length > 0) {
    const { [keys[Math.floor(random() * keys.length)]]: _removed, ...rest } = answers;
    return rest;
  }
  const spec = specs[Math.floor(random() * specs.length)];
  const code = 1 + Math.floor(random() * (domainCount(spec) - 1));
  const value =
    spec.type === 'choice'
      ? spec.options[code - 1]
      : spec.type === 'boolean'
        ? code === 2
        : spec.type === 'multi_choice'
          ? spec.options.filter((_, o) => (code & (1 << o)) !== 0)
          : (spec.min as number) + code - 1;
  return { ...answers, [spec.key]: { values: Array.isArray(value) ? value : [value] } };
}

/** What a line says about prices: the range, its status, every option's and value's bounds. */
function prices(line: ReturnType<typeof evaluate>['line']): unknown {
  return {
    range: line.price_range,
    status: line.price_bounds,
    questions: line.questions.map((question) => ({
      options: ((question.options ?? []) as Array<{ price_from?: string; price_to?: string }>).map(
        (option) => [option.price_from, option.price_to],
      ),
      values: question.value_prices,
    })),
  };
}

describe('price bounds after a sequence of clicks', () => {
  // diagram false: the decision-DNNF's passes, which reuse their arrays from click to click.
  it.each([{ diagram: true }, { diagram: false }])(
    `${MODELS} models, diagram $diagram: equal a fresh computation at every click`,
    ({ diagram }) => {
      let clicks = 0;
      for (let seed = 1; seed <= MODELS; seed++) {
        const random = prng(1000 + seed);
        const { document, specs } = pricedModel(random, seed % 3 === 0 ? 'other' : 'decomposable');
        const compiled = compileDocument(document, undefined, { diagram });
        if (!compiled.ok) continue;
        let answers: Answers = {};
        const seen: Answers[] = [];
        for (let step = 0; step < 14; step++) {
          answers = click(random, specs, answers, seen);
          seen.push(answers);
          const kept = evaluate(compiled.model, request(answers)).line;
          const fresh = compileDocument(document, undefined, { diagram });
          if (!fresh.ok) throw new Error('the same document compiles once and not twice');
          const context = `seed ${seed} step ${step} answers ${JSON.stringify(answers)}`;
          expect(prices(kept), context).toEqual(
            prices(evaluate(fresh.model, request(answers)).line),
          );
          clicks++;
        }
      }
      expect(clicks).toBeGreaterThan(200);
    },
    300_000,
  );

  it('a walk stopped past its work budget leaves later passes exact', () => {
    let stopped = 0;
    let compared = 0;
    for (let seed = 1; seed <= MODELS; seed++) {
      const random = prng(3000 + seed);
      const { document, specs } = pricedModel(random, 'decomposable');
      const compiled = compileDocument(document);
      if (!compiled.ok || !compiled.model.consistency.compiled) continue;
      let answers: Answers = {};
      const seen: Answers[] = [];
      for (let step = 0; step < 14; step++) {
        answers = click(random, specs, answers, seen);
        seen.push(answers);
        // A budget that often runs out inside a walk: its backward weights so far are kept.
        const budget = Math.floor(random() * 40);
        const cut = evaluate(compiled.model, request(answers, { priceBoundsWork: budget })).line;
        if (cut.price_bounds?.exact === false) stopped++;
        const kept = evaluate(compiled.model, request(answers)).line;
        const fresh = compileDocument(document);
        if (!fresh.ok) throw new Error('the same document compiles once and not twice');
        const context = `seed ${seed} step ${step} budget ${budget}`;
        expect(prices(kept), context).toEqual(prices(evaluate(fresh.model, request(answers)).line));
        compared++;
      }
    }
    expect(stopped).toBeGreaterThan(50);
    expect(compared).toBeGreaterThan(200);
  });

  it('segment by segment, both weights at once, equal the whole-diagram passes', () => {
    let compared = 0;
    for (let seed = 1; seed <= MODELS; seed++) {
      const random = prng(2000 + seed);
      const { document } = pricedModel(random, 'decomposable');
      const compiled = compileDocument(document);
      if (!compiled.ok || !compiled.model.consistency.compiled) continue;
      const form = compiled.model.consistency;
      const values = form.valueBase[form.domain.length];
      const a = Float64Array.from({ length: values }, () => Math.floor(random() * 200) - 50);
      const b = Float64Array.from({ length: values }, () => Math.floor(random() * 200) - 50);
      // Restrictions as clicks leave them: one layer set or freed at a time, now and then
      // several, or an earlier vector again.
      const layers = form.domain.length;
      let fixed: Int32Array = new Int32Array(layers).fill(-1);
      const seen: Int32Array[] = [];
      for (let step = 0; step < 14; step++) {
        const roll = random();
        if (roll < 0.1 && seen.length > 0) fixed = seen[Math.floor(random() * seen.length)];
        else {
          fixed = fixed.slice();
          for (let changes = roll < 0.25 ? 3 : 1; changes > 0; changes--) {
            const layer = Math.floor(random() * layers);
            fixed[layer] = random() < 0.25 ? -1 : Math.floor(random() * form.domain[layer]);
          }
        }
        seen.push(fixed);
        const both = segmentedMinPair(form, [a, b], fixed);
        if (both === undefined) throw new Error('no work budget given: the passes complete');
        const [least, other] = both;
        for (const [weight, got] of [
          [a, least],
          [b, other],
        ] as const) {
          const pass = minPass(form, weight, fixed);
          const through = valueMins(form, weight, fixed, pass);
          const context = `seed ${seed} step ${step}`;
          expect(got.best, context).toBe(pass.best);
          expect(Array.from(got.through), context).toEqual(Array.from(through));
        }
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(200);
  });
});
