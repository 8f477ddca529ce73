import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  compileModel,
  evaluateConfiguration,
  evaluateConfigurationInSlices,
  type CompiledModel,
  type Evaluation,
} from '../../../src/engine/index.js';
import { runGenerator } from '../../../bench/run-generator.js';
import { MODEL_GENERATOR } from '../../support/examples.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-slices-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function generated(questions: number): { model: CompiledModel; answers: Record<string, unknown> } {
  const { document, answers } = runGenerator(MODEL_GENERATOR, questions, dir);
  const compiled = compileModel(document);
  if (!compiled.ok) throw new Error('expected the generated model to compile');
  return { model: compiled.model, answers: answers as Record<string, unknown> };
}

/** The evaluation without its clock reading, which differs between two runs. */
function timeless(evaluation: Evaluation): Evaluation {
  return {
    ...evaluation,
    line: { ...evaluation.line, cache: { ...evaluation.line.cache, evaluated_in_ms: 0 } },
  };
}

describe('evaluateConfigurationInSlices', () => {
  const { model, answers } = generated(300);
  const request = { modelId: 1, versionNumber: 1, questions: answers };

  it('gives the very evaluation the one-piece evaluation gives, pausing between phases', async () => {
    let pauses = 0;
    const sliced = await evaluateConfigurationInSlices(model, request, {
      sliceMs: 0,
      pause: () => {
        pauses++;
        return Promise.resolve();
      },
    });
    expect(timeless(sliced)).toEqual(timeless(evaluateConfiguration(model, request)));
    expect(sliced.valid).toBe(true);
    // sliceMs 0: a pause after every phase.
    expect(pauses).toBeGreaterThanOrEqual(8);
  });

  it('pauses once before it starts (a fresh slice), and never in an evaluation shorter than its slice', async () => {
    let pauses = 0;
    await evaluateConfigurationInSlices(model, request, {
      sliceMs: 60_000,
      pause: () => {
        pauses++;
        return Promise.resolve();
      },
    });
    expect(pauses).toBe(1);
  });

  it('keeps evaluations of one model apart when they interleave', async () => {
    // Two configurations of the same model, paused after every phase on the same turns.
    const other = { ...request, questions: { ...answers, q00000: { values: ['o3'] } } };
    const slicing = { sliceMs: 0, pause: () => new Promise<void>((done) => setImmediate(done)) };
    const [first, second] = await Promise.all([
      evaluateConfigurationInSlices(model, request, slicing),
      evaluateConfigurationInSlices(model, other, slicing),
    ]);
    expect(timeless(first)).toEqual(timeless(evaluateConfiguration(model, request)));
    expect(timeless(second)).toEqual(timeless(evaluateConfiguration(model, other)));
    expect(second.line.questions[0].values).toEqual(['o3']);
  });
});
