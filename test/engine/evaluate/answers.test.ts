import { describe, expect, it } from 'vitest';
import { evaluateConfiguration } from '../../../src/engine/evaluate/evaluate.js';
import { compileOk, evaluate, model, question } from '../helpers.js';

const compiled = compileOk(
  model({
    questions: [
      { key: 'size', type: 'integer', label: 'S', min: 10, max: 100, step: 5 },
      { key: 'thick', type: 'number', label: 'T', min: 0.5, max: 2, step: 0.1 },
      { key: 'ratio', type: 'number', label: 'R' },
      {
        key: 'color',
        type: 'choice',
        label: 'C',
        options: [
          { key: 'red', label: 'R' },
          { key: 'blue', label: 'B' },
        ],
      },
      {
        key: 'extras',
        type: 'multi_choice',
        label: 'E',
        min_selected: 2,
        max_selected: 3,
        options: ['a', 'b', 'c', 'd'].map((key) => ({ key, label: key })),
      },
      { key: 'flag', type: 'boolean', label: 'F' },
      { key: 'name', type: 'text', label: 'N', min_length: 2, max_length: 5 },
      { key: 'memo', type: 'text', label: 'M' },
      { key: 'needed', type: 'boolean', label: 'X', required: true },
      { key: 'needed_if', type: 'text', label: 'Y', required: 'flag' },
    ],
  }),
);
const base = { needed: true };
const codesAndPaths = (values: Record<string, unknown>) =>
  evaluate(compiled, { ...base, ...values }).errors.map((e) => [e.code, e.path]);

describe('answer validation', () => {
  it('accepts valid answers of every type', () => {
    const result = evaluate(compiled, {
      ...base,
      size: 15,
      thick: 0.7,
      ratio: -3.25,
      color: 'red',
      extras: ['a', 'c'],
      flag: false,
      name: 'abc',
    });
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(question(result, 'size')).toMatchObject({ values: [15], source: 'user' });
    expect(question(result, 'extras').options?.map((o) => o.selected)).toEqual([
      true,
      false,
      true,
      false,
    ]);
  });

  it('requires questions marked required (boolean or CEL)', () => {
    expect(codesAndPaths({ needed: [] })).toEqual([['required', 'questions.needed']]);
    expect(codesAndPaths({ flag: true })).toEqual([['required', 'questions.needed_if']]);
    expect(codesAndPaths({ flag: false })).toEqual([]);
  });

  it('rejects unknown question keys and malformed answers', () => {
    expect(codesAndPaths({ depth: 3 })).toEqual([['unknown_question', 'questions.depth']]);
    const result = evaluateConfiguration(compiled, {
      modelId: 1,
      versionNumber: 1,
      questions: { needed: { values: [true] }, size: 12, color: { value: 'red' } },
    });
    expect(result.errors.map((e) => [e.code, e.path])).toEqual([
      ['invalid_answer', 'questions.size'],
      ['invalid_answer', 'questions.color'],
    ]);
    for (const questions of [null, [], 'x', undefined]) {
      const bad = evaluateConfiguration(compiled, { modelId: 1, versionNumber: 1, questions });
      expect(bad.errors[0]).toMatchObject({ code: 'invalid_answers', path: 'questions' });
    }
  });

  it('rejects values of the wrong type, each its own problem', () => {
    expect(
      codesAndPaths({ size: '15', thick: 'x', color: 3, flag: 'yes', name: 5, extras: ['a', 7] }),
    ).toEqual([
      ['wrong_type', 'questions.size.values[0]'],
      ['wrong_type', 'questions.thick.values[0]'],
      ['wrong_type', 'questions.color.values[0]'],
      ['wrong_type', 'questions.flag.values[0]'],
      ['wrong_type', 'questions.name.values[0]'],
      ['wrong_type', 'questions.extras.values[1]'],
    ]);
    expect(codesAndPaths({ size: 15.5 })).toEqual([['wrong_type', 'questions.size.values[0]']]);
  });

  it('rejects unknown options, duplicates and several values for a single question', () => {
    expect(codesAndPaths({ color: 'green' })).toEqual([
      ['unknown_option', 'questions.color.values[0]'],
    ]);
    expect(codesAndPaths({ extras: ['a', 'zz', 'a'] })).toEqual([
      ['unknown_option', 'questions.extras.values[1]'],
      ['duplicate_value', 'questions.extras.values[2]'],
    ]);
    expect(codesAndPaths({ color: ['red', 'blue'] })).toEqual([
      ['too_many_values', 'questions.color.values'],
    ]);
  });

  it('checks min and max', () => {
    expect(codesAndPaths({ size: 5 })).toEqual([['out_of_range', 'questions.size.values[0]']]);
    expect(codesAndPaths({ size: 105 })).toEqual([['out_of_range', 'questions.size.values[0]']]);
    expect(codesAndPaths({ size: 10, thick: 2 })).toEqual([]);
  });

  it('checks step from min with exact decimals', () => {
    expect(codesAndPaths({ size: 12 })).toEqual([['off_step', 'questions.size.values[0]']]);
    // 0.7 - 0.5 = 0.2 is two 0.1 steps (binary floating point would say 0.19999…)
    expect(codesAndPaths({ thick: 0.7 })).toEqual([]);
    expect(codesAndPaths({ thick: 1.3 })).toEqual([]);
    expect(codesAndPaths({ thick: 0.75 })).toEqual([['off_step', 'questions.thick.values[0]']]);
  });

  it('checks min_selected / max_selected', () => {
    expect(codesAndPaths({ extras: ['a'] })).toEqual([['too_few_selected', 'questions.extras']]);
    expect(codesAndPaths({ extras: ['a', 'b', 'c', 'd'] })).toEqual([
      ['too_many_selected', 'questions.extras'],
    ]);
  });

  it('checks min_length / max_length, with 1000 as the default maximum', () => {
    expect(codesAndPaths({ name: 'a' })).toEqual([['too_short', 'questions.name.values[0]']]);
    expect(codesAndPaths({ name: 'abcdef' })).toEqual([['too_long', 'questions.name.values[0]']]);
    expect(codesAndPaths({ memo: 'x'.repeat(1000) })).toEqual([]);
    expect(codesAndPaths({ memo: 'x'.repeat(1001) })).toEqual([
      ['too_long', 'questions.memo.values[0]'],
    ]);
  });

  it('treats [] as unanswered', () => {
    const result = evaluate(compiled, { ...base, color: [] });
    expect(result.errors).toEqual([]);
    expect(question(result, 'color')).toMatchObject({ values: [], source: 'none' });
  });
});
