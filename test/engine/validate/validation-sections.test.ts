import { describe, expect, it } from 'vitest';
import { compileDocument } from '../../../src/engine/work.js';
import { compileProblems, expectProblem, model } from '../helpers.js';

const choice = (key: string, options = ['a', 'b'], extra: Record<string, unknown> = {}) => ({
  key,
  type: 'choice',
  label: key,
  options: options.map((o) => ({ key: o, label: o })),
  ...extra,
});

describe('model sections', () => {
  it('checks rules: exactly one of assert/allowed, severity, table shape and cells', () => {
    const problems = compileProblems(
      model({
        questions: [
          choice('frame', ['pvc', 'alu']),
          choice('color', ['white', 'oak']),
          { key: 'm', type: 'multi_choice', label: 'M', options: [{ key: 'x', label: 'x' }] },
        ],
        rules: [
          {
            key: 'both',
            assert: 'true',
            allowed: { columns: ['frame'], rows: [['pvc']] },
            message: 'm',
          },
          { key: 'none', message: 'm' },
          { key: 'sev', assert: 'true', severity: 'fatal', message: 'm' },
          {
            key: 'table',
            message: 'm',
            allowed: {
              columns: ['frame', 'color'],
              rows: [
                ['pvc', 'white'],
                ['alu'],
                ['wood', 'white'],
                ['alu', 'oak'],
                ['alu', 'purple'],
              ],
            },
          },
          { key: 'cols', message: 'm', allowed: { columns: ['nope', 'm'], rows: [['a', 'x']] } },
          { key: 'nomsg', assert: 'true' },
        ],
      }),
    );
    expectProblem(problems, 'invalid_value', 'rules[0]');
    expectProblem(problems, 'invalid_value', 'rules[1]');
    expectProblem(problems, 'invalid_value', 'rules[2].severity');
    expectProblem(problems, 'invalid_value', 'rules[3].allowed.rows[1]');
    expectProblem(problems, 'invalid_value', 'rules[3].allowed.rows[2][0]');
    expectProblem(problems, 'invalid_value', 'rules[3].allowed.rows[4][1]');
    expectProblem(problems, 'unknown_reference', 'rules[4].allowed.columns[0]');
    expectProblem(problems, 'invalid_value', 'rules[4].allowed.columns[1]');
    expectProblem(problems, 'required', 'rules[5].message');
  });

  it('checks triggers: targets exist and literals fit the target', () => {
    const problems = compileProblems(
      model({
        questions: [choice('a'), { key: 'n', type: 'integer', label: 'N' }],
        triggers: [
          { key: 't1', when: 'true', set: { nope: 'x', a: 'zzz', n: 'ten' } },
          { key: 't2', when: 'true', set: {} },
          { key: 't3', set: { a: 'a' } },
        ],
      }),
    );
    expectProblem(problems, 'unknown_reference', 'triggers[0].set.nope');
    expectProblem(problems, 'invalid_value', 'triggers[0].set.a');
    expectProblem(problems, 'invalid_value', 'triggers[0].set.n');
    expectProblem(problems, 'invalid_value', 'triggers[1].set');
    expectProblem(problems, 'required', 'triggers[2].when');
  });

  it('checks BOM items at every level, with keys unique over all levels', () => {
    const problems = compileProblems(
      model({
        bom_items: [
          { key: 'a', sku: 'A', description: 'A', quantity: -1 },
          {
            key: 'b',
            description: 'B',
            children: [{ key: 'a', sku: 'C', description: 'C', quantity: true }],
          },
          { key: 'c', sku: 'C', description: 'C', unit_price: '1.00', price_expr: '2' },
        ],
      }),
    );
    expectProblem(problems, 'invalid_value', 'bom_items[0].quantity');
    expectProblem(problems, 'required', 'bom_items[1].sku');
    expectProblem(problems, 'invalid_type', 'bom_items[1].children[0].quantity');
    expectProblem(problems, 'invalid_value', 'bom_items[2].price_expr');
    const dup = compileProblems(
      model({
        bom_items: [
          {
            key: 'a',
            sku: 'A',
            description: 'A',
            children: [{ key: 'a', sku: 'B', description: 'B' }],
          },
        ],
      }),
    );
    expectProblem(dup, 'duplicate_key', 'bom_items[0].children[0].key');
  });

  it('checks pricing adjustments and rounding', () => {
    const problems = compileProblems(
      model({
        pricing: {
          adjustments: [
            { key: 'a', label: 'A' },
            { key: 'b', label: 'B', amount: '1', percent: '2' },
          ],
          rounding: { scale: 11, mode: 'bankers' },
        },
      }),
    );
    expectProblem(problems, 'invalid_value', 'pricing.adjustments[0]');
    expectProblem(problems, 'invalid_value', 'pricing.adjustments[1]');
    expectProblem(problems, 'invalid_value', 'pricing.rounding.scale');
    expectProblem(problems, 'invalid_value', 'pricing.rounding.mode');
  });

  it('checks image sources', () => {
    const problems = compileProblems(
      model({
        images: [
          { key: 'a', src: 'http://insecure.example.com/a.svg' },
          { key: 'b', src: '../secret.svg' },
          { key: 'c', src: '/etc/passwd' },
          { key: 'd', src: 'images/ok.svg', layer: 1.5 },
        ],
      }),
    );
    for (const index of [0, 1, 2]) expectProblem(problems, 'invalid_value', `images[${index}].src`);
    expectProblem(problems, 'invalid_type', 'images[3].layer');
  });

  it('checks translation paths against the texts of the model', () => {
    const problems = compileProblems(
      model({
        questions: [choice('a')],
        translation: {
          nl: { 'questions.a.label': 'A', 'questions.zz.label': 'Z', 'general.name': 5 },
          'not a language': {},
        },
      }),
    );
    expectProblem(problems, 'unknown_reference', 'translation.nl.questions.zz.label');
    expectProblem(problems, 'invalid_type', 'translation.nl.general.name');
    expectProblem(problems, 'invalid_value', 'translation.not a language');
  });

  it('reports every problem at once, capped at 100', () => {
    const questions = Array.from({ length: 150 }, (_, i) => ({
      key: `Q${i}`,
      type: 'text',
      label: 'x',
    }));
    const result = compileDocument(model({ questions }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems).toHaveLength(100);
  });
});
