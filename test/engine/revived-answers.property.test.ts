import { describe, expect, it } from 'vitest';
import { generateModel } from '../../tools/gen-model.mjs';
import {
  compileDocument,
  evaluate,
  type CompiledModel,
  type EvaluationRequest,
} from '../../src/engine/work.js';
import { reviveModel, toTransferable } from '../../src/engine/transfer.js';
import { prng } from './consistency/random-model.js';
import { pricedModel } from './evaluate/guided-models.js';
import { randomAnswers, randomModelWithBom } from './evaluate/random-configurations.js';
import { compileOk, doorDocument, windowDocument } from './helpers.js';

/**
 * An adopted version (compiled in one worker, revived from bytes in another: transfer.ts,
 * revive-graph.ts, docs/adr/0238) answers exactly what the compiled model answers: the
 * same evaluation, byte for byte, in both views and in any language, for any answers.
 */
function expectSameAnswers(
  compiled: CompiledModel,
  revived: CompiledModel,
  questions: unknown,
  label: string,
): number {
  let compared = 0;
  for (const view of ['full', 'compact'] as const)
    for (const languageCode of [null, 'nl']) {
      const request: EvaluationRequest = {
        modelId: 1,
        versionNumber: 2,
        questions,
        languageCode,
        view,
      };
      const json = (model: CompiledModel) => {
        const evaluation = evaluate(model, request);
        evaluation.line.cache.evaluated_in_ms = 0;
        return JSON.stringify(evaluation);
      };
      expect(json(revived), `${label} ${view} ${languageCode}`).toBe(json(compiled));
      compared++;
    }
  return compared;
}

const revivedOf = (model: CompiledModel) => reviveModel(toTransferable(model)).model;

describe('a revived model answers what the compiled one answers', () => {
  /**
   * Compiles `seeds` random documents (`documentOf`), revives each compiled model and
   * compares `perSeed` random answer sets on both: the comparisons made.
   */
  function compareRandom(
    seeds: number,
    firstSeed: number,
    perSeed: number,
    documentOf: (random: () => number, seed: number) => Record<string, unknown>,
  ): number {
    let compared = 0;
    for (let seed = 1; seed <= seeds; seed++) {
      const random = prng(firstSeed + seed);
      const document = documentOf(random, seed);
      const compiled = compileDocument(document);
      if (!compiled.ok) continue;
      const revived = revivedOf(compiled.model);
      for (let i = 0; i < perSeed; i++)
        compared += expectSameAnswers(
          compiled.model,
          revived,
          randomAnswers(random, document),
          `${seed}/${i}`,
        );
    }
    return compared;
  }

  it('on random small models with nested BOM items and random answers', () => {
    expect(compareRandom(80, 5000, 4, (random) => randomModelWithBom(random))).toBeGreaterThan(800);
  });

  it('on random priced models (the options’ price bounds)', () => {
    const priced = (random: () => number, seed: number) =>
      pricedModel(random, seed % 2 === 0 ? 'decomposable' : 'other').document;
    expect(compareRandom(30, 6000, 3, priced)).toBeGreaterThan(200);
  });

  it('on the examples and a generated model, answered twice (warm, as a worker evaluates)', () => {
    const random = prng(77);
    for (const document of [windowDocument(), doorDocument()]) {
      const compiled = compileOk(document);
      const revived = revivedOf(compiled);
      for (let i = 0; i < 6; i++) {
        const questions = randomAnswers(random, document as Record<string, unknown>);
        expectSameAnswers(compiled, revived, questions, `example ${i}`);
        expectSameAnswers(compiled, revived, questions, `example ${i}, again`);
      }
    }
    const { model: document, answers } = generateModel(120);
    const compiled = compileOk(document);
    const revived = revivedOf(compiled);
    const fired = { ...answers, q00000: { values: ['o3'] }, q00003: { values: [9000] } };
    for (const questions of [{}, answers, fired, answers])
      expectSameAnswers(compiled, revived, questions, 'generated');
  });
});
