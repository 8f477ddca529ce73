import { describe, expect, it } from 'vitest';
import { compileOk, compileProblems, evaluate, expectProblem, model, dims } from '../helpers.js';

describe('expressions at upload', () => {
  it('reports syntax errors with the path of the expression', () => {
    const problems = compileProblems(
      model({ questions: dims, rules: [{ key: 'r', assert: 'width >', message: 'm' }] }),
    );
    expectProblem(problems, 'syntax_error', 'rules[0].assert');
  });

  it('reports unknown names', () => {
    const problems = compileProblems(
      model({
        questions: [{ ...dims[0], visible_if: 'depth > 3' }],
        variables: [{ key: 'v', expr: 'width * factor' }],
      }),
    );
    expect(expectProblem(problems, 'unknown_name', 'questions[0].visible_if').message).toContain(
      "'depth'",
    );
    expect(expectProblem(problems, 'unknown_name', 'variables[0].expr').message).toContain(
      "'factor'",
    );
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
          {
            key: 'q3',
            type: 'choice',
            label: 'x',
            options: [{ key: 'a', label: 'a' }],
            default_expr: '1',
          },
          { key: 'q4', type: 'text', label: 'x', required: 'note' },
        ],
        bom_items: [
          { key: 'b', sku: 'B', description: 'B', quantity: "'two'", price_expr: 'glass' },
        ],
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
    expect(evaluate(compiled, {}).line.variables).toEqual({
      no_width: true,
      has_frame: false,
      no_extras: true,
    });
    expect(evaluate(compiled, { width: 3, frame: 'pvc', extras: ['lock'] }).line.variables).toEqual(
      {
        no_width: false,
        has_frame: true,
        no_extras: false,
      },
    );
  });

  it('rejects expressions above the length limit before parsing them', () => {
    const long = `width > ${'1'.repeat(5000)}`;
    const problems = compileProblems(
      model({ questions: dims, rules: [{ key: 'r', assert: long, message: 'm' }] }),
    );
    const problem = expectProblem(problems, 'limit_exceeded', 'rules[0].assert');
    expect(problem.message).toContain('expressionBytes');
    expect(problems.some((p) => p.code === 'syntax_error')).toBe(false);
  });
});
