import { describe, expect, it } from 'vitest';
import { compileOk, compileProblems, evaluate, expectProblem, model, question, rule } from './helpers.js';

const dims = [
  { key: 'width', type: 'integer', label: 'W' },
  { key: 'height', type: 'integer', label: 'H' },
  { key: 'ratio', type: 'number', label: 'R' },
  { key: 'frame', type: 'choice', label: 'F', options: [{ key: 'pvc', label: 'PVC' }, { key: 'alu', label: 'Alu' }] },
  { key: 'extras', type: 'multi_choice', label: 'E', options: [{ key: 'lock', label: 'L' }, { key: 'vent', label: 'V' }] },
  { key: 'glass', type: 'boolean', label: 'G' },
  { key: 'note', type: 'text', label: 'N' },
];

describe('expressions at upload', () => {
  it('reports syntax errors with the path of the expression', () => {
    const problems = compileProblems(model({ questions: dims, rules: [{ key: 'r', assert: 'width >', message: 'm' }] }));
    expectProblem(problems, 'syntax_error', 'rules[0].assert');
  });

  it('reports unknown names', () => {
    const problems = compileProblems(
      model({ questions: [{ ...dims[0], visible_if: 'depth > 3' }], variables: [{ key: 'v', expr: 'width * factor' }] }),
    );
    expect(expectProblem(problems, 'unknown_name', 'questions[0].visible_if').message).toContain("'depth'");
    expect(expectProblem(problems, 'unknown_name', 'variables[0].expr').message).toContain("'factor'");
  });

  it('type-checks against the question types', () => {
    const problems = compileProblems(
      model({
        questions: dims,
        rules: [
          { key: 'a', assert: "width == 'wide'", message: 'm' },
          { key: 'b', assert: 'frame > 3', message: 'm' },
          { key: 'c', assert: 'glass + 1 > 0', message: 'm' },
          { key: 'd', assert: "note.startsWith('x') && size(extras) > 1", message: 'm' },
        ],
      }),
    );
    expectProblem(problems, 'type_error', 'rules[0].assert');
    expectProblem(problems, 'type_error', 'rules[1].assert');
    expectProblem(problems, 'type_error', 'rules[2].assert');
    expect(problems.some((p) => p.path === 'rules[3].assert')).toBe(false);
  });

  it('checks the result type of each kind of expression', () => {
    const problems = compileProblems(
      model({
        questions: [
          ...dims,
          { key: 'q1', type: 'text', label: 'x', visible_if: 'width' },
          { key: 'q2', type: 'integer', label: 'x', default_expr: 'ratio * 2.0' },
          { key: 'q3', type: 'choice', label: 'x', options: [{ key: 'a', label: 'a' }], default_expr: '1' },
          { key: 'q4', type: 'text', label: 'x', required: 'note' },
        ],
        bom_items: [{ key: 'b', sku: 'B', description: 'B', quantity: "'two'", price_expr: 'glass' }],
        pricing: { adjustments: [{ key: 'x', label: 'X', expr: 'frame' }] },
        triggers: [{ key: 't', when: 'true', set: { width: { expr: "'wide'" } } }],
        images: [{ key: 'i', src: 'a.svg', when: 'width * 2' }],
      }),
    );
    for (const path of [
      'questions[7].visible_if',
      'questions[8].default_expr',
      'questions[9].default_expr',
      'questions[10].required',
      'bom_items[0].quantity',
      'bom_items[0].price_expr',
      'pricing.adjustments[0].expr',
      'triggers[0].set.width.expr',
      'images[0].when',
    ]) {
      expectProblem(problems, 'type_error', path);
    }
  });

  it('supports mixed int/double arithmetic and comparison', () => {
    const compiled = compileOk(
      model({
        questions: dims,
        variables: [
          { key: 'area', expr: 'width * height / 1000000.0' },
          { key: 'double_width', expr: 'width * 2' },
          { key: 'scaled', expr: 'ratio * width' },
          { key: 'sum', expr: 'width + ratio' },
          { key: 'diff', expr: 'ratio - width' },
          { key: 'wide', expr: 'width > 1200 && ratio < 2 && width == 1500.0' },
        ],
      }),
    );
    const result = evaluate(compiled, { width: 1500, height: 1000, ratio: 1.5 });
    expect(result.line.variables).toEqual({
      area: 1.5,
      double_width: 3000,
      scaled: 2250,
      sum: 1501.5,
      diff: -1498.5,
      wide: true,
    });
  });

  it('infers variable types and checks their users (a bool variable cannot be multiplied)', () => {
    const problems = compileProblems(
      model({
        questions: dims,
        variables: [
          { key: 'large', expr: 'width > 1000' },
          { key: 'area', expr: 'width * height' },
        ],
        rules: [
          { key: 'a', assert: 'large * 2 > 1', message: 'm' },
          { key: 'b', assert: 'area > 10', message: 'm' },
        ],
      }),
    );
    expectProblem(problems, 'type_error', 'rules[0].assert');
    expect(problems.some((p) => p.path === 'rules[1].assert')).toBe(false);
  });

  it('scopes comprehension variables (they are not dependencies or unknown names)', () => {
    const compiled = compileOk(
      model({
        questions: dims,
        variables: [
          { key: 'has_lock', expr: "extras.exists(e, e == 'lock')" },
          { key: 'bound', expr: 'cel.bind(w, width * 2, w + 1)' },
        ],
      }),
    );
    const result = evaluate(compiled, { extras: ['lock'], width: 10 });
    expect(result.line.variables).toEqual({ has_lock: true, bound: 21 });
  });

  it('allows comparing any question with null (unanswered)', () => {
    const compiled = compileOk(
      model({
        questions: dims,
        variables: [
          { key: 'no_width', expr: 'width == null' },
          { key: 'has_frame', expr: 'frame != null' },
          { key: 'no_extras', expr: 'extras == null' },
        ],
      }),
    );
    expect(evaluate(compiled, {}).line.variables).toEqual({ no_width: true, has_frame: false, no_extras: true });
    expect(evaluate(compiled, { width: 3, frame: 'pvc', extras: ['lock'] }).line.variables).toEqual({
      no_width: false,
      has_frame: true,
      no_extras: false,
    });
  });

  it('rejects expressions above the length limit before parsing them', () => {
    const long = `width > ${'1'.repeat(5000)}`;
    const problems = compileProblems(model({ questions: dims, rules: [{ key: 'r', assert: long, message: 'm' }] }));
    const problem = expectProblem(problems, 'limit_exceeded', 'rules[0].assert');
    expect(problem.message).toContain('expressionBytes');
    expect(problems.some((p) => p.code === 'syntax_error')).toBe(false);
  });
});

describe('unknown at evaluation (an expression that fails)', () => {
  const compiled = compileOk(
    model({
      questions: [
        ...dims,
        { key: 'shown', type: 'text', label: 'S', visible_if: 'width > 1000' },
        {
          key: 'pick',
          type: 'choice',
          label: 'P',
          options: [
            { key: 'a', label: 'A', available_if: 'width > 1000' },
            { key: 'b', label: 'B', available_if: 'width < 1000' },
          ],
        },
        { key: 'must', type: 'text', label: 'M', required: 'width > 1000' },
      ],
      variables: [
        { key: 'area', expr: 'width * height' },
        { key: 'is_pvc', expr: "frame == 'pvc'" },
      ],
      rules: [
        { key: 'when_unknown', when: 'width > 1000', assert: 'true', message: 'm' },
        { key: 'assert_unknown', assert: 'height < 2000', message: 'm' },
        { key: 'skipped', when: 'glass == true', assert: 'false', message: 'm' },
      ],
      triggers: [{ key: 't', when: 'width > 1000', set: { note: 'wide' } }],
      bom_items: [{ key: 'b', sku: 'B', description: 'B', when: 'width > 1000', unit_price: '1.00' }],
      pricing: { adjustments: [{ key: 'adj', label: 'A', when: 'width > 1000', amount: '5.00' }] },
      images: [{ key: 'i', src: 'a.svg', when: 'width > 1000' }],
    }),
  );
  const result = evaluate(compiled, {});

  it('visible_if unknown → hidden', () => expect(question(result, 'shown').visible).toBe(false));
  it('available_if unknown → available', () => {
    expect(question(result, 'pick').options?.every((o) => o.available)).toBe(true);
  });
  it('required unknown → not required', () => {
    expect(question(result, 'must').required).toBe(false);
    expect(result.errors).toEqual([]);
  });
  it('rule when unknown → pending', () => expect(rule(result, 'when_unknown').status).toBe('pending'));
  it('rule assert unknown → pending, not violated', () => {
    expect(rule(result, 'assert_unknown').status).toBe('pending');
    expect(result.valid).toBe(true);
  });
  it('rule when false → skipped', () => expect(rule(result, 'skipped').status).toBe('skipped'));
  it('variable unknown → null; equality with null is simply false', () => {
    expect(result.line.variables).toEqual({ area: null, is_pvc: false });
  });
  it('trigger when unknown → not fired', () => expect(result.line.triggers[0].fired).toBe(false));
  it('BOM when unknown → not included', () => expect(result.line.bom_items).toEqual([]));
  it('adjustment when unknown → not applied', () => expect(result.line.pricing.adjustments).toEqual([]));
  it('image when unknown → not included', () => expect(result.line.images).toEqual([]));
  it('all of them flip once the value is known', () => {
    const known = evaluate(compiled, { width: 1500, height: 1000, must: 'x' });
    expect(question(known, 'shown').visible).toBe(true);
    expect(rule(known, 'when_unknown').status).toBe('passed');
    expect(rule(known, 'assert_unknown').status).toBe('passed');
    expect(known.line.triggers[0].fired).toBe(true);
    expect(known.line.bom_items.map((b) => b.key)).toEqual(['b']);
    expect(known.line.images.map((i) => i.key)).toEqual(['i']);
    expect(question(known, 'pick').options?.map((o) => o.available)).toEqual([true, false]);
    expect(known.line.variables.area).toBe(1500000);
  });
});

describe('dependency graph', () => {
  it('reports a cycle between variables, naming the keys', () => {
    const problems = compileProblems(
      model({ variables: [{ key: 'a', expr: 'b + 1' }, { key: 'b', expr: 'c + 1' }, { key: 'c', expr: 'a + 1' }] }),
    );
    const cycle = expectProblem(problems, 'cycle');
    expect(cycle.message).toContain('variables.a');
    expect(cycle.message).toContain('variables.b');
    expect(cycle.message).toContain('variables.c');
    expect(problems.filter((p) => p.code === 'cycle')).toHaveLength(1);
  });

  it('reports a question whose visibility reads itself, and a default_expr cycle', () => {
    const problems = compileProblems(
      model({
        questions: [
          { key: 'a', type: 'text', label: 'A', visible_if: "a != ''" },
          { key: 'b', type: 'integer', label: 'B', default_expr: 'c + 1' },
          { key: 'c', type: 'integer', label: 'C', default_expr: 'b + 1' },
        ],
      }),
    );
    const cycles = problems.filter((p) => p.code === 'cycle').map((p) => p.message);
    expect(cycles).toHaveLength(2);
    expect(cycles[0]).toContain('questions.a → questions.a');
    expect(cycles[1]).toMatch(/questions\.b.*questions\.c/);
  });

  it('reports a trigger that reads the question it sets', () => {
    const problems = compileProblems(
      model({
        questions: [{ key: 'g', type: 'choice', label: 'G', options: [{ key: 'x', label: 'x' }, { key: 'y', label: 'y' }] }],
        triggers: [{ key: 'flip', when: "g == 'x'", set: { g: 'y' } }],
      }),
    );
    const cycle = expectProblem(problems, 'cycle', 'triggers[0].when');
    expect(cycle.message).toContain('triggers.flip');
    expect(cycle.message).toContain('questions.g');
  });

  it('orders by dependencies, not by list order', () => {
    const compiled = compileOk(
      model({
        questions: [
          { key: 'shown', type: 'boolean', label: 'S', visible_if: 'big' },
          { key: 'w', type: 'integer', label: 'W', default: 5 },
        ],
        variables: [
          { key: 'big', expr: 'doubled > 8' },
          { key: 'doubled', expr: 'w * 2' },
        ],
      }),
    );
    const result = evaluate(compiled, { shown: true });
    expect(result.line.variables).toEqual({ big: true, doubled: 10 });
    expect(question(result, 'shown')).toMatchObject({ visible: true, values: [true] });
  });

  it('handles a long chain without recursion limits', () => {
    const variables = Array.from({ length: 3000 }, (_, i) => ({ key: `v${i}`, expr: i === 0 ? '1' : `v${i - 1} + 1` }));
    const compiled = compileOk(model({ variables: variables.reverse() }));
    expect(evaluate(compiled, {}).line.variables.v2999).toBe(3000);
  });
});
