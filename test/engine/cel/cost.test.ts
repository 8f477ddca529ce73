import { Environment } from '@marcbachmann/cel-js';
import { describe, expect, it } from 'vitest';
import {
  estimateCost,
  listShape,
  SATURATED,
  SCALAR,
  type Shape,
  stringShape,
} from '../../../src/engine/cel/cost.js';
import { compileDocument } from '../../../src/engine/work.js';
import { expectProblem, model } from '../helpers.js';

const env = new Environment({ unlistedVariablesAreDyn: true });
const shapes: Record<string, Shape> = {
  colors: listShape(100, stringShape(10)),
  note: stringShape(500),
  width: SCALAR,
};
const cost = (source: string, names: Record<string, Shape> = shapes): number =>
  estimateCost(env.parse(source).ast, (name) => names[name]).cost;

/** `[0, 1, …, n-1]` as CEL source. */
const listLiteral = (n: number): string => `[${Array.from({ length: n }, (_, i) => i).join(',')}]`;

describe('static cost estimate', () => {
  it('a comprehension multiplies its step by the size of its range; nesting multiplies again', () => {
    const one = cost('colors.exists(c, c == "red")');
    const two = cost('colors.exists(c, colors.exists(d, d == c))');
    const three = cost('colors.exists(c, colors.exists(d, colors.exists(e, e == d)))');
    expect(one).toBeGreaterThanOrEqual(100);
    expect(two).toBeGreaterThanOrEqual(100 * 100);
    expect(three).toBeGreaterThanOrEqual(100 * 100 * 100);
    expect(two / one).toBeGreaterThan(50);
    expect(three / two).toBeGreaterThan(50);
  });

  it('a list literal ranges over its length', () => {
    const ten = cost(`${listLiteral(10)}.map(x, x * 2)`);
    const thousand = cost(`${listLiteral(1000)}.map(x, x * 2)`);
    expect(thousand).toBeGreaterThan(50 * ten);
    // The attack of issue #7: three nested comprehensions over 1,000 elements.
    const attack = `cel.bind(l, ${listLiteral(1000)}, l.map(a, l.map(b, l.filter(c, c < 5).size())))`;
    expect(cost(attack)).toBeGreaterThan(1e9);
  });

  it('a multi_choice ranges over its option count', () => {
    const small = { ...shapes, colors: listShape(3, stringShape(10)) };
    const large = { ...shapes, colors: listShape(1000, stringShape(10)) };
    const source = 'colors.filter(c, c.startsWith("r")).size()';
    expect(cost(source, large)).toBeGreaterThan(200 * cost(source, small));
  });

  it('string functions cost the length of their text', () => {
    const short = { ...shapes, note: stringShape(10) };
    const long = cost('note.contains("x")');
    expect(long).toBeGreaterThanOrEqual(500);
    expect(long - cost('note.contains("x")', short)).toBe(490);
    // split gives up to len+1 parts; iterating them is paid for.
    expect(cost('note.split("").exists(p, p.contains(note))')).toBeGreaterThan(500 * 500);
    // RE2: text × pattern.
    expect(cost('note.matches("^[a-z]+$")')).toBeGreaterThan(500 * 8);
  });

  it('macros: all, exists, exists_one, map, filter and cel.bind', () => {
    for (const macro of ['all', 'exists', 'exists_one', 'filter'])
      expect(cost(`colors.${macro}(c, c == "x")`)).toBeGreaterThanOrEqual(100);
    expect(cost('colors.map(c, c + c).exists(d, d.size() > 3)')).toBeGreaterThanOrEqual(200);
    // cel.bind doubling a list: the sizes double with it.
    const doubling = (levels: number): string => {
      let body = 'a.size()';
      for (let i = 0; i < levels; i++) body = `cel.bind(a, a + a, ${body})`;
      return `cel.bind(a, colors, ${body}) + colors.map(x, a).size()`.replace(
        ' + colors.map(x, a).size()',
        '',
      );
    };
    expect(cost(doubling(2))).toBeLessThan(cost(doubling(10)));
    const deep = (levels: number): string => {
      let body = 'a.map(x, x).size()';
      for (let i = 0; i < levels; i++) body = `cel.bind(a, a + a, ${body})`;
      return `cel.bind(a, colors, ${body})`;
    };
    expect(cost(deep(30))).toBeGreaterThan(1e9);
  });

  it('saturates instead of overflowing', () => {
    let source = 'colors';
    for (let i = 0; i < 12; i++) source = `${source}.map(x, colors)`;
    expect(cost(source)).toBeLessThanOrEqual(SATURATED);
  });
});

describe('static cost at upload', () => {
  const choices = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ key: `o${i}`, label: 'O' }));

  it('refuses an expression over expressionCost with its path and the estimate', () => {
    const document = model({
      questions: [
        { key: 'picks', type: 'multi_choice', label: 'P', options: choices(1000) },
        { key: 'few', type: 'multi_choice', label: 'F', options: choices(100) },
      ],
      variables: [
        { key: 'pairs', expr: 'few.map(a, few.filter(b, b < a).size()).size()' },
        {
          key: 'triples',
          expr: 'picks.map(a, picks.map(b, picks.filter(c, c < b).size())).size()',
        },
      ],
    });
    const result = compileDocument(document);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const problem = expectProblem(result.problems, 'cost_limit', 'variables[1].expr');
    expect(problem.message).toMatch(/may cost [\d,]+ units; the limit expressionCost is 1000000/);
    expect(result.problems.filter((p) => p.code === 'cost_limit')).toHaveLength(1);
  });

  it('a variable passes its shape on to the expressions reading it', () => {
    const document = model({
      questions: [{ key: 'picks', type: 'multi_choice', label: 'P', options: choices(1000) }],
      variables: [
        { key: 'twice', expr: 'picks + picks' },
        { key: 'n', expr: 'twice.map(a, twice.filter(b, b == a).size()).size()' },
      ],
    });
    const result = compileDocument(document);
    expect(result.ok).toBe(false);
    if (!result.ok) expectProblem(result.problems, 'cost_limit', 'variables[1].expr');
  });
});
