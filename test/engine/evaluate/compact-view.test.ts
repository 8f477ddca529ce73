import { describe, expect, it } from 'vitest';
import { generateModel } from '../../../tools/gen-model.mjs';
import {
  compactLine,
  compileModel,
  evaluateConfiguration,
  type CompiledModel,
  type EvaluationRequest,
} from '../../../src/engine/index.js';
import { prng, randomModel } from '../consistency/random-model.js';
import { compileOk, windowDocument } from '../helpers.js';

type Random = () => number;

/**
 * The compact view built by the engine (`view: 'compact'`, compact-questions.ts) against
 * the full line trimmed by compactLine, the view's reference: the same JSON, member
 * order included, and the same validity and problems.
 */
function expectSameCompactView(model: CompiledModel, request: EvaluationRequest, label: string) {
  const full = evaluateConfiguration(model, { ...request, view: 'full' });
  const compact = evaluateConfiguration(model, { ...request, view: 'compact' });
  const trimmed = compactLine(full.line);
  trimmed.cache = { ...trimmed.cache, evaluated_in_ms: 0 };
  compact.line.cache.evaluated_in_ms = 0;
  expect(JSON.stringify(compact.line), label).toBe(JSON.stringify(trimmed));
  expect(compact.valid, label).toBe(full.valid);
  expect(compact.errors, label).toEqual(full.errors);
  expect(compact.warnings, label).toEqual(full.warnings);
}

/** BOM items over the random model's questions: nested, each included or not by a condition. */
function randomBom(random: Random, keys: readonly string[]): Array<Record<string, unknown>> {
  const item = (key: string, depth: number): Record<string, unknown> => {
    const read = keys[Math.floor(random() * keys.length)];
    const children =
      depth < 2 && random() < 0.5
        ? [item(`${key}_a`, depth + 1), item(`${key}_b`, depth + 1)]
        : undefined;
    return {
      key,
      sku: key.toUpperCase(),
      description: `Part ${key}`,
      ...(random() < 0.7 && { when: `${read} != null` }),
      quantity: 1 + Math.floor(random() * 3),
      unit_price: `${Math.floor(random() * 20)}.50`,
      ...(children && { children }),
    };
  };
  return Array.from({ length: 1 + Math.floor(random() * 3) }, (_, i) => item(`b${i}`, 0));
}

/** Answers to a random part of the questions: in the domain, out of range, or unknown. */
function randomAnswers(random: Random, document: Record<string, unknown>): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const question of document.questions as Array<Record<string, unknown>>) {
    if (random() < 0.4) continue;
    const options = ((question.options as Array<{ key: string }> | undefined) ?? []).map(
      (option) => option.key,
    );
    const odd = random() < 0.1;
    let values: unknown[];
    switch (question.type) {
      case 'choice':
        values = [odd ? 'unknown' : options[Math.floor(random() * options.length)]];
        break;
      case 'multi_choice':
        values = options.filter(() => random() < 0.5);
        break;
      case 'boolean':
        values = [random() < 0.5];
        break;
      default:
        values = [(question.min as number) + Math.floor(random() * 3) + (odd ? 5 : 0)];
    }
    answers[question.key as string] = { values };
  }
  return answers;
}

describe('the compact view built by the engine equals the trimmed full line', () => {
  it('on random small models with nested BOM items and random answers', () => {
    let compared = 0;
    let withDiscarded = 0;
    let withUnavailable = 0;
    for (let seed = 1; seed <= 150; seed++) {
      const random = prng(seed);
      const { document, specs } = randomModel(random);
      document.bom_items = randomBom(
        random,
        specs.map((spec) => spec.key),
      );
      const compiled = compileModel(document);
      // Past the budget: the consistency members come from propagation instead.
      const propagated = compileModel(document, { consistencyMs: 0 });
      if (!compiled.ok || !propagated.ok) continue;
      for (let i = 0; i < 4; i++) {
        const questions = randomAnswers(random, document);
        const request = { modelId: 1, versionNumber: 1, questions };
        expectSameCompactView(compiled.model, request, `seed ${seed}, answers ${i}`);
        expectSameCompactView(propagated.model, request, `seed ${seed}, answers ${i}, propagated`);
        const compact = evaluateConfiguration(compiled.model, { ...request, view: 'compact' });
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
      const compact = evaluateConfiguration(model, {
        modelId: 1,
        versionNumber: 1,
        questions,
        view: 'compact',
      });
      expect(compact.line.triggers.every((trigger) => trigger.fired)).toBe(true);
      expectSameCompactView(model, { modelId: 1, versionNumber: 1, questions }, 'generated');
    }
    const withTrigger = evaluateConfiguration(model, {
      modelId: 1,
      versionNumber: 1,
      questions: fired,
      view: 'compact',
    });
    expect(withTrigger.line.triggers.map((trigger) => trigger.key)).toContain('g00000');
  });
});
