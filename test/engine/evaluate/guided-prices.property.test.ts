/**
 * Price bounds, `allowed` ranges and the cheapest completion against brute force on random
 * small models (docs/model-format.md "Guided configuration").
 */
import { describe, expect, it } from 'vitest';
import { compileDocument, evaluate } from '../../../src/engine/work.js';
import {
  agrees,
  domainCount,
  prng,
  userFixes,
  validAssignments,
} from '../consistency/random-model.js';
import {
  cents,
  MODELS,
  pricedModel,
  randomAnswers,
  request,
  totalsOf,
  withValue,
} from './guided-models.js';

describe('price bounds and ranges against brute force on random small models', () => {
  // diagram false: the decision-DNNF a model past the diagram's budget gets (docs/adr/0193).
  it.each([{ diagram: true }, { diagram: false }])(
    `${MODELS} models, diagram $diagram: price bounds, ranges, cheapest completion`,
    ({ diagram }) => {
      let checkedOptions = 0;
      let inexact = 0;
      for (let seed = 1; seed <= MODELS; seed++) {
        const random = prng(seed);
        const kind = seed % 3 === 0 ? 'other' : 'decomposable';
        const { document, specs } = pricedModel(random, kind);
        const compiled = compileDocument(document, undefined, { diagram });
        if (!compiled.ok) continue;
        const model = compiled.model;
        expect(model.consistency.dnnf === undefined).toBe(diagram);
        const valid = validAssignments(model, specs);
        if (valid.length > 1500) continue;
        const totals = totalsOf(model, specs, valid);
        for (let r = 0; r < 6; r++) {
          const answers = randomAnswers(random, specs, 0.35);
          // Past the work budget (every 3rd request): sound bounds from the supported values.
          const boxed = r % 3 === 2;
          const result = evaluate(model, request(answers, boxed ? { priceBoundsWork: -1 } : {}));
          const line = result.line;
          const context = `seed ${seed} ${kind} answers ${JSON.stringify(answers)} boxed ${boxed}`;
          const fixes = userFixes(line, specs);
          const inRange = totals.filter((_, i) => agrees(valid[i], fixes));
          const exact = line.price_bounds?.exact === true;
          if (kind === 'other' || boxed) expect(exact, context).toBe(false);
          else expect(exact, context).toBe(true);
          if (!exact) inexact++;
          if (inRange.length === 0) expect(line.price_range, context).toBeNull();
          else {
            const range = line.price_range as { min: string; max: string };
            if (exact) {
              expect(cents(range.min), context).toBe(Math.min(...inRange));
              expect(cents(range.max), context).toBe(Math.max(...inRange));
            } else {
              expect(cents(range.min), context).toBeLessThanOrEqual(Math.min(...inRange));
              expect(cents(range.max), context).toBeGreaterThanOrEqual(Math.max(...inRange));
            }
          }
          specs.forEach((spec, q) => {
            const question = line.questions[q];
            if (spec.type === 'integer') {
              const admissible: number[] = [];
              for (let code = 1; code < domainCount(spec); code++) {
                const others = fixes.filter((fix) => fix.question !== q);
                const fix = { question: q, code, mask: -1 };
                if (valid.some((assignment) => agrees(assignment, [...others, fix])))
                  admissible.push((spec.min as number) + code - 1);
              }
              const listed = (question.allowed ?? []).flatMap(([from, to]) =>
                Array.from({ length: to - from + 1 }, (_, i) => from + i),
              );
              expect(listed, `${context} ${spec.key}`).toEqual(admissible);
              return;
            }
            if (spec.type !== 'choice' && spec.type !== 'multi_choice') return;
            (question.options ?? []).forEach((option, o) => {
              if (!option.available) return;
              const through = totals.filter((_, i) =>
                agrees(valid[i], withValue(fixes, specs, q, o)),
              );
              const where = `${context} ${spec.key}.${option.key}`;
              expect(through.length, where).toBeGreaterThan(0);
              expect(option.price_from, where).toBeDefined();
              const from = cents(option.price_from as string);
              const to = cents(option.price_to as string);
              if (exact) {
                expect(from, where).toBe(Math.min(...through));
                expect(to, where).toBe(Math.max(...through));
              } else {
                expect(from, where).toBeLessThanOrEqual(Math.min(...through));
                expect(to, where).toBeGreaterThanOrEqual(Math.max(...through));
              }
              checkedOptions++;
            });
          });
          // The cheapest completion: valid, keeps the answers, totals the least of the range.
          if (inRange.length > 0 && exact && !boxed) {
            const completed = evaluate(model, request(answers, { complete: 'cheapest' }));
            expect(
              completed.errors.filter((error) => error.code === 'conflict'),
              context,
            ).toEqual([]);
            expect(cents(completed.line.pricing.total), context).toBe(Math.min(...inRange));
            for (const question of completed.line.questions)
              if (answers[question.key] === undefined && question.values.length > 0)
                expect(question.source, context).toMatch(/completion|default|trigger/);
          }
        }
      }
      expect(checkedOptions).toBeGreaterThan(100);
      expect(inexact).toBeGreaterThan(10);
    },
    300_000,
  );
});
