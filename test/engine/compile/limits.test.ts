import { describe, expect, it } from 'vitest';
import { compileDocument, DEFAULT_ENGINE_LIMITS, resolveLimits } from '../../../src/engine/work.js';
import { compileOk, expectProblem, model } from '../helpers.js';

const text = (i: number) => ({ key: `q${i}`, type: 'text', label: 'Q' });
const limits = (overrides: Parameters<typeof resolveLimits>[0]) => resolveLimits(overrides);

function problemsOf(document: unknown, overrides: Parameters<typeof resolveLimits>[0]) {
  const result = compileDocument(document, limits(overrides));
  if (result.ok) throw new Error('expected a limit problem');
  return result.problems;
}

describe('limits', () => {
  it('has the docs/model-format.md defaults', () => {
    expect(DEFAULT_ENGINE_LIMITS).toMatchObject({
      questions: 20000,
      optionsPerQuestion: 1000,
      rules: 100000,
      bomItems: 50000,
      expressionBytes: 4096,
    });
  });

  it('questions: decided before any question is read', () => {
    // q1 is invalid (bad type) but never reported: the limit stops the work first.
    const questions = [text(0), { key: 'q1', type: 'nope' }, text(2)];
    const problems = problemsOf(model({ questions }), { questions: 2 });
    expect(problems).toEqual([
      {
        code: 'limit_exceeded',
        message: 'questions has 3 entries; the limit questions is 2',
        path: 'questions',
      },
    ]);
  });

  it('options per question', () => {
    const options = Array.from({ length: 4 }, (_, i) => ({ key: `o${i}`, label: 'O' }));
    const problems = problemsOf(
      model({ questions: [{ key: 'c', type: 'choice', label: 'C', options }] }),
      {
        optionsPerQuestion: 3,
      },
    );
    expect(expectProblem(problems, 'limit_exceeded', 'questions[0].options').message).toContain(
      'optionsPerQuestion',
    );
  });

  it('rules', () => {
    const rules = Array.from({ length: 3 }, (_, i) => ({
      key: `r${i}`,
      assert: 'true',
      message: 'm',
    }));
    expect(
      expectProblem(problemsOf(model({ rules }), { rules: 2 }), 'limit_exceeded', 'rules').message,
    ).toContain('rules');
  });

  it('BOM items are counted over every level of children', () => {
    const bom_items = [
      {
        key: 'a',
        sku: 'A',
        description: 'A',
        children: [
          {
            key: 'b',
            sku: 'B',
            description: 'B',
            children: [{ key: 'c', sku: 'C', description: 'C' }],
          },
        ],
      },
    ];
    compileOk(model({ bom_items }));
    const problem = expectProblem(
      problemsOf(model({ bom_items }), { bomItems: 2 }),
      'limit_exceeded',
      'bom_items',
    );
    expect(problem.message).toContain('bomItems');
    expect(problem.message).toContain('3 entries');
  });

  it('BOM nesting depth', () => {
    let items: unknown[] = [{ key: 'leaf', sku: 'L', description: 'L' }];
    for (let i = 0; i < 5; i++)
      items = [{ key: `n${i}`, sku: 'N', description: 'N', children: items }];
    expect(
      expectProblem(problemsOf(model({ bom_items: items }), { nestingDepth: 4 }), 'limit_exceeded')
        .message,
    ).toContain('nestingDepth');
  });

  it('expression length, counted in UTF-8 bytes', () => {
    const problems = problemsOf(
      model({ questions: [{ ...text(0), visible_if: `q0 == '${'é'.repeat(30)}'` }] }),
      { expressionBytes: 40 },
    );
    expect(expectProblem(problems, 'limit_exceeded', 'questions[0].visible_if').message).toContain(
      'expressionBytes',
    );
  });

  it('table rows: counted over every rule before any table is read', () => {
    const questions = [
      { key: 'a', type: 'choice', label: 'A', options: [{ key: 'x', label: 'X' }] },
    ];
    const table = (rows: number) => ({
      key: `t${rows}`,
      message: 'm',
      allowed: { columns: ['a'], rows: Array.from({ length: rows }, () => ['x']) },
    });
    const problems = problemsOf(model({ questions, rules: [table(2), table(3)] }), {
      tableRows: 4,
    });
    expect(problems).toEqual([
      {
        code: 'limit_exceeded',
        message: 'the tables of rules have 5 rows in total; the limit tableRows is 4',
        path: 'rules',
      },
    ]);
    expect(
      compileDocument(model({ questions, rules: [table(2), table(3)] }), limits({ tableRows: 5 }))
        .ok,
    ).toBe(true);
  });
});
