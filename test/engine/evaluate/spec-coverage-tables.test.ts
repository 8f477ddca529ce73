/**
 * docs/model-format.md rule-by-rule coverage (part 5): `rules[].allowed` compatibility
 * tables and option availability.
 */
import { describe, expect, it } from 'vitest';
import { compileOk, evaluate, model, question, rule, choice } from '../helpers.js';

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
    // The two answers conflict: one cause, a problem on each answer naming both and the
    // table (issue #32), even though the table (a number column) is checked outside the
    // diagram.
    const set = [
      { question: 'a', values: ['y'] },
      { question: 'b', values: ['p'] },
    ];
    expect(result.errors.map((e) => [e.code, e.path, e.answers, e.rules])).toEqual([
      ['conflict', 'questions.a', set, ['abn']],
      ['conflict', 'questions.b', set, ['abn']],
    ]);
    expect(result.errors[0].message).toContain('abn');
  });

  it('boolean columns match by value; a table whose rule `when` is false restricts nothing', () => {
    // b = p needs flag = true, unless off (its default false is soft) is answered true:
    // with exact availability (issue #6) p stays available until off is answered false.
    const open = evaluate(compiled, { flag: false });
    expect(availability(open, 'b')).toEqual([
      ['p', true, []],
      ['q', true, []],
    ]);
    const restricted = evaluate(compiled, { flag: false, off: false });
    expect(availability(restricted, 'b')).toEqual([
      ['p', false, ['flagged']],
      ['q', true, []],
    ]);
    expect(question(restricted, 'b').options?.[0].conflicts_with).toEqual(['flag', 'off']);
    // b = p with flag = false: the default off = false would fail the rule, so it is
    // suppressed; `!off` on null is unknown and the rule pending (was: failed).
    const picked = evaluate(compiled, { b: 'p', flag: false });
    expect(rule(picked, 'flagged').status).toBe('pending');
    expect(question(picked, 'off').suppressed).toEqual(['default']);
    expect(rule(evaluate(compiled, { b: 'p', flag: false, off: false }), 'flagged').status).toBe(
      'failed',
    );
    // off = true → the rule is skipped: p is available and p + false is valid
    const skipped = evaluate(compiled, { off: true, b: 'p', flag: false });
    expect(rule(skipped, 'flagged').status).toBe('skipped');
    expect(availability(skipped, 'b')).toEqual([
      ['p', true, []],
      ['q', true, []],
    ]);
    expect(skipped.valid).toBe(true);
  });

  it('defaults are soft: they restrict no option and give way to the user', () => {
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
    // Issue #6 changed this on purpose: defaults do not count as answers for
    // availability (docs/model-format.md "Consistency"), so oak stays available.
    const result = evaluate(withDefault, {});
    expect(availability(result, 'color')).toEqual([
      ['white', true, []],
      ['oak', true, []],
    ]);
    // the user picks oak: the default pvc would leave no valid completion, so it is
    // suppressed (was: option_unavailable at questions.frame and rule_failed).
    const oak = evaluate(withDefault, { color: 'oak' });
    expect(oak.errors).toEqual([]);
    expect(question(oak, 'frame')).toMatchObject({
      values: [],
      source: 'none',
      suppressed: ['default'],
    });
  });
});
