/**
 * MODEL_FORMAT.md rule-by-rule coverage (part 5): `rules[].allowed` compatibility
 * tables and option availability.
 */
import { describe, expect, it } from 'vitest';
import { compileOk, evaluate, model, question, rule } from './helpers.js';

const opts = (...keys: string[]) => keys.map((key) => ({ key, label: key.toUpperCase() }));
const choice = (key: string, keys: string[], extra: Record<string, unknown> = {}) => ({
  key,
  type: 'choice',
  label: key,
  options: opts(...keys),
  ...extra,
});

describe('compatibility tables', () => {
  const compiled = compileOk(
    model({
      questions: [
        choice('a', ['x', 'y', 'w']),
        choice('b', ['p', 'q']),
        { key: 'n', type: 'integer', label: 'N' },
        { key: 'flag', type: 'boolean', label: 'F' },
        { key: 'off', type: 'boolean', label: 'Off', default: false },
      ],
      rules: [
        {
          key: 'abn',
          message: 'no such combination',
          allowed: {
            columns: ['a', 'b', 'n'],
            rows: [
              ['x', 'p', 1],
              ['y', 'q', 1],
              ['x', 'q', 2],
            ],
          },
        },
        {
          key: 'flagged',
          when: '!off',
          message: 'flag',
          allowed: {
            columns: ['b', 'flag'],
            rows: [
              ['p', true],
              ['q', false],
            ],
          },
        },
      ],
    }),
  );
  const availability = (result: ReturnType<typeof evaluate>, key: string) =>
    question(result, key).options?.map((o) => [o.key, o.available, o.unavailable_because]);

  it('an option that appears in no row is unavailable even when nothing is answered', () => {
    const result = evaluate(compiled, {});
    expect(availability(result, 'a')).toEqual([
      ['x', true, []],
      ['y', true, []],
      ['w', false, ['abn']],
    ]);
    expect(rule(result, 'abn').status).toBe('passed');
  });

  it('availability of a column is computed against the OTHER answered columns only', () => {
    // a = x, n = 1: rows compatible for b (ignoring b) = [x,p,1] → only p
    const result = evaluate(compiled, { a: 'x', n: 1 });
    expect(availability(result, 'b')).toEqual([
      ['p', true, []],
      ['q', false, ['abn']],
    ]);
    // a's own options are judged against n = 1 (b unanswered): x and y have rows with n = 1
    expect(availability(result, 'a')).toEqual([
      ['x', true, []],
      ['y', true, []],
      ['w', false, ['abn']],
    ]);
    // b = q, n = 1 → for a only y fits; x has [x,q,2] but n differs
    const bq = evaluate(compiled, { b: 'q', n: 1 });
    expect(availability(bq, 'a')).toEqual([
      ['x', false, ['abn']],
      ['y', true, []],
      ['w', false, ['abn']],
    ]);
  });

  it('choosing an unavailable option is an error at its value, naming the rule', () => {
    const result = evaluate(compiled, { a: 'y', b: 'p' });
    expect(rule(result, 'abn').status).toBe('failed');
    expect(result.valid).toBe(false);
    expect(result.errors.map((e) => [e.code, e.path])).toEqual([
      ['option_unavailable', 'questions.a.values[0]'],
      ['option_unavailable', 'questions.b.values[0]'],
      ['rule_failed', 'rules.abn'],
    ]);
    expect(result.errors[0].message).toContain('abn');
  });

  it('boolean columns match by value; a table whose rule `when` is false restricts nothing', () => {
    // b = p needs flag = true
    const restricted = evaluate(compiled, { flag: false });
    expect(availability(restricted, 'b')).toEqual([
      ['p', false, ['flagged']],
      ['q', true, []],
    ]);
    expect(rule(evaluate(compiled, { b: 'p', flag: false }), 'flagged').status).toBe('failed');
    // off = true → the rule is skipped: p is available and p + false is valid
    const skipped = evaluate(compiled, { off: true, b: 'p', flag: false });
    expect(rule(skipped, 'flagged').status).toBe('skipped');
    expect(availability(skipped, 'b')).toEqual([
      ['p', true, []],
      ['q', true, []],
    ]);
    expect(skipped.valid).toBe(true);
  });

  it('defaults count as answers of a column (effective values)', () => {
    const withDefault = compileOk(
      model({
        questions: [
          choice('frame', ['pvc', 'alu'], { default: 'pvc' }),
          choice('color', ['white', 'oak']),
        ],
        rules: [
          {
            key: 'fc',
            message: 'm',
            allowed: {
              columns: ['frame', 'color'],
              rows: [
                ['pvc', 'white'],
                ['alu', 'oak'],
              ],
            },
          },
        ],
      }),
    );
    const result = evaluate(withDefault, {});
    expect(availability(result, 'color')).toEqual([
      ['white', true, []],
      ['oak', false, ['fc']],
    ]);
    // the user picks oak: the default pvc becomes unavailable, reported at questions.frame
    const oak = evaluate(withDefault, { color: 'oak' });
    expect(oak.errors.map((e) => [e.code, e.path])).toEqual([
      ['option_unavailable', 'questions.frame'],
      ['option_unavailable', 'questions.color.values[0]'],
      ['rule_failed', 'rules.fc'],
    ]);
  });
});
