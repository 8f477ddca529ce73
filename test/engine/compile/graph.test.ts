import { describe, expect, it } from 'vitest';
import {
  compileOk,
  compileProblems,
  evaluate,
  expectProblem,
  model,
  question,
} from '../helpers.js';

describe('dependency graph', () => {
  it('reports a cycle between variables, naming the keys', () => {
    const problems = compileProblems(
      model({
        variables: [
          { key: 'a', expr: 'b + 1' },
          { key: 'b', expr: 'c + 1' },
          { key: 'c', expr: 'a + 1' },
        ],
      }),
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
        questions: [
          {
            key: 'g',
            type: 'choice',
            label: 'G',
            options: [
              { key: 'x', label: 'x' },
              { key: 'y', label: 'y' },
            ],
          },
        ],
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
    const variables = Array.from({ length: 3000 }, (_, i) => ({
      key: `v${i}`,
      expr: i === 0 ? '1' : `v${i - 1} + 1`,
    }));
    const compiled = compileOk(model({ variables: variables.reverse() }));
    expect(evaluate(compiled, {}).line.variables.v2999).toBe(3000);
  });
});
