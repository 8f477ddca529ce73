/**
 * An AST walker that throws (a compile bug, a stack overflow the depth check should have
 * prevented) is a problem on its expression, never an exception out of compileDocument (which
 * the service would answer with a 500). The walkers are replaced here by ones that throw a
 * RangeError for the sources containing `boom`.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Problem } from '../../../src/engine/work.js';
import { model } from '../helpers.js';

/** What a walker recursing past the stack throws. */
const overflow = () => new RangeError('Maximum call stack size exceeded');

vi.mock('../../../src/engine/cel/identifiers.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/engine/cel/identifiers.js')>();
  return {
    freeIdentifiers: (root: Parameters<typeof actual.freeIdentifiers>[0]) => {
      if (root.input.includes('boom names')) throw overflow();
      return actual.freeIdentifiers(root);
    },
  };
});

vi.mock('../../../src/engine/cel/cost.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/engine/cel/cost.js')>();
  return {
    ...actual,
    estimateCost: (...args: Parameters<typeof actual.estimateCost>) => {
      if (args[0].input.includes('boom cost')) throw overflow();
      return actual.estimateCost(...args);
    },
  };
});

// The suite runs its files in shared processes (no isolation): an earlier file may have
// loaded the engine unmocked, so the engine is loaded afresh here, with the mocks above.
let compileDocument: typeof import('../../../src/engine/work.js').compileDocument;
beforeAll(async () => {
  vi.resetModules();
  ({ compileDocument } = await import('../../../src/engine/work.js'));
});
// And the later files of the fork load the engine afresh, unmocked.
afterAll(() => {
  vi.doUnmock('../../../src/engine/cel/identifiers.js');
  vi.doUnmock('../../../src/engine/cel/cost.js');
  vi.resetModules();
});

function problemsOf(document: unknown): Problem[] {
  const result = compileDocument(document);
  return result.ok ? [] : result.problems;
}

describe('a walker that throws', () => {
  it('free names (step 1): a syntax_error on that expression only', () => {
    const problems = problemsOf(
      model({
        variables: [
          { key: 'a', expr: '"boom names" == "x"' },
          { key: 'b', expr: '1 + 1' },
        ],
      }),
    );
    expect(problems).toEqual([
      {
        code: 'syntax_error',
        message: 'invalid CEL: cannot analyse: Maximum call stack size exceeded',
        path: 'variables.a.expr',
        pointer: '/variables/0/expr',
      },
    ]);
  });

  it('static cost (after the type check): a type_error on that expression', () => {
    const problems = problemsOf(
      model({ rules: [{ key: 'r', assert: '"boom cost" != "x"', message: 'm' }] }),
    );
    expect(problems).toEqual([
      {
        code: 'type_error',
        message: 'cannot compile: Maximum call stack size exceeded',
        path: 'rules.r.assert',
        pointer: '/rules/0/assert',
      },
    ]);
  });
});
