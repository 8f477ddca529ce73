/**
 * The nearest valid configuration against brute force on random small models: minimal,
 * keeps the forced pick, earlier answers kept on ties, over the diagram, over the
 * decision-DNNF and past the compile budget; answers that do not fit the model dropped and listed.
 */
import { describe, expect, it } from 'vitest';
import { compileDocument, evaluate } from '../../../src/engine/work.js';
import {
  type Assignment,
  agrees,
  celValue,
  domainCount,
  type Fix,
  prng,
  userFixes,
  validAssignments,
} from '../consistency/random-model.js';
import {
  type Answers,
  compiledAs,
  FORMS,
  keeps,
  MODELS,
  pricedModel,
  randomAnswers,
  request,
  units,
} from './guided-models.js';

describe('the nearest valid configuration against brute force on random small models', () => {
  // 'decision-DNNF': the form a model past the diagram's budget gets (docs/adr/0193).
  for (const budget of FORMS)
    it(`${MODELS} models (${budget}): the resolution is minimal and keeps the forced pick`, () => {
      let resolved = 0;
      let forcedPicks = 0;
      for (let seed = 1; seed <= MODELS; seed++) {
        const random = prng(1000 + seed);
        const { document, specs } = pricedModel(random, 'decomposable');
        const compiled = compiledAs(document, budget);
        if (!compiled.ok) continue;
        const model = compiled.model;
        expect(model.consistency.compiled).toBe(budget === 'compiled');
        expect(model.consistency.dnnf !== undefined).toBe(budget === 'decision-DNNF');
        const valid = validAssignments(model, specs);
        for (let r = 0; r < 4; r++) {
          const answers = randomAnswers(random, specs, 0.7);
          const forcedAt = random() < 0.6 ? Math.floor(random() * specs.length) : -1;
          let resolve: true | { question: string; value: unknown } = true;
          let forcedFix: Fix | undefined;
          if (forcedAt >= 0) {
            const spec = specs[forcedAt];
            const code = 1 + Math.floor(random() * (domainCount(spec) - 1));
            const value = celValue(spec, code);
            if (spec.type === 'multi_choice') {
              const o = Math.floor(random() * spec.options.length);
              resolve = { question: spec.key, value: spec.options[o] };
              forcedFix = { question: forcedAt, code: 1 << o, mask: 1 << o };
            } else {
              resolve = {
                question: spec.key,
                value: typeof value === 'bigint' ? Number(value) : value,
              };
              forcedFix = { question: forcedAt, code, mask: -1 };
            }
            forcedPicks++;
          }
          const result = evaluate(model, request(answers, { resolve }));
          const context = `seed ${seed} answers ${JSON.stringify(answers)} resolve ${JSON.stringify(resolve)}`;
          const candidates = valid.filter(
            (assignment) => forcedFix === undefined || agrees(assignment, [forcedFix]),
          );
          const resolution = result.line.resolution;
          expect(resolution, context).toBeDefined();
          if (candidates.length === 0) {
            expect(
              result.errors.map((error) => error.code),
              context,
            ).toContain('resolution_impossible');
            continue;
          }
          resolved++;
          // The answer units the contract counts (the forced question's own do not count).
          const counted = units(specs, answers).filter((unit) => unit.q !== forcedAt);
          const cost = (assignment: Assignment) =>
            counted.filter((unit) => !keeps(unit, assignment)).length;
          const least = Math.min(...candidates.map(cost));
          // What the resolution changed, in the same units.
          const after: Answers = {};
          for (const question of result.line.questions)
            if (question.source === 'user' || question.source === 'completion')
              after[question.key] = { values: question.values };
          const changedUnits = (resolution?.changes ?? []).reduce((sum, change) => {
            const q = specs.findIndex((spec) => spec.key === change.question);
            if (q === forcedAt) return sum;
            if (specs[q].type !== 'multi_choice') return sum + 1;
            return sum + change.from.filter((value) => !change.to.includes(value)).length;
          }, 0);
          if (resolution?.exact) expect(changedUnits, context).toBe(least);
          else expect(changedUnits, context).toBeGreaterThanOrEqual(least);
          // A' is completable and keeps the forced pick.
          const fixes = userFixes(result.line, specs);
          expect(
            valid.some((assignment) =>
              agrees(assignment, [...fixes, ...(forcedFix ? [forcedFix] : [])]),
            ),
            context,
          ).toBe(true);
          expect(
            result.errors.filter((error) => error.code === 'conflict'),
            context,
          ).toEqual([]);
          if (budget !== 'past the budget') {
            expect(resolution?.exact, context).toBe(true);
            // Ties keep the answers of earlier questions: the kept units are the
            // lexicographically greatest among the nearest configurations.
            const kept = (assignment: Assignment) =>
              counted.map((unit) => (keeps(unit, assignment) ? '1' : '0')).join('');
            const best = candidates
              .filter((assignment) => cost(assignment) === least)
              .map(kept)
              .sort()
              .reverse()[0];
            const mine = counted
              .map((unit) => {
                const change = resolution?.changes.find((c) => c.question === specs[unit.q].key);
                if (change === undefined) return '1';
                if (unit.bit === 0) return '0';
                const option = specs[unit.q].options[Math.log2(unit.bit)];
                return change.to.includes(option) ? '1' : '0';
              })
              .join('');
            expect(mine, context).toBe(best);
          }
        }
      }
      expect(resolved).toBeGreaterThan(60);
      expect(forcedPicks).toBeGreaterThan(30);
    }, 300_000);

  it('drops answers that do not fit the model and lists them as changes', () => {
    const random = prng(7);
    const { document } = pricedModel(random, 'decomposable');
    const questions = document.questions as Array<Record<string, unknown>>;
    questions.push(
      { key: 'size', type: 'integer', label: 'size', min: 1, max: 5 },
      { key: 'pick', type: 'choice', label: 'pick', options: [{ key: 'a', label: 'a' }] },
    );
    const compiled = compileDocument(document);
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
    const result = evaluate(
      compiled.model,
      request(
        { gone: { values: ['x'] }, size: { values: [9] }, pick: { values: ['750'] } },
        { resolve: true },
      ),
    );
    expect(result.errors.map((error) => error.code)).not.toContain('unknown_question');
    expect(result.line.resolution?.changes).toEqual([
      { question: 'size', from: [9], to: [] },
      { question: 'pick', from: ['750'], to: [] },
      { question: 'gone', from: ['x'], to: [] },
    ]);
  });
});
