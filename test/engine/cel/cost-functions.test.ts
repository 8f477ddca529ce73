import { Environment } from '@marcbachmann/cel-js';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import {
  estimateCost,
  jsonShape,
  MATCH_UNITS,
  NESTED_UNITS,
  PRICED_FUNCTIONS,
  type Shape,
  stringShape,
  TIME_ZONE_UNITS,
  volume,
} from '../../../src/engine/cel/cost.js';
import { createEnvironments } from '../../../src/engine/cel/environment.js';
import { JSON_MAX_DEPTH } from '../../../src/engine/cel/json.js';
import { jsonTextDepthExceeds } from '../../../src/engine/source/depth.js';
import {
  COMPUTED_PATTERN_EXTRA,
  COMPUTED_PATTERN_PER_CHAR,
  computedPatternProblem,
} from '../../../src/engine/cel/regex.js';
import { compileDocument } from '../../../src/engine/work.js';
import { prng } from '../../support/prng.js';
import { compileOk, compileProblems, evaluate, expectProblem, model } from '../helpers.js';

/**
 * The functions of cel-js the estimator prices (issue: four under-estimates an attacker
 * used to stall or kill an evaluation): each attack is replayed through compileDocument and
 * must be refused with cost_limit, or run within its estimate.
 */

const env = new Environment({ unlistedVariablesAreDyn: true });
const estimate = (source: string, names: Record<string, Shape> = {}) =>
  estimateCost(env.parse(source).ast, (name) => names[name]);
const cost = (source: string, names: Record<string, Shape> = {}) => estimate(source, names).cost;

const options = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `o${i}`, label: 'O' }));
const text = (key: string, maxLength: number) => ({
  key,
  type: 'text',
  label: key,
  max_length: maxLength,
});

describe('bytes.json()', () => {
  // The attack: a 2.7 kB expression whose evaluation ran out of memory.
  const ones = Array(1300).fill(1).join(',');
  const attack = `cel.bind(a, bytes('{"a":[${ones}]}').json().a, size(a.map(x, a.map(y, a.map(z, 1)))))`;

  it('the attack is refused at upload with cost_limit', () => {
    expect(attack.length).toBeGreaterThan(2600);
    const problems = compileProblems(
      model({
        questions: [{ key: 'q', type: 'boolean', label: 'Q' }],
        variables: [{ key: 'v', expr: attack }],
      }),
    );
    expectProblem(problems, 'cost_limit', 'variables[0].expr');
  });

  it('iterating parsed JSON costs its byte length per level, never 0', () => {
    const bytes = '{"a":[1,2,3]}'.length;
    const one = cost(`bytes('{"a":[1,2,3]}').json().a.map(x, 1)`);
    const two = cost(`cel.bind(a, bytes('{"a":[1,2,3]}').json().a, a.map(x, a.map(y, 1)))`);
    expect(one).toBeGreaterThanOrEqual(bytes * 40);
    expect(two).toBeGreaterThanOrEqual(bytes * bytes * 40);
    // Even `[]`: two bytes, so up to two iterations are paid for.
    expect(cost(`bytes('[]').json().map(x, 1)`)).toBeGreaterThan(cost(`[].map(x, 1)`));
  });

  it('a small JSON document is allowed and runs within its estimate', () => {
    const compiled = compileOk(
      model({
        questions: [{ key: 'q', type: 'boolean', label: 'Q' }],
        variables: [
          {
            key: 'v',
            expr: `cel.bind(a, bytes('{"a":[1,2,3]}').json().a, a.map(x, a.map(y, 1)).size())`,
          },
          { key: 'same', expr: `bytes('{"a":[1,[2]]}').json() == bytes('{"a":[1,[2]]}').json()` },
        ],
      }),
    );
    const result = evaluate(compiled, {});
    expect(result.errors).toEqual([]);
    expect(result.line.variables.v).toBe(3);
    expect(result.line.variables.same).toBe(true);
  });

  it('a document nested deeper than JSON_MAX_DEPTH is unknown, before it is parsed', () => {
    const compiled = compileOk(
      model({
        questions: [text('t', 1000)],
        variables: [{ key: 'v', expr: 'size(bytes(t).json())' }],
      }),
    );
    const nest = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const value = (t: string) => evaluate(compiled, { t }).line.variables.v;
    expect(value(nest(JSON_MAX_DEPTH))).toBe(1);
    expect(value(`["${'['.repeat(100)}"]`)).toBe(1); // brackets in strings do not nest
    expect(value(nest(JSON_MAX_DEPTH + 1))).toBeNull();
    expect(value(nest(500))).toBeNull();
  });

  it('property: the depth scan (jsonTextDepthExceeds) agrees with the depth of what JSON.parse builds', () => {
    const random = prng(3);
    const depthOf = (v: unknown): number =>
      v !== null && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0;
    const value = (depth: number): unknown => {
      const r = random();
      if (depth <= 0 || r < 0.2)
        return ['[', '"]\\', '{"a":[', 'x\\"[', 7][Math.floor(random() * 5)];
      if (r < 0.6) return Array.from({ length: Math.floor(random() * 3) }, () => value(depth - 1));
      return { [`k${Math.floor(random() * 9)}`]: value(depth - 1), z: value(depth - 1) };
    };
    for (let i = 0; i < 500; i++) {
      const source = JSON.stringify(value(Math.floor(random() * 8)));
      const depth = depthOf(JSON.parse(source));
      for (const limit of [0, 1, 2, 3, 5])
        expect(jsonTextDepthExceeds(source, limit)).toBe(depth > limit);
    }
  });

  it('property: a parsed JSON text of n bytes fits jsonShape(n) at every level', () => {
    const random = prng(11);
    const value = (depth: number): unknown => {
      const r = random();
      if (depth <= 0 || r < 0.3) return r < 0.1 ? 'é😀\\n' : r < 0.2 ? 1 : null;
      if (r < 0.65) return Array.from({ length: Math.floor(random() * 5) }, () => value(depth - 1));
      const entries = Array.from({ length: Math.floor(random() * 4) }, (_, i) => [
        `k${i}`,
        value(depth - 1),
      ]);
      return Object.fromEntries(entries);
    };
    /** The real volume as cost.ts counts it; checks every level against the shape. */
    const check = (v: unknown, shape: Shape): number => {
      if (typeof v === 'string') {
        expect(v.length).toBeLessThanOrEqual(shape.kind === 'scalar' ? 0 : shape.len);
        return Math.max(1, v.length);
      }
      if (v === null || typeof v !== 'object') return 1;
      expect(shape.kind).toBe('list');
      if (shape.kind !== 'list') return 0;
      const entries = Array.isArray(v) ? v.map((e) => ['', e]) : Object.entries(v);
      expect(entries.length).toBeLessThanOrEqual(shape.len);
      let total = 0;
      for (const [key, element] of entries) {
        if (!Array.isArray(v)) total += check(key, shape.elem);
        total += check(element, shape.elem);
        if (element !== null && typeof element === 'object') total += NESTED_UNITS;
      }
      return Math.max(1, total);
    };
    for (let i = 0; i < 300; i++) {
      const source = JSON.stringify(value(6));
      const bytes = Buffer.byteLength(source);
      const shape = jsonShape(bytes);
      expect(check(JSON.parse(source), shape)).toBeLessThanOrEqual(volume(shape));
    }
  });
});

describe('matches', () => {
  it('is charged by the compiled program, not by the pattern text', () => {
    const pattern = '(?:a?){1000}a{1000}';
    const program = RE2JS.compile(pattern);
    expect(pattern).toHaveLength(19);
    expect(program.programSize()).toBeGreaterThan(3000);
    const charged = cost(`t.matches('${pattern}')`, { t: stringShape(2000) });
    expect(charged).toBeGreaterThanOrEqual(2000 * program.programSize() * MATCH_UNITS);
  });

  it('the attack — 140 such calls on a 1,000-character text — is refused at upload', () => {
    const result = compileDocument(
      model({
        questions: [text('t', 1000)],
        variables: Array.from({ length: 140 }, (_, i) => ({
          key: `v${i}`,
          expr: `t.matches('(?:a?){1000}a{1000}')`,
        })),
      }),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.filter((p) => p.code === 'cost_limit')).toHaveLength(100);
  });

  it('a small pattern on a bounded text is allowed', () => {
    const compiled = compileOk(
      model({
        questions: [text('t', 200)],
        rules: [{ key: 'r', assert: "t.matches('^[a-z]+$')", message: 'm' }],
      }),
    );
    expect(evaluate(compiled, { t: 'abc' }).line.rules[0].status).toBe('passed');
  });

  it('a computed pattern is bounded by its length: the runtime check holds what the estimate assumes', () => {
    const random = prng(5);
    const atoms = ['a', 'é', '.', '[a-z]', '[^x]', '\\d', '\\b', '^', '$', '\\w', '\\s', '😀'];
    const pattern = (depth: number): string => {
      const pick = Math.floor(random() * 6);
      if (depth <= 0 || pick === 0) return atoms[Math.floor(random() * atoms.length)];
      const sub = () => pattern(depth - 1);
      return [
        () => sub() + sub(),
        () => `${sub()}|${sub()}`,
        () => `(${sub()})`,
        () => `(?:${sub()})${['*', '+', '?', '*?'][Math.floor(random() * 4)]}`,
        () => `(${sub()})*`,
        () => `${sub()}+`,
      ][pick - 1]();
    };
    let compiled = 0;
    for (let i = 0; i < 2000; i++) {
      const source = pattern(1 + Math.floor(random() * 7));
      expect(computedPatternProblem(source), source).toBeUndefined();
      let program: RE2JS;
      try {
        program = RE2JS.compile(source);
      } catch {
        continue;
      }
      compiled++;
      expect(program.programSize(), source).toBeLessThanOrEqual(
        COMPUTED_PATTERN_PER_CHAR * source.length + COMPUTED_PATTERN_EXTRA,
      );
    }
    expect(compiled).toBeGreaterThan(1000);
  });
});

describe('size', () => {
  const names = { note: stringShape(2000) };

  it('the method form costs what the function form costs', () => {
    expect(cost('note.size()', names)).toBe(cost('size(note)', names));
    expect(cost('note.size()', names)).toBeGreaterThan(2000);
  });

  it('the attack — 128 kB strings sized per option — is refused at upload', () => {
    const expr =
      'cel.bind(a, t+t, cel.bind(b, a+a, cel.bind(c, b+b, cel.bind(d, c+c, cel.bind(e, d+d, cel.bind(f, e+e, cel.bind(g, f+f, m.filter(x, g.size() > 0).size())))))))';
    const problems = compileProblems(
      model({
        questions: [
          text('t', 1000),
          { key: 'm', type: 'multi_choice', label: 'M', options: options(1000) },
        ],
        variables: [{ key: 'v', expr }],
      }),
    );
    expectProblem(problems, 'cost_limit', 'variables[0].expr');
  });

  it("a checked list's size is constant, a string's is linear", () => {
    const document = (expr: string) =>
      model({
        questions: [
          text('t', 1000),
          { key: 'm', type: 'multi_choice', label: 'M', options: options(1000) },
        ],
        variables: [{ key: 'v', expr }],
      });
    const costOf = (expr: string) => compileOk(document(expr)).variables[0].expr.cost;
    expect(costOf('m.size()')).toBeLessThan(100);
    expect(costOf('size(m)')).toBe(costOf('m.size()'));
    expect(costOf('t.size()')).toBeGreaterThan(2000);
    expect(costOf('size(t)')).toBe(costOf('t.size()'));
  });
});

describe("a map's size, and folded classes in matches (review findings)", () => {
  const mapLiteral = `{${Array.from({ length: 600 }, (_, i) => `${i}:1`).join(',')}}`;
  const costOf = (expr: string, questions: unknown[] = []) =>
    compileOk(model({ questions, variables: [{ key: 'v', expr }] })).variables[0].expr.cost;

  it("a map's size is counted per entry (cel-js lists its keys), in both forms", () => {
    const sized = costOf(`cel.bind(m, ${mapLiteral}, m.size())`);
    const unsized = costOf(`cel.bind(m, ${mapLiteral}, 1)`);
    expect(sized - unsized).toBeGreaterThanOrEqual(600);
    expect(costOf(`cel.bind(m, ${mapLiteral}, size(m))`)).toBe(sized);
  });

  it('the attack — a 600-entry map sized 88 × 88 times — is refused at upload', () => {
    const list = `[${Array(88).fill(1).join(',')}]`;
    const expr = `cel.bind(m, ${mapLiteral}, cel.bind(r, ${list}, r.all(x, r.all(y, m.size() > 0))))`;
    expect(expr.length).toBeLessThan(4096);
    const problems = compileProblems(model({ variables: [{ key: 'v', expr }] }));
    expectProblem(problems, 'cost_limit', 'variables[0].expr');
  });

  it('a case-folded Unicode or negated class costs more than case folding alone', () => {
    const t = { t: stringShape(300) };
    const foldedUnicode = cost(String.raw`t.matches('(?i)[\\pL]{10}z')`, t);
    const unicode = cost(String.raw`t.matches('[\\pL]{10}z')`, t);
    // More than FOLD_FACTOR (3) would give: a folded class is scanned range by range.
    expect(foldedUnicode).toBeGreaterThan(5 * unicode);
    expect(cost("t.matches('(?i)[^z]{10}z')", t)).toBeGreaterThan(
      cost("t.matches('[^z]{10}z')", t) * 5,
    );
    const refused = compileProblems(
      model({
        questions: [text('t', 300)],
        variables: [{ key: 'v', expr: String.raw`t.matches('(?i)[\\pL\\pN\\pS\\pP\\pM]{10}z')` }],
      }),
    );
    expectProblem(refused, 'cost_limit', 'variables[0].expr');
  });
});

describe('timestamps and durations', () => {
  it('the attack — a time-zone getter per option — is refused at upload', () => {
    const problems = compileProblems(
      model({
        questions: [{ key: 'm', type: 'multi_choice', label: 'M', options: options(1000) }],
        variables: [
          { key: 'v', expr: "m.map(x, timestamp(0).getHours('America/New_York')).size()" },
        ],
      }),
    );
    expectProblem(problems, 'cost_limit', 'variables[0].expr');
  });

  it('one time-zone getter is allowed, priced per call', () => {
    expect(cost("timestamp(0).getHours('America/New_York')")).toBeGreaterThanOrEqual(
      TIME_ZONE_UNITS,
    );
    expect(cost('timestamp(0).getHours()')).toBeLessThan(TIME_ZONE_UNITS / 100);
    const compiled = compileOk(
      model({
        questions: [{ key: 'q', type: 'boolean', label: 'Q' }],
        variables: [{ key: 'h', expr: "timestamp(0).getHours('America/New_York')" }],
      }),
    );
    expect(evaluate(compiled, {}).line.variables.h).toBe(19);
  });

  it('duration(text) is cubic in the text (its RegExp backtracks over runs of digits)', () => {
    expect(cost('duration(t)', { t: stringShape(400) })).toBeGreaterThan(400 ** 3);
    const problems = compileProblems(
      model({ questions: [text('t', 1000)], variables: [{ key: 'v', expr: 'duration(t)' }] }),
    );
    expectProblem(problems, 'cost_limit', 'variables[0].expr');
  });
});

describe('every cel-js function is priced or refused', () => {
  const definitions = createEnvironments().check.getDefinitions().functions;
  /** Optional-type methods: they type-check, but optional types are off (never run). */
  const refused = new Set(['.hasValue/0', '.value/0', '.or/1', '.orValue/1', '.of/1', '.none/0']);

  it('each overload of cel-js is in the price table or refused', () => {
    const keys = new Set(
      definitions.map((d) => `${d.receiverType ? '.' : ''}${d.name}/${d.params.length}`),
    );
    expect(keys.size).toBeGreaterThan(60);
    for (const key of keys) expect(PRICED_FUNCTIONS.has(key) || refused.has(key), key).toBe(true);
  });

  it('a refused function is an upload error naming it', () => {
    // `optional` itself is not a name models may use; a dyn receiver type-checks.
    const problems = compileProblems(
      model({
        questions: [{ key: 'q', type: 'boolean', label: 'Q' }],
        variables: [{ key: 'v', expr: 'dyn(q).hasValue()' }],
      }),
    );
    const problem = expectProblem(problems, 'cost_limit', 'variables[0].expr');
    expect(problem.message).toContain('.hasValue()');
    expect(estimate('optional.of(1).hasValue()').unpriced).toEqual(['.of()', '.hasValue()']);
    expect(estimate('optional.of(1).hasValue()').cost).toBeGreaterThan(1e17);
  });

  it('case mapping and UTF-8 grow text at most threefold (the shapes of lowerAscii, upperAscii, bytes)', () => {
    for (let code = 0; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCodePoint(code);
      const limit = 3 * char.length;
      if (
        char.toUpperCase().length > limit ||
        char.toLowerCase().length > limit ||
        Buffer.byteLength(char) > limit
      )
        expect.fail(`U+${code.toString(16)}`);
    }
  });
});
