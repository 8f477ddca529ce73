/**
 * docs/model-format.md rule-by-rule coverage (part 3): upload validation (identifiers,
 * namespaces, types, cycles, limits) and expressions.
 */
import { describe, expect, it } from 'vitest';
import { compileDocument } from '../../../src/engine/work.js';
import { compileOk, compileProblems, evaluate, expectProblem, model } from '../helpers.js';

const choice = (key: string, keys = ['a', 'b'], extra: Record<string, unknown> = {}) => ({
  key,
  type: 'choice',
  label: key,
  options: keys.map((k) => ({ key: k, label: k })),
  ...extra,
});
const codesAndPaths = (document: unknown) => compileProblems(document).map((p) => [p.code, p.path]);

describe('every upload problem is reported, each at its exact path', () => {
  it('lists all problems of a model at once', () => {
    const problems = codesAndPaths({
      general: { name: 'X', currency: 'eur' },
      questions: [
        { key: 'width', type: 'integer', label: 'W' },
        choice('frame', ['pvc', 'alu']),
        { key: 'Bad', type: 'text', label: 'B' },
        { key: 'note', type: 'text', label: 'N', visible_if: 'depth > 3' },
        { key: 'width', type: 'text', label: 'dup' },
      ],
      variables: [{ key: 'frame', expr: '1' }],
      rules: [
        { key: 'r1', assert: 'frame > 3', message: 'm' },
        { key: 'r2', assert: 'width >', message: 'm' },
      ],
      triggers: [{ key: 't', when: 'true', set: { nope: 1 } }],
      bogus: true,
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        ['unknown_key', 'bogus'],
        ['invalid_value', 'general.currency'],
        ['invalid_identifier', 'questions.Bad.key'],
        ['duplicate_key', 'questions[4].key'],
        ['duplicate_key', 'variables.frame.key'],
        ['unknown_reference', 'triggers.t.set.nope'],
        ['unknown_name', 'questions.note.visible_if'],
        ['syntax_error', 'rules.r2.assert'],
        ['type_error', 'rules.r1.assert'],
      ]),
    );
    expect(problems).toHaveLength(9);
  });

  it('names list entries by key, keeps positions where keys cannot name them, and gives a JSON Pointer', () => {
    const problems = compileProblems({
      general: { name: 'X', currency: 'EUR' },
      questions: [
        choice('battery', ['500', '625']),
        { key: 'dup', type: 'text', label: 'A' },
        { key: 'dup', type: 'text', label: 'B' },
      ],
      pricing: { option_prices: {} },
    });
    const duplicate = expectProblem(problems, 'duplicate_key', 'questions[2].key');
    // A duplicated key names no entry alone: the position stays, in the path and the pointer.
    expect(duplicate).toMatchObject({ path: 'questions[2].key', pointer: '/questions/2/key' });
    const option = compileProblems(
      model({
        questions: [
          {
            key: 'battery',
            type: 'choice',
            label: 'B',
            options: [{ key: '625', label: 'x', price: 3 }],
          },
        ],
      }),
    ).find((p) => p.pointer === '/questions/0/options/0/price');
    expect(option).toMatchObject({ path: 'questions.battery.options.625.price' });
    expect(option?.message).toContain('questions.battery.options.625.price');
    expect(option?.message).not.toContain('questions[0]');
  });
});

describe('identifiers', () => {
  const questionKey = (key: string) => compileDocument(model({ questions: [choice(key)] })).ok;
  const variableKey = (key: string) =>
    compileDocument(model({ variables: [{ key, expr: '1' }] })).ok;
  const optionKey = (key: string) => compileDocument(model({ questions: [choice('q', [key])] })).ok;

  it('question and variable keys match ^[a-z][a-z0-9_]{0,63}$', () => {
    for (const ok of ['a', 'a1_b', `a${'b'.repeat(63)}`]) {
      expect(questionKey(ok), ok).toBe(true);
      expect(variableKey(ok), ok).toBe(true);
    }
    for (const bad of ['', '1a', '_a', 'aB', 'a-b', 'a.b', 'é', `a${'b'.repeat(64)}`]) {
      expect(questionKey(bad), bad).toBe(false);
      expect(variableKey(bad), bad).toBe(false);
    }
    expectProblem(
      compileProblems(model({ variables: [{ key: 'X', expr: '1' }] })),
      'invalid_identifier',
      'variables[0].key',
    );
  });

  it('option keys match ^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$', () => {
    for (const ok of ['A', '9', 'RAL-9010', 'a.b_c-d', `X${'y'.repeat(63)}`])
      expect(optionKey(ok), ok).toBe(true);
    for (const bad of ['-a', '.a', '_a', 'a b', 'a/b', 'ä', `X${'y'.repeat(64)}`])
      expect(optionKey(bad), bad).toBe(false);
  });

  it('option keys are unique within their question only', () => {
    compileOk(model({ questions: [choice('p', ['x', 'y']), choice('q', ['x', 'y'])] }));
  });

  it('rule, trigger, BOM item, image and adjustment keys are unique within their section', () => {
    const problems = compileProblems(
      model({
        questions: [choice('q')],
        triggers: [
          { key: 't', when: 'true', set: { q: 'a' } },
          { key: 't', when: 'false', set: { q: 'b' } },
        ],
        images: [
          { key: 'i', src: 'a.svg' },
          { key: 'i', src: 'b.svg' },
        ],
        pricing: {
          adjustments: [
            { key: 'a', label: 'A', amount: '1' },
            { key: 'a', label: 'A', amount: '2' },
          ],
        },
      }),
    );
    expectProblem(problems, 'duplicate_key', 'triggers[1].key');
    expectProblem(problems, 'duplicate_key', 'images[1].key');
    expectProblem(problems, 'duplicate_key', 'pricing.adjustments[1].key');
    // the same key in different sections is fine
    compileOk(
      model({
        questions: [choice('same')],
        rules: [{ key: 'same', assert: 'true', message: 'm' }],
        triggers: [{ key: 'same', when: 'true', set: { same: 'a' } }],
        bom_items: [{ key: 'same', sku: 'S', description: 'S' }],
        images: [{ key: 'same', src: 'a.svg' }],
      }),
    );
  });
});

describe('expressions at upload: names, types, cycles', () => {
  const dims = [
    { key: 'width', type: 'integer', label: 'W' },
    { key: 'ratio', type: 'number', label: 'R' },
    choice('frame', ['pvc', 'alu']),
    {
      key: 'extras',
      type: 'multi_choice',
      label: 'E',
      options: [{ key: 'x', label: 'x' }],
    },
    { key: 'glass', type: 'boolean', label: 'G' },
    { key: 'note', type: 'text', label: 'N' },
  ];

  it('type-checks every kind of expression against the question types', () => {
    const problems = compileProblems(
      model({
        questions: [...dims, { key: 'q', type: 'text', label: 'Q', visible_if: "glass == 'yes'" }],
        variables: [{ key: 'v', expr: 'note + 1' }],
        rules: [
          { key: 'a', assert: 'frame > 3', message: 'm' },
          { key: 'b', assert: 'extras > 1', message: 'm' },
          { key: 'c', when: 'width', assert: 'true', message: 'm' },
        ],
        bom_items: [{ key: 'i', sku: 'I', description: 'I', when: "frame + 'x'" }],
        images: [{ key: 'img', src: 'a.svg', when: 'note' }],
      }),
    );
    for (const path of [
      'questions[6].visible_if',
      'variables[0].expr',
      'rules[0].assert',
      'rules[1].assert',
      'rules[2].when',
      'bom_items[0].when',
      'images[0].when',
    ])
      expectProblem(problems, 'type_error', path);
  });

  it('mixed int/double arithmetic and comparison with a number (double) question', () => {
    const compiled = compileOk(
      model({
        questions: dims,
        variables: [
          { key: 'gt', expr: 'ratio > 1' },
          { key: 'eq', expr: 'ratio == 2' },
          { key: 'sum', expr: 'ratio + 1' },
          { key: 'mixed', expr: 'width / 2.0 + ratio * 2' },
        ],
      }),
    );
    expect(evaluate(compiled, { width: 5, ratio: 2 }).line.variables).toEqual({
      gt: true,
      eq: true,
      sum: 3,
      mixed: 6.5,
    });
  });

  it('reports a cycle through a variable and a visible_if, naming the keys', () => {
    const problems = compileProblems(
      model({
        questions: [{ key: 'q', type: 'text', label: 'Q', visible_if: 'v' }],
        variables: [{ key: 'v', expr: 'q != null' }],
      }),
    );
    const cycle = expectProblem(problems, 'cycle');
    expect(cycle.message).toContain('questions.q');
    expect(cycle.message).toContain('variables.v');
  });

  it('reports a cycle through a trigger and a default_expr', () => {
    const problems = compileProblems(
      model({
        questions: [
          { key: 'a', type: 'integer', label: 'A', default_expr: 'b + 1' },
          { key: 'b', type: 'integer', label: 'B' },
        ],
        triggers: [{ key: 't', when: 'a > 1', set: { b: 5 } }],
      }),
    );
    const cycle = expectProblem(problems, 'cycle');
    for (const name of ['questions.a', 'questions.b', 'triggers.t'])
      expect(cycle.message).toContain(name);
  });
});

describe('limits (defaults), named in the message', () => {
  it('4 KB per expression: 4096 bytes pass, 4097 do not', () => {
    const expr = (bytes: number) => `w == '${'x'.repeat(bytes - 7)}'`; // w == '' is 7 bytes
    expect(expr(4096)).toHaveLength(4096);
    const doc = (bytes: number) =>
      model({
        questions: [{ key: 'w', type: 'text', label: 'W' }],
        rules: [{ key: 'r', assert: expr(bytes), message: 'm' }],
      });
    compileOk(doc(4096));
    const problem = expectProblem(compileProblems(doc(4097)), 'limit_exceeded', 'rules[0].assert');
    expect(problem.message).toContain('expressionBytes');
    expect(problem.message).toContain('4096');
  });

  it('1,000 options per question pass, 1,001 do not', () => {
    const options = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ key: `o${i}`, label: 'O' }));
    compileOk(
      model({ questions: [{ key: 'c', type: 'choice', label: 'C', options: options(1000) }] }),
    );
    const problem = expectProblem(
      compileProblems(
        model({ questions: [{ key: 'c', type: 'choice', label: 'C', options: options(1001) }] }),
      ),
      'limit_exceeded',
      'questions[0].options',
    );
    expect(problem.message).toContain('optionsPerQuestion');
  });

  it('20,000 questions, 100,000 rules, 50,000 BOM items', () => {
    const questions = Array.from({ length: 20_001 }, (_, i) => ({
      key: `q${i}`,
      type: 'text',
      label: 'Q',
    }));
    expect(
      expectProblem(compileProblems(model({ questions })), 'limit_exceeded', 'questions').message,
    ).toContain('20000');
    const rules = Array.from({ length: 100_001 }, (_, i) => ({
      key: `r${i}`,
      assert: 'true',
      message: 'm',
    }));
    expect(
      expectProblem(compileProblems(model({ rules })), 'limit_exceeded', 'rules').message,
    ).toContain('100000');
    const bom_items = Array.from({ length: 50001 }, (_, i) => ({
      key: `b${i}`,
      sku: 'S',
      description: 'D',
    }));
    const bom = expectProblem(compileProblems(model({ bom_items })), 'limit_exceeded', 'bom_items');
    expect(bom.message).toContain('bomItems');
    expect(bom.message).toContain('50000');
  });
});

describe('CEL semantics the engine must not break', () => {
  it('logical operators absorb an error when the other side decides (CEL commutative ||, &&)', () => {
    const compiled = compileOk(
      model({
        questions: [{ key: 'w', type: 'integer', label: 'W' }],
        rules: [
          { key: 'or_true', assert: 'w > 10 || true', message: 'm' },
          { key: 'and_false', when: 'w > 10 && false', assert: 'false', message: 'm' },
          { key: 'or_unknown', assert: 'w > 10 || false', message: 'm' },
        ],
      }),
    );
    const result = evaluate(compiled, {});
    expect(result.line.rules.map((r) => [r.key, r.status])).toEqual([
      ['or_true', 'passed'],
      ['and_false', 'skipped'],
      ['or_unknown', 'pending'],
    ]);
  });
});
