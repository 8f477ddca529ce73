/**
 * Expression depth (docs/ENGINE.md "Pipeline"): cel-js's `maxDepth` (250) refuses nested
 * parentheses but does not count a chain of unary or binary operators, and every AST
 * walker after the parse recurses once per level. `'!'.repeat(4000) + 'true'` (4 kB, under
 * the expression size limit) overflowed the stack of the compile (RangeError, a 500 over
 * HTTP); an iterative depth check right after the parse now refuses it like nesting.
 */
import { describe, expect, it } from 'vitest';
import { DEPTH_MESSAGE, deeperThan, MAX_EXPRESSION_DEPTH } from '../../../src/engine/cel/depth.js';
import { createEnvironments } from '../../../src/engine/cel/environment.js';
import { compileDocument, type Problem } from '../../../src/engine/work.js';
import { compileOk, model } from '../helpers.js';

const withVariable = (expr: string) => model({ variables: [{ key: 'v', expr }] });

/** The problems of a compile that must not throw (a thrown RangeError fails the test). */
function problemsOf(document: unknown): Problem[] {
  const result = compileDocument(document);
  return result.ok ? [] : result.problems;
}

const nestingProblem = (): Problem => {
  const parens = '('.repeat(300) + 'true' + ')'.repeat(300);
  const [problem] = problemsOf(withVariable(parens));
  return problem;
};

describe('expression depth', () => {
  it('nested parentheses past 250 are a syntax_error from cel-js (the reference)', () => {
    expect(nestingProblem()).toEqual({
      code: 'syntax_error',
      message: `invalid CEL: ${DEPTH_MESSAGE}`,
      path: 'variables.v.expr',
      pointer: '/variables/0/expr',
    });
    expect(DEPTH_MESSAGE).toBe('Exceeded maxDepth (250)');
  });

  for (const [op, operand] of [
    ['!', 'true'],
    ['-', '1'],
  ] as const) {
    it(`a chain of 200 '${op}' compiles; 250 and up is the nesting problem, never a throw`, () => {
      compileOk(withVariable(op.repeat(200) + operand));
      // 249 operators and the operand: 250 nodes deep, the limit itself.
      compileOk(withVariable(op.repeat(MAX_EXPRESSION_DEPTH - 1) + operand));
      for (const n of [MAX_EXPRESSION_DEPTH, 300, 2_500, 3_000, 4_000]) {
        const source = op.repeat(n) + operand;
        expect(source.length).toBeLessThanOrEqual(4 * 1024);
        expect(problemsOf(withVariable(source)), `${n} × '${op}'`).toEqual([nestingProblem()]);
      }
    });
  }

  it('refuses the chain wherever the expression is (a rule assert, a visible_if)', () => {
    const deep = '!'.repeat(4_000) + 'true';
    const problems = problemsOf(
      model({
        questions: [{ key: 'q', type: 'boolean', label: 'Q', visible_if: deep }],
        rules: [{ key: 'r', assert: deep, message: 'm' }],
      }),
    );
    const problem = { code: 'syntax_error', message: `invalid CEL: ${DEPTH_MESSAGE}` };
    expect(problems).toEqual([
      { ...problem, path: 'questions.q.visible_if', pointer: '/questions/0/visible_if' },
      { ...problem, path: 'rules.r.assert', pointer: '/rules/0/assert' },
    ]);
  });

  it('counts binary chains too (cel-js does not): 1+1+… 300 terms deep is refused', () => {
    compileOk(withVariable('1' + '+1'.repeat(200)));
    expect(problemsOf(withVariable('1' + '+1'.repeat(300)))).toEqual([nestingProblem()]);
  });

  it('deeperThan counts nodes on the longest path, without recursion', () => {
    const { check } = createEnvironments();
    const ast = check.parse('[1, {"k": !!true}]').ast; // list → map → ! → ! → true
    expect(deeperThan(ast, 5)).toBe(false);
    expect(deeperThan(ast, 4)).toBe(true);
    // 4,000 levels: an explicit stack, so no RangeError (a recursive walk overflowed).
    const deep = check.parse('-'.repeat(4_000) + '1').ast;
    expect(deeperThan(deep, 4_001)).toBe(false);
    expect(deeperThan(deep, 4_000)).toBe(true);
  });
});
