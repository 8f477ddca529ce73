import { describe, expect, it, vi } from 'vitest';
import { Environment } from '@marcbachmann/cel-js';
import { RE2JS } from 're2js';
import { CostBudget } from '../../../src/engine/cel/budget.js';
import { EvaluationContext, Expression, UNKNOWN } from '../../../src/engine/cel/expression.js';
import { compileDocument } from '../../../src/engine/work.js';
import { OVERFLOW_ERRORS, OVERFLOW_SECTIONS } from '../../support/attack-models.js';
import {
  compileOk,
  compileProblems,
  evaluate,
  expectProblem,
  model,
  question,
} from '../helpers.js';

const options = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `o${i}`, label: 'O' }));

describe('runtime cost budget', () => {
  // Ten variables of ~200,000 units each: with a budget of 1,000,000 the first four run,
  // the rest are unknown (null) with a cost_limit error each.
  const document = model({
    questions: [{ key: 'picks', type: 'multi_choice', label: 'P', options: options(1000) }],
    variables: Array.from({ length: 10 }, (_, i) => ({
      key: `v${i}`,
      expr: 'picks.filter(a, a.startsWith("o1")).size()',
    })),
  });

  it('an expression the budget cannot pay for is unknown, with cost_limit on its path', () => {
    const result = compileDocument(document, { evaluationCost: 1_000_000 });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const cost = result.model.variables[0].expr.cost;
    const affordable = Math.floor(1_000_000 / cost);
    expect(affordable).toBeGreaterThan(0);
    expect(affordable).toBeLessThan(10);
    const evaluation = evaluate(result.model, { picks: ['o1', 'o2'] });
    expect(evaluation.valid).toBe(false);
    const limited = evaluation.errors.filter((e) => e.code === 'cost_limit');
    expect(limited.map((e) => e.path)).toEqual(
      Array.from({ length: 10 - affordable }, (_, i) => `variables[${affordable + i}].expr`),
    );
    expect(limited[0].message).toContain('evaluationCost (1000000)');
    expect(evaluation.line.variables.v0).toBe(1);
    expect(evaluation.line.variables.v9).toBeNull();
  });

  it('the default budget runs them all; each evaluation starts with a fresh budget', () => {
    const compiled = compileOk(document);
    for (let i = 0; i < 3; i++) {
      const evaluation = evaluate(compiled, { picks: ['o1'] });
      expect(evaluation.errors).toEqual([]);
      expect(evaluation.line.variables.v9).toBe(1);
    }
  });

  it('CostBudget charges until the limit and records each refused path once', () => {
    const budget = new CostBudget(10);
    expect(budget.charge(6, 'a')).toBe(true);
    expect(budget.charge(6, 'b')).toBe(false);
    expect(budget.charge(6, 'b')).toBe(false);
    expect(budget.charge(4, 'c')).toBe(true);
    expect(budget.exhausted).toEqual(['b']);
    expect(budget.spent).toBe(10);
  });
});

describe('matches uses RE2', () => {
  const regexModel = (pattern: string) =>
    model({
      questions: [{ key: 'ref', type: 'text', label: 'Ref', max_length: 200 }],
      rules: [
        {
          key: 'ref_format',
          when: 'ref != null',
          assert: `ref.matches('${pattern}')`,
          message: 'm',
        },
      ],
    });

  it('a pattern RE2 refuses (backreference) is an upload error with its path', () => {
    const result = compileDocument(regexModel('^(a+)\\\\1$'));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      const problem = expectProblem(result.problems, 'invalid_regex', 'rules[0].assert');
      expect(problem.message).toContain('RE2');
    }
  });

  it('the catastrophic pattern ^([a-zA-Z0-9]+)*$ runs in linear time', () => {
    const compiled = compileOk(regexModel('^([a-zA-Z0-9]+)*$'));
    // A backtracking engine needs ~2^28 steps for this answer; RE2 a few hundred.
    const attack = `${'a'.repeat(28)}!`;
    const started = performance.now();
    const result = evaluate(compiled, { ref: attack });
    const long = evaluate(compiled, { ref: `${'a'.repeat(199)}!` });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(result.line.rules[0].status).toBe('failed');
    expect(long.line.rules[0].status).toBe('failed');
    expect(evaluate(compiled, { ref: 'abc123' }).line.rules[0].status).toBe('passed');
  });

  /** A rule matching a 50-character text against a pattern answered as a 20-character one. */
  const computedPatternModel = () =>
    compileOk(
      model({
        questions: [
          { key: 'ref', type: 'text', label: 'Ref', max_length: 50 },
          { key: 'pattern', type: 'text', label: 'P', max_length: 20 },
        ],
        rules: [{ key: 'r', assert: 'ref.matches(pattern)', message: 'm' }],
      }),
    );

  it('a pattern computed at evaluation is compiled by RE2 too (an invalid one fails the rule: rule_error)', () => {
    // A computed pattern is compiled at every evaluation (~10 µs per character, cel/cost.ts
    // COMPILE_CHAR_UNITS): 20 characters (40 UTF-16 units) fit expressionCost, 50 do not.
    const compiled = computedPatternModel();
    expect(evaluate(compiled, { ref: 'abc', pattern: '^a' }).line.rules[0].status).toBe('passed');
    // Every input answered, the expression failed at run time: an error, never pending.
    const refused = evaluate(compiled, { ref: 'aa', pattern: '^(a)\\1$' });
    expect(refused.line.rules[0].status).toBe('failed');
    expect(refused.errors).toEqual([
      expect.objectContaining({ code: 'rule_error', path: 'rules.r' }),
    ]);
  });

  it('a computed pattern outside the linear subset the estimate assumes fails the rule', () => {
    const compiled = computedPatternModel();
    const status = (pattern: string) =>
      evaluate(compiled, { ref: 'aaa', pattern }).line.rules[0].status;
    // Counted repetition (program × 1,000), case folding and Unicode classes (slow to
    // compile): refused before compiling, although RE2 accepts them and they would match.
    for (const pattern of ['(?:a?){1000}a{1000}', 'a{3}', '(?i)A', '\\pL', '\\p{Latin}', '\\Qa\\E'])
      expect(status(pattern), pattern).toBe('failed');
    // Escaped braces, non-capturing and named groups are within the subset.
    for (const pattern of ['^a+$', '(?:a|b)+', '(?P<x>a)', 'a\\{?', '[a-c]*'])
      expect(status(pattern), pattern).toBe('passed');
  });

  it('a literal pattern is compiled once at upload and its program reused', () => {
    // A pattern no other test compiles, used by two expressions of one model.
    const pattern = '^once-[0-9]{3}$';
    const spy = vi.spyOn(RE2JS, 'compile');
    try {
      const compiled = compileOk(
        model({
          questions: [{ key: 'ref', type: 'text', label: 'Ref', max_length: 20 }],
          variables: [{ key: 'ok', expr: `ref.matches('${pattern}')` }],
          rules: [{ key: 'r', assert: `ref.matches('${pattern}')`, message: 'm' }],
        }),
      );
      expect(spy.mock.calls.filter(([p]) => p === pattern)).toHaveLength(1);
      expect(evaluate(compiled, { ref: 'once-123' }).line.rules[0].status).toBe('passed');
      expect(evaluate(compiled, { ref: 'once-12' }).line.variables.ok).toBe(false);
      expect(spy.mock.calls.filter(([p]) => p === pattern)).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('matches inside comprehensions and cel.bind runs on RE2 as well', () => {
    const compiled = compileOk(
      model({
        questions: [
          { key: 'picks', type: 'multi_choice', label: 'P', options: [{ key: 'aa', label: 'A' }] },
          { key: 'pattern', type: 'text', label: 'P', max_length: 50 },
        ],
        rules: [
          { key: 'in_exists', assert: 'picks.exists(x, x.matches(pattern))', message: 'm' },
          { key: 'in_bind', assert: 'cel.bind(p, pattern, picks[0].matches(p))', message: 'm' },
        ],
      }),
    );
    // JavaScript's RegExp accepts the backreference (and would pass); RE2 refuses it.
    const refused = evaluate(compiled, { picks: ['aa'], pattern: '^(a)\\1$' });
    expect(refused.line.rules.map((r) => r.status)).toEqual(['failed', 'failed']);
    const accepted = evaluate(compiled, { picks: ['aa'], pattern: '^a+$' });
    expect(accepted.line.rules.map((r) => r.status)).toEqual(['passed', 'passed']);
  });
});

describe('text values are held to max_length before any expression reads them', () => {
  // The static cost bounds a text question's value by max_length (cost-check.ts):
  // defaults and trigger values longer than that are refused too, not only answers.
  const texts = (sections: Record<string, unknown>) =>
    model({
      questions: [
        { key: 'note', type: 'text', label: 'N', max_length: 3 },
        { key: 'flag', type: 'boolean', label: 'F' },
      ],
      ...sections,
    });

  it('a literal default or trigger value longer than max_length is an upload error at its path', () => {
    const problems = compileProblems(
      model({
        questions: [
          { key: 'note', type: 'text', label: 'N', max_length: 3, default: 'abcd' },
          { key: 'emoji', type: 'text', label: 'E', max_length: 2, default: '😀😀' },
          { key: 'flag', type: 'boolean', label: 'F' },
        ],
        triggers: [{ key: 't', when: 'flag == true', set: { note: 'long text' } }],
      }),
    );
    expect(problems.map((p) => [p.code, p.path])).toEqual([
      ['invalid_default', 'questions.note.default'],
      ['invalid_value', 'triggers.t.set.note'],
    ]);
    expect(problems[0].message).toContain('at most 3 characters');
  });

  it('a computed default or trigger value longer than max_length is not used (a warning)', () => {
    const long = compileOk(
      texts({
        questions: [
          { key: 'note', type: 'text', label: 'N', max_length: 3 },
          { key: 'memo', type: 'text', label: 'M', max_length: 3, default_expr: "'abcd'" },
          { key: 'flag', type: 'boolean', label: 'F' },
        ],
        variables: [
          { key: 'seen', expr: "(note == null ? '' : note) + (memo == null ? '' : memo)" },
        ],
        triggers: [{ key: 't', when: 'flag == true', set: { note: { expr: "'ab' + 'cd'" } } }],
      }),
    );
    const result = evaluate(long, { flag: true });
    expect(result.warnings.map((w) => [w.code, w.path])).toEqual([
      ['invalid_trigger_value', 'triggers.t'],
      ['invalid_default', 'questions.memo'],
    ]);
    expect(question(result, 'note').values).toEqual([]);
    expect(question(result, 'memo').values).toEqual([]);
    expect(result.line.variables.seen).toBe('');
    const fits = evaluate(
      compileOk(
        texts({
          triggers: [{ key: 't', when: 'flag == true', set: { note: { expr: "'a' + 'bc'" } } }],
        }),
      ),
      { flag: true },
    );
    expect(question(fits, 'note').values).toEqual(['abc']);
  });
});

describe('fail closed pricing', () => {
  it('length = 1e308: the overflowing items make the configuration invalid, naming them', () => {
    const compiled = compileOk(model(OVERFLOW_SECTIONS));
    const result = evaluate(compiled, { length: 1e308 });
    expect(result.valid).toBe(false);
    expect(result.errors.map((e) => [e.code, e.path])).toEqual(OVERFLOW_ERRORS);
    const ordinary = evaluate(compiled, { length: 1200 });
    expect(ordinary.valid).toBe(true);
    // 1200 × 2 × 3.00 + 1200² × 1 + 1.2 × 1.00 + 4 × 0.10
    expect(ordinary.line.pricing.bom_total).toBe('1447201.60');
    expect(ordinary.line.bom_items).toHaveLength(4);
  });
});

describe('unknown operands without a throw', () => {
  const env = new Environment({ unlistedVariablesAreDyn: true });
  const build = (source: string, names: string[]): Expression =>
    Expression.compile(source, 'x', names, 1, env, new Map());
  const sources: Array<[string, string[]]> = [
    ['a + 1 > 3', ['a']],
    ['a == null || a > 3', ['a']],
    ['a == "x"', ['a']],
    ['b ? a * 2 : 1', ['a', 'b']],
    ['size(s) > 2 && b', ['s', 'b']],
    ['s.startsWith("x")', ['s']],
    ['l.exists(x, x == "y")', ['l']],
    ['"y" in l', ['l']],
    ['s in l', ['s', 'l']],
    ['-a < 0', ['a']],
    ['!b', ['b']],
    ['a', ['a']],
    ['dyn(a) == null', ['a']],
    ['cel.bind(z, a, z == null)', ['a']],
  ];
  const contexts: Array<Record<string, unknown>> = [
    { a: null, b: null, s: null, l: null },
    { a: 5, b: true, s: 'xyz', l: ['y'] },
    { a: null, b: false, s: 'x', l: null },
    { a: 1, b: null, s: null, l: ['q'] },
  ];

  it('skipping on a null strict name gives exactly what running the expression gives', () => {
    for (const [source, names] of sources) {
      const expression = build(source, names);
      const program = env.parse(source);
      for (const values of contexts) {
        const context = new EvaluationContext(Object.entries(values));
        let expected: unknown;
        try {
          expected = program(context);
        } catch {
          expected = UNKNOWN;
        }
        expect(expression.run(context), `${source} with ${JSON.stringify(values)}`).toEqual(
          expected,
        );
      }
    }
  });

  it('a draft expression that reaches an evaluation throws instead of quietly giving unknown', () => {
    expect(() => Expression.draft('1 + 1', 'x').run(new EvaluationContext())).toThrow(
      /never compiled/,
    );
  });
});
