/**
 * docs/model-format.md "Logical rules": clause, at_least, at_most, requires, excludes —
 * validation, the compiled diagram's size and count, rule statuses and explanations.
 * Availability, counts and conflicts against brute force: property.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { compileDocument } from '../../../src/engine/work.js';
import { reviveModel, toTransferable } from '../../../src/engine/transfer.js';
import {
  choice,
  compileOk,
  compileProblems,
  evaluate,
  evaluationJson,
  expectProblem,
  model,
  question,
  rule,
} from '../helpers.js';

const bool = (key: string, extra: Record<string, unknown> = {}) => ({
  key,
  type: 'boolean',
  label: key,
  ...extra,
});
const bools = (n: number, extra: Record<string, unknown> = {}) =>
  Array.from({ length: n }, (_, i) => bool(`f${i}`, extra));

/** n choose k, exactly. */
function choose(n: number, k: number): bigint {
  let result = 1n;
  for (let i = 0; i < k; i++) result = (result * BigInt(n - i)) / BigInt(i + 1);
  return result;
}

describe('logical rules: validation', () => {
  it('accepts every form and refuses unknown questions, options and bad literals at their path', () => {
    const questions = [
      choice('engine', ['petrol', 'diesel']),
      { key: 'extras', type: 'multi_choice', label: 'x', options: [{ key: 'tow', label: 't' }] },
      bool('abs'),
      { key: 'width', type: 'number', label: 'w' },
    ];
    compileOk(
      model({
        questions,
        rules: [
          { key: 'c', clause: ['engine = diesel', '!abs', 'extras != tow', 'abs = false'] },
          { key: 'l', at_least: { count: 1, of: ['abs', 'engine != petrol'] } },
          { key: 'm', at_most: { count: 1, of: ['abs', 'extras = tow'] }, severity: 'warning' },
          { key: 'r', requires: ['extras = tow', 'engine = diesel'], message: 'Tow needs diesel' },
          { key: 'x', excludes: ['abs', 'engine = petrol'], when: 'width > 2.0' },
        ],
      }),
    );
    const problems = compileProblems(
      model({
        questions,
        rules: [
          { key: 'a', clause: ['colour = red'] },
          { key: 'b', clause: ['engine = electric'] },
          { key: 'c', clause: ['width = 3'] },
          { key: 'd', clause: ['engine'] },
          { key: 'e', requires: ['abs'] },
          { key: 'f', at_most: { count: 3, of: ['abs', '!abs'] } },
          { key: 'g', clause: [] },
          { key: 'h', clause: ['abs == true'] },
          { key: 'i', clause: ['abs'], assert: 'true' },
          { key: 'j', at_least: { of: ['abs'] } },
          { key: 'k', clause: ['abs = maybe'] },
          { key: 'l', clause: [{ question: 'abs' }] },
        ],
      }),
    );
    expectProblem(problems, 'unknown_reference', 'rules[0].clause[0]');
    expectProblem(problems, 'unknown_reference', 'rules[1].clause[0]');
    expectProblem(problems, 'invalid_value', 'rules[2].clause[0]');
    expectProblem(problems, 'invalid_value', 'rules[3].clause[0]');
    expectProblem(problems, 'invalid_value', 'rules[4].requires');
    expectProblem(problems, 'invalid_value', 'rules[5].at_most.count');
    expectProblem(problems, 'invalid_value', 'rules[6].clause');
    expectProblem(problems, 'invalid_value', 'rules[7].clause[0]');
    expectProblem(problems, 'invalid_value', 'rules[8]');
    expectProblem(problems, 'required', 'rules[9].at_least');
    expectProblem(problems, 'invalid_value', 'rules[10].clause[0]');
    expectProblem(problems, 'invalid_type', 'rules[11].clause[0]');
  });
});

describe('logical rules: the compiled form', () => {
  it('a clause of 300 literals is a chain of one node per layer, counted exactly', () => {
    const compiled = compileOk(
      model({
        questions: bools(300),
        rules: [{ key: 'any', clause: bools(300).map((q) => `${q.key} = true`) }],
      }),
    );
    const { analysis } = compiled.consistency;
    expect(analysis.exact).toBe(true);
    expect(analysis.size.nodes).toBeLessThanOrEqual(300);
    // Optional booleans: no value, false, true; only "all false" breaks the clause.
    expect(analysis.configurations).toBe(String(3n ** 300n - 1n));
  });

  it('at_most and at_least of required booleans count as binomial sums, in n × (k + 1) nodes', () => {
    const n = 60;
    const literals = bools(n).map((q) => q.key);
    const atMost = compileOk(
      model({
        questions: bools(n, { required: true }),
        rules: [{ key: 'few', at_most: { count: 3, of: literals } }],
      }),
    ).consistency.analysis;
    expect(atMost.configurations).toBe(
      String(choose(n, 0) + choose(n, 1) + choose(n, 2) + choose(n, 3)),
    );
    expect(atMost.size.nodes).toBeLessThanOrEqual(n * 5);
    const atLeast = compileOk(
      model({
        questions: bools(n, { required: true }),
        rules: [{ key: 'many', at_least: { count: n - 2, of: literals } }],
      }),
    ).consistency.analysis;
    expect(atLeast.configurations).toBe(String(choose(n, n) + choose(n, n - 1) + choose(n, n - 2)));
    expect(atLeast.size.nodes).toBeLessThanOrEqual(n * (n - 1));
  });

  it('is built without enumeration: a model far past the enumeration bound stays exact', () => {
    const compiled = compileDocument(
      model({
        questions: bools(40, { required: true }),
        rules: [{ key: 'half', at_least: { count: 20, of: bools(40).map((q) => `!${q.key}`) } }],
      }),
      { consistencyEnumeration: 10 },
    );
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    expect(compiled.model.consistency.analysis.exact).toBe(true);
    let expected = 0n;
    for (let k = 20; k <= 40; k++) expected += choose(40, k);
    expect(compiled.model.consistency.analysis.configurations).toBe(String(expected));
  });
});

describe('logical rules: evaluation and explanations', () => {
  const car = model({
    questions: [
      choice('engine', ['petrol', 'diesel', 'electric']),
      bool('tow'),
      {
        key: 'extras',
        type: 'multi_choice',
        label: 'Extras',
        options: [
          { key: 'roof', label: 'Roof' },
          { key: 'rails', label: 'Rails' },
          { key: 'box', label: 'Box' },
        ],
      },
    ],
    rules: [
      { key: 'tow_needs_fuel', requires: ['tow', 'engine != electric'], message: 'No towing' },
      { key: 'one_carrier', at_most: { count: 1, of: ['extras = rails', 'extras = box'] } },
    ],
  });

  it('names the rule in unavailable_because and the answer in conflicts_with', () => {
    const compiled = compileOk(car);
    const result = evaluate(compiled, { tow: [true] });
    const electric = question(result, 'engine').options?.find((o) => o.key === 'electric');
    expect(electric?.available).toBe(false);
    expect(electric?.unavailable_because).toEqual(['tow_needs_fuel']);
    expect(electric?.conflicts_with).toEqual(['tow']);
    const box = question(evaluate(compiled, { extras: ['rails'] }), 'extras').options?.find(
      (o) => o.key === 'box',
    );
    expect(box?.available).toBe(false);
    expect(box?.unavailable_because).toEqual(['one_carrier']);
  });

  it('passes while a literal is open, fails when answers break it, and a conflict names it', () => {
    const compiled = compileOk(car);
    expect(rule(evaluate(compiled, { tow: [true] }), 'tow_needs_fuel').status).toBe('passed');
    const broken = evaluate(compiled, { tow: [true], engine: ['electric'] });
    expect(broken.valid).toBe(false);
    const conflict = broken.errors.find((error) => error.code === 'conflict');
    expect(conflict?.rules).toEqual(['tow_needs_fuel']);
    const tooMany = evaluate(compiled, { extras: ['rails', 'box'] });
    expect(rule(tooMany, 'one_carrier').status).toBe('failed');
    expect(tooMany.valid).toBe(false);
    // A rule without a message shows its key.
    expect(rule(tooMany, 'one_carrier').message).toBe('one_carrier');
  });

  it('a warning logical rule is reported, never restricts', () => {
    const compiled = compileOk(
      model({
        questions: [choice('a', ['x', 'y']), choice('b', ['x', 'y'])],
        rules: [{ key: 'w', excludes: ['a = x', 'b = x'], severity: 'warning' }],
      }),
    );
    const result = evaluate(compiled, { a: ['x'] });
    expect(question(result, 'b').options?.every((o) => o.available)).toBe(true);
    expect(compiled.consistency.analysis.configurations).toBe('9');
    const both = evaluate(compiled, { a: ['x'], b: ['x'] });
    expect(rule(both, 'w').status).toBe('failed');
    expect(both.valid).toBe(true);
    expect(both.warnings.map((w) => w.path)).toEqual(['rules.w']);
  });

  it('a model revived in another thread gives the same lines', () => {
    const compiled = compileOk(car);
    const { model: revived } = reviveModel(toTransferable(compiled));
    for (const answers of [
      {},
      { tow: [true] },
      { tow: [true], engine: ['electric'] },
      { extras: ['rails', 'box'] },
    ])
      expect(evaluationJson(evaluate(revived, answers))).toBe(
        evaluationJson(evaluate(compiled, answers)),
      );
  });

  it('an inconsistent model is refused naming the logical rules that conflict', () => {
    const problems = compileProblems(
      model({
        questions: [bool('a', { required: true }), bool('b', { required: true })],
        rules: [
          { key: 'need_a', clause: ['a'] },
          { key: 'unrelated', clause: ['a', 'b'] },
          { key: 'a_excludes_b', excludes: ['a', 'b'] },
          { key: 'a_requires_b', requires: ['a', 'b'] },
        ],
      }),
    );
    const problem = expectProblem(problems, 'inconsistent_model');
    expect(problem.message).toContain('need_a');
    expect(problem.message).toContain('a_excludes_b');
    expect(problem.message).toContain('a_requires_b');
    expect(problem.message).not.toContain('unrelated');
  });
});

describe('logical rules: the guide', () => {
  it("docs/model-format.md's example compiles and works as the page says", () => {
    const guide = readFileSync(
      join(import.meta.dirname, '..', '..', '..', 'docs', 'model-format.md'),
      'utf8',
    );
    const section = guide.slice(guide.indexOf('### Logical rules'));
    const block = section.slice(section.indexOf('```yaml') + 7, section.indexOf('```\n', 10));
    const { rules } = yaml.load(block) as { rules: unknown[] };
    const extras = ['rails', 'box', 'airbags', 'winter', 'hitch', 'rack', 'bag'];
    const compiled = compileOk(
      model({
        questions: [
          bool('tow'),
          bool('abs'),
          bool('esp'),
          choice('engine', ['petrol', 'diesel', 'electric']),
          choice('pack', ['comfort', 'sport']),
          {
            key: 'extras',
            type: 'multi_choice',
            label: 'Extras',
            options: extras.map((key) => ({ key, label: key })),
          },
        ],
        rules,
      }),
    );
    const result = evaluate(compiled, { tow: [true], extras: ['rails'] });
    const options = question(result, 'engine').options ?? [];
    expect(options.find((o) => o.key === 'electric')?.unavailable_because).toEqual([
      'tow_needs_fuel',
    ]);
    const box = question(result, 'extras').options?.find((o) => o.key === 'box');
    expect(box?.unavailable_because).toEqual(['one_roof_carrier']);
  });
});
