import { describe, expect, it } from 'vitest';
import { compileOk, evaluate, lcg, model, question, rule } from '../helpers.js';

const integer = (key: string) => ({ key, type: 'integer', label: key });

/** Asserts over two integer questions that can fail at run time (int division and modulo by zero). */
const ASSERTS: ReadonlyArray<{
  source: string;
  holds: (a: number, b: number) => boolean | 'error';
}> = [
  { source: 'a / b > 1', holds: (a, b) => (b === 0 ? 'error' : Math.trunc(a / b) > 1) },
  { source: 'a % b == 0', holds: (a, b) => (b === 0 ? 'error' : a % b === 0) },
  { source: 'a * b < 4', holds: (a, b) => a * b < 4 },
];

describe('a rule whose assert fails at run time', () => {
  const compiled = compileOk(
    model({
      questions: [integer('a'), integer('b')],
      rules: [
        { key: 'ratio', assert: 'a / b > 1', message: 'a must be more than b' },
        { key: 'soft', severity: 'warning', assert: 'a % b == 0', message: 'b divides a' },
      ],
    }),
  );

  it('is pending while one of its inputs is unanswered', () => {
    const result = evaluate(compiled, { a: 5 });
    expect(result.line.rules.map((r) => r.status)).toEqual(['pending', 'pending']);
    expect(result.valid).toBe(true);
    expect(result.errors).toEqual([]);
  });

  it('with every input answered is rule_error at rules.<key>: an error refuses the line', () => {
    const result = evaluate(compiled, { a: 5, b: 0 });
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual([
      { code: 'rule_error', message: 'a must be more than b', path: 'rules.ratio' },
    ]);
    expect(rule(result, 'ratio')).toMatchObject({ status: 'failed', severity: 'error' });
    // A warning rule that fails to evaluate is reported, and the line stays as valid as it was.
    expect(result.warnings).toEqual([
      { code: 'rule_error', message: 'b divides a', path: 'rules.soft' },
    ]);
  });

  it('random answers agree with brute force: pending, rule_error, passed or failed', () => {
    const next = lcg(39);
    for (let round = 0; round < 300; round++) {
      const { source, holds } = ASSERTS[next(ASSERTS.length)];
      const severity = next(2) === 0 ? 'error' : 'warning';
      const one = compileOk(
        model({
          questions: [integer('a'), integer('b')],
          rules: [{ key: 'r', severity, assert: source, message: 'm' }],
        }),
      );
      const values: Record<string, number> = {};
      if (next(4) > 0) values.a = next(7) - 3;
      if (next(4) > 0) values.b = next(7) - 3;
      const result = evaluate(one, values);
      const problems = severity === 'error' ? result.errors : result.warnings;
      const context = `${source} with ${JSON.stringify(values)} (${severity})`;
      if (values.a === undefined || values.b === undefined) {
        expect(rule(result, 'r').status, context).toBe('pending');
        expect(problems, context).toEqual([]);
        continue;
      }
      const expected = holds(values.a, values.b);
      expect(rule(result, 'r').status, context).toBe(expected === true ? 'passed' : 'failed');
      const codes = problems.map((p) => p.code);
      expect(codes, context).toEqual(
        expected === true ? [] : [expected === 'error' ? 'rule_error' : 'rule_failed'],
      );
      expect(result.valid, context).toBe(severity === 'warning' || expected === true);
    }
  });

  it('the consistency compile agrees: an option whose every completion fails so is unavailable', () => {
    const choice = compileOk(
      model({
        questions: [
          {
            key: 'b',
            type: 'choice',
            label: 'B',
            options: [
              { key: 'x', label: 'x' },
              { key: 'y', label: 'y' },
            ],
          },
        ],
        rules: [{ key: 'r', assert: "1 / (b == 'x' ? 1 : 0) > 0", message: 'm' }],
      }),
    );
    const open = evaluate(choice, {});
    expect(rule(open, 'r').status).toBe('pending');
    const options = question(open, 'b').options ?? [];
    expect(options.map((o) => [o.key, o.available, o.unavailable_because])).toEqual([
      ['x', true, []],
      ['y', false, ['r']],
    ]);
    const chosen = evaluate(choice, { b: 'y' });
    expect(chosen.valid).toBe(false);
    expect(chosen.errors.map((e) => [e.code, e.path])).toContainEqual(['rule_error', 'rules.r']);
  });
});
