import { describe, expect, it } from 'vitest';
import { generateModel } from '../../../tools/gen-model.mjs';
import {
  compileDocument,
  evaluate,
  type CompiledModel,
  type EvaluationRequest,
  compactLine,
} from '../../../src/engine/work.js';
import { prng } from '../consistency/random-model.js';
import { randomAnswers, randomModelWithBom } from './random-configurations.js';
import { compileOk, windowDocument } from '../helpers.js';

/**
 * The compact view built by the engine (`view: 'compact'`, compact-questions.ts) against
 * the full line trimmed by compactLine, the view's reference: the same JSON, member
 * order included, and the same validity and problems.
 */
function expectSameCompactView(model: CompiledModel, request: EvaluationRequest, label: string) {
  const full = evaluate(model, { ...request, view: 'full' });
  const compact = evaluate(model, { ...request, view: 'compact' });
  const trimmed = compactLine(full.line);
  trimmed.cache = { ...trimmed.cache, evaluated_in_ms: 0 };
  compact.line.cache.evaluated_in_ms = 0;
  expect(JSON.stringify(compact.line), label).toBe(JSON.stringify(trimmed));
  expect(compact.valid, label).toBe(full.valid);
  expect(compact.errors, label).toEqual(full.errors);
  expect(compact.warnings, label).toEqual(full.warnings);
}

describe('the compact view built by the engine equals the trimmed full line', () => {
  it('on random small models with nested BOM items and random answers', () => {
    let compared = 0;
    let withDiscarded = 0;
    let withUnavailable = 0;
    for (let seed = 1; seed <= 150; seed++) {
      const random = prng(seed);
      const document = randomModelWithBom(random);
      const compiled = compileDocument(document);
      // Past the budget: the consistency members come from propagation instead.
      const propagated = compileDocument(document, { consistencyMs: 0 });
      if (!compiled.ok || !propagated.ok) continue;
      for (let i = 0; i < 4; i++) {
        const questions = randomAnswers(random, document);
        const request = { modelId: 1, versionNumber: 1, questions };
        expectSameCompactView(compiled.model, request, `seed ${seed}, answers ${i}`);
        expectSameCompactView(propagated.model, request, `seed ${seed}, answers ${i}, propagated`);
        const compact = evaluate(compiled.model, { ...request, view: 'compact' });
        if (compact.line.questions.some((q) => q.discarded)) withDiscarded++;
        if (compact.line.questions.some((q) => (q.options?.length ?? 0) > 0)) withUnavailable++;
        compared++;
      }
    }
    // The random answers reach the cases the view treats apart.
    expect(compared).toBeGreaterThan(400);
    expect(withDiscarded).toBeGreaterThan(10);
    expect(withUnavailable).toBeGreaterThan(50);
  });

  it('on the window example: BOM children, hidden answers, a language', () => {
    const model = compileOk(windowDocument());
    const configurations: Array<Record<string, unknown>> = [
      {},
      { width: { values: [1200] }, height: { values: [1000] }, frame: { values: ['alu'] } },
      { width: { values: [2600] }, frame: { values: ['wood'] }, color: { values: ['black'] } },
      { frame: { values: ['pvc'] }, nonsense: { values: [1] } },
    ];
    for (const [i, questions] of configurations.entries())
      for (const languageCode of [null, 'nl', 'xx'])
        expectSameCompactView(
          model,
          { modelId: 3, versionNumber: 2, questions, languageCode },
          `window ${i} ${languageCode}`,
        );
  });

  it('on a generated model with fired triggers and failed rules', () => {
    const { model: document, answers } = generateModel(60);
    const model = compileOk(document);
    const fired = { ...answers, q00000: { values: ['o3'] }, q00003: { values: [9000] } };
    for (const questions of [answers, fired]) {
      const compact = evaluate(model, {
        modelId: 1,
        versionNumber: 1,
        questions,
        view: 'compact',
      });
      expect(compact.line.triggers.every((trigger) => trigger.fired)).toBe(true);
      expectSameCompactView(model, { modelId: 1, versionNumber: 1, questions }, 'generated');
    }
    const withTrigger = evaluate(model, {
      modelId: 1,
      versionNumber: 1,
      questions: fired,
      view: 'compact',
    });
    expect(withTrigger.line.triggers.map((trigger) => trigger.key)).toContain('g00000');
  });
});
