import { describe, expect, it } from 'vitest';
import {
  compileDocument,
  compileModel,
  evaluate,
  validateModel,
  serializeConsistency,
} from '../../../src/engine/work.js';
import { windowDocument } from '../helpers.js';

/** A model that is valid section by section but has no valid configuration. */
const inconsistent = {
  general: { name: 'Frames', currency: 'EUR', default_language: 'en' },
  questions: [
    {
      key: 'frame',
      type: 'choice',
      label: 'Frame',
      required: true,
      options: [
        { key: 'pvc', label: 'PVC' },
        { key: 'alu', label: 'Aluminium' },
      ],
    },
  ],
  rules: [
    { key: 'only_pvc', message: 'm', allowed: { columns: ['frame'], rows: [['pvc']] } },
    { key: 'no_pvc', message: 'm', assert: "frame != 'pvc'" },
  ],
};

describe('engine stages: validateModel → compileModel → evaluate', () => {
  it('validation reports every section and expression problem, before any compile', () => {
    const result = validateModel({
      general: { name: 'Broken', currency: 'EUR', default_language: 'en' },
      questions: [{ key: 'width', type: 'number', label: 'Width' }],
      rules: [{ key: 'r', message: 'm', assert: 'width > ' }],
      unknown_section: true,
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => [p.code, p.path])).toEqual(
      expect.arrayContaining([
        ['unknown_key', 'unknown_section'],
        ['syntax_error', 'rules.r.assert'],
      ]),
    );
  });

  it('a model without a valid configuration passes validation and fails only at compile', () => {
    const validated = validateModel(inconsistent);
    expect(validated.ok).toBe(true);
    if (!validated.ok) return;
    const compiled = compileModel(validated.value);
    expect(compiled.ok).toBe(false);
    if (compiled.ok) return;
    expect(new Set(compiled.problems.map((p) => p.code))).toEqual(new Set(['inconsistent_model']));
    expect(compileDocument(inconsistent)).toEqual(compiled);
  });

  it('the stages one by one give what compileDocument gives, and evaluate the same line', () => {
    const document = windowDocument();
    const validated = validateModel(document);
    if (!validated.ok) throw new Error(JSON.stringify(validated.problems));
    const staged = compileModel(validated.value);
    const composed = compileDocument(document);
    if (!staged.ok || !composed.ok) throw new Error('the window model does not compile');
    const analysis = (model: typeof composed.model) => ({
      ...model.consistency.analysis,
      compile_ms: 0,
    });
    expect(analysis(staged.value)).toEqual(analysis(composed.model));
    const request = { modelId: 1, versionNumber: 1, questions: {} };
    const line = (model: typeof composed.model) => {
      const { cache, ...rest } = evaluate(model, request).line;
      return { ...rest, cache: { ...cache, evaluated_in_ms: 0 } };
    };
    expect(line(staged.value)).toEqual(line(composed.model));
  });

  it('compileModel reuses a stored consistency form of the same model', () => {
    const validated = validateModel(windowDocument());
    if (!validated.ok) throw new Error('invalid window model');
    const first = compileModel(validated.value);
    if (!first.ok) throw new Error('the window model does not compile');
    const stored = serializeConsistency(first.value.consistency);
    const again = compileModel(validated.value, { consistency: stored });
    if (!again.ok) throw new Error('no longer compiles with its stored form');
    expect(serializeConsistency(again.value.consistency)).toEqual(stored);
  });
});
