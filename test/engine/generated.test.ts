import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileDocument } from '../../src/engine/work.js';
import { evaluateConfiguration } from '../../src/engine/evaluate/evaluate.js';
import { runGenerator } from '../../bench/run-generator.js';
import { MODEL_GENERATOR } from '../support/examples.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-gen-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const generate = (questions: number) => runGenerator(MODEL_GENERATOR, questions, dir);

describe('generated models (gen-model.mjs)', () => {
  it('a 200-question model compiles and its answers evaluate valid', () => {
    const { document, answers } = generate(200);
    const compiled = compileDocument(document);
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    expect(compiled.model.questions).toHaveLength(200);
    const result = evaluateConfiguration(compiled.model, {
      modelId: 1,
      versionNumber: 1,
      questions: answers,
    });
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.line.questions).toHaveLength(200);
    expect(result.line.bom_items.length).toBeGreaterThan(100);
    expect(result.line.pricing.total).toMatch(/^\d+\.\d{2}$/);
    // the Dutch labels of the generator are used
    const dutch = evaluateConfiguration(compiled.model, {
      modelId: 1,
      versionNumber: 1,
      questions: answers,
      languageCode: 'nl',
    });
    expect(dutch.line.questions[0].label).toBe('Keuze 0');
    expect(dutch.line.pricing.total).toBe(result.line.pricing.total);
  });

  it('fires the generated triggers and keeps the line valid', () => {
    const { document, answers } = generate(60);
    const compiled = compileDocument(document);
    if (!compiled.ok) throw new Error('expected a valid model');
    // q00000 == 'o3' fires g00000, which sets the optional q00001 to o4 (its default is o2)
    const changed = { ...(answers as Record<string, unknown>), q00000: { values: ['o3'] } };
    const result = evaluateConfiguration(compiled.model, {
      modelId: 1,
      versionNumber: 1,
      questions: changed,
    });
    expect(result.line.triggers[0]).toMatchObject({
      key: 'g00000',
      fired: true,
      set: { q00001: 'o4' },
    });
    expect(result.line.questions[1]).toMatchObject({ values: ['o4'], source: 'trigger' });
  });
});

describe('tools/gen-model.mjs as a module', () => {
  it('answers what its command line writes', async () => {
    const { generateModel } = await import('../../tools/gen-model.mjs');
    const written = generate(40);
    const generated = generateModel(40);
    expect(generated.model).toEqual(written.document);
    expect(generated.answers).toEqual(written.answers);
  });
});
