import { describe, expect, it } from 'vitest';
import { compileOk, compileProblems, expectProblem, model } from '../helpers.js';

const choice = (key: string, options = ['a', 'b'], extra: Record<string, unknown> = {}) => ({
  key,
  type: 'choice',
  label: key,
  options: options.map((o) => ({ key: o, label: o })),
  ...extra,
});

describe('model structure', () => {
  it('accepts a model with only general and fills the defaults', () => {
    const compiled = compileOk({ general: { name: 'Minimal' } });
    expect(compiled.general).toMatchObject({
      name: 'Minimal',
      currency: 'EUR',
      defaultLanguage: 'en',
    });
    expect(compiled.pricing).toMatchObject({ scale: 2, mode: 'half_up' });
    expect(compiled.pricing.basePrice.toString()).toBe('0');
  });

  it('requires general and general.name', () => {
    expectProblem(compileProblems({}), 'required', 'general');
    expectProblem(compileProblems({ general: {} }), 'required', 'general.name');
    expectProblem(compileProblems({ general: { name: '  ' } }), 'required', 'general.name');
  });

  it('rejects a document that is not an object', () => {
    for (const document of [null, 'x', [], 42])
      expectProblem(compileProblems(document), 'invalid_document');
  });

  it('rejects unknown top-level keys but keeps x- keys verbatim', () => {
    expectProblem(compileProblems(model({ extra: 1 })), 'unknown_key', 'extra');
    const compiled = compileOk(model({ 'x-erp': { id: 12, tags: ['a'] } }));
    expect(compiled.extensions).toEqual({ 'x-erp': { id: 12, tags: ['a'] } });
  });

  it('rejects unknown members inside sections (typos), except x- members', () => {
    const problems = compileProblems(model({ questions: [{ ...choice('a'), visble_if: 'true' }] }));
    expectProblem(problems, 'unknown_key', 'questions[0].visble_if');
    compileOk(model({ questions: [{ ...choice('a'), 'x-note': 'kept out of the engine' }] }));
  });

  it('validates general members', () => {
    const problems = compileProblems({
      general: {
        name: 'X',
        currency: 'euro',
        default_language: 'english!',
        valid_from: 'tomorrow',
      },
    });
    expectProblem(problems, 'invalid_value', 'general.currency');
    expectProblem(problems, 'invalid_value', 'general.default_language');
    expectProblem(problems, 'invalid_value', 'general.valid_from');
    expectProblem(
      compileProblems({
        general: { name: 'X', valid_from: '2026-02-01', valid_until: '2026-01-01' },
      }),
      'invalid_value',
      'general.valid_until',
    );
  });

  it('validates import records and echoes them', () => {
    const compiled = compileOk(
      model({ imports: [{ path: 'fragments/a.yaml' }, { model_id: 4, version_number: 2 }] }),
    );
    expect(compiled.imports).toEqual([
      { path: 'fragments/a.yaml' },
      { model_id: 4, version_number: 2 },
    ]);
    const problems = compileProblems(model({ imports: [{ model_id: 'x' }, { url: 'y' }, 'z'] }));
    expectProblem(problems, 'invalid_type', 'imports[0].model_id');
    expectProblem(problems, 'invalid_value', 'imports[1]');
    expectProblem(problems, 'invalid_type', 'imports[2]');
  });

  it('checks question and option identifiers', () => {
    const problems = compileProblems(
      model({
        questions: [
          choice('Width'),
          choice('in'),
          { ...choice('ok'), options: [{ key: '-bad', label: 'x' }] },
          choice('x'.repeat(65)),
          // Refused in answers (the request boundary), so no question may be named so.
          choice('constructor'),
          choice('prototype'),
        ],
      }),
    );
    expectProblem(problems, 'invalid_identifier', 'questions[4].key');
    expectProblem(problems, 'invalid_identifier', 'questions[5].key');
    expectProblem(problems, 'invalid_identifier', 'questions[0].key');
    expectProblem(problems, 'invalid_identifier', 'questions[1].key');
    expectProblem(problems, 'invalid_identifier', 'questions[2].options[0].key');
    expectProblem(problems, 'invalid_identifier', 'questions[3].key');
  });

  it('questions and variables share one namespace; keys are unique per section', () => {
    const problems = compileProblems(
      model({
        questions: [
          choice('a'),
          choice('a'),
          {
            ...choice('b'),
            options: [
              { key: 'x', label: 'x' },
              { key: 'x', label: 'y' },
            ],
          },
        ],
        variables: [{ key: 'b', expr: '1' }],
        rules: [
          { key: 'r', assert: 'true', message: 'm' },
          { key: 'r', assert: 'true', message: 'm' },
        ],
      }),
    );
    expectProblem(problems, 'duplicate_key', 'questions[1].key');
    expectProblem(problems, 'duplicate_key', 'questions[2].options[1].key');
    expectProblem(problems, 'duplicate_key', 'variables[0].key');
    expectProblem(problems, 'duplicate_key', 'rules[1].key');
  });

  it('checks question types and type-specific members', () => {
    const problems = compileProblems(
      model({
        questions: [
          { key: 'a', type: 'slider', label: 'A' },
          { key: 'b', type: 'number', label: 'B', options: [] },
          { key: 'c', type: 'choice', label: 'C' },
          { key: 'd', type: 'choice', label: 'D', options: [] },
          { key: 'e', type: 'integer', label: 'E', min: 1.5, step: 0 },
          { key: 'f', type: 'number', label: 'F', min: 10, max: 5 },
          {
            key: 'g',
            type: 'multi_choice',
            label: 'G',
            options: [{ key: 'x', label: 'x' }],
            min_selected: 3,
            max_selected: 1,
          },
          { key: 'h', type: 'text', label: 'H', max_length: -1 },
          { key: 'i', type: 'boolean' },
        ],
      }),
    );
    expectProblem(problems, 'invalid_value', 'questions[0].type');
    expectProblem(problems, 'invalid_value', 'questions[1].options');
    expectProblem(problems, 'required', 'questions[2].options');
    expectProblem(problems, 'invalid_value', 'questions[3].options');
    expectProblem(problems, 'invalid_type', 'questions[4].min');
    expectProblem(problems, 'invalid_value', 'questions[4].step');
    expectProblem(problems, 'invalid_value', 'questions[5].max');
    expectProblem(problems, 'invalid_value', 'questions[6].max_selected');
    expectProblem(problems, 'invalid_value', 'questions[7].max_length');
    expectProblem(problems, 'required', 'questions[8].label');
  });

  it('checks that literal defaults have the question type', () => {
    const problems = compileProblems(
      model({
        questions: [
          { ...choice('a'), default: 'zzz' },
          { key: 'b', type: 'integer', label: 'B', default: 2.5 },
          { key: 'c', type: 'boolean', label: 'C', default: 'yes' },
          {
            key: 'd',
            type: 'multi_choice',
            label: 'D',
            options: [{ key: 'x', label: 'x' }],
            default: 'x',
          },
          { key: 'e', type: 'text', label: 'E', default: 5 },
          { ...choice('f'), default: 'a', default_expr: "'b'" },
          { key: 'g', type: 'integer', label: 'G', min: 1, max: 5, default: 9 },
        ],
      }),
    );
    for (const index of [0, 1, 2, 3, 4, 6])
      expectProblem(problems, 'invalid_default', `questions[${index}].default`);
    expectProblem(problems, 'invalid_value', 'questions[5].default');
    const compiled = compileOk(
      model({
        questions: [
          { key: 'n', type: 'number', label: 'N', default: 2 },
          { key: 'i', type: 'integer', label: 'I', default: 2 },
          {
            key: 'm',
            type: 'multi_choice',
            label: 'M',
            options: [{ key: 'x', label: 'x' }],
            default: ['x'],
          },
        ],
      }),
    );
    expect(compiled.questions.map((q) => q.defaultValue)).toEqual([2, 2n, ['x']]);
  });

  it('requires money as decimal strings', () => {
    const problems = compileProblems(
      model({
        questions: [{ ...choice('a'), options: [{ key: 'x', label: 'x', price: 12.5 }] }],
        bom_items: [{ key: 'b', sku: 'S', description: 'd', unit_price: '1,50' }],
        pricing: { base_price: 'ten', adjustments: [{ key: 'p', label: 'P', percent: '5%' }] },
      }),
    );
    expectProblem(problems, 'invalid_decimal', 'questions[0].options[0].price');
    expectProblem(problems, 'invalid_decimal', 'bom_items[0].unit_price');
    expectProblem(problems, 'invalid_decimal', 'pricing.base_price');
    expectProblem(problems, 'invalid_decimal', 'pricing.adjustments[0].percent');
  });
});
