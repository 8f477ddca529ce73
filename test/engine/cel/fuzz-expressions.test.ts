import { describe, expect, it } from 'vitest';
import { compileDocument } from '../../../src/engine/work.js';
import { evaluateConfiguration } from '../../../src/engine/evaluate/evaluate.js';
import { prng } from '../../support/prng.js';

/**
 * Fuzz (issue #7): random well-typed CEL expressions of depth ≤ 6 over a model's
 * questions and variables are either refused at upload, every problem with a path, or
 * evaluate within the budget, every error with a path; nothing escapes as an exception.
 */

type CelType = 'int' | 'double' | 'bool' | 'string' | 'list';

const OPTIONS = Array.from({ length: 20 }, (_, i) => `o${i}`);

class ExpressionGenerator {
  private iterations = 0;

  constructor(
    private readonly random: () => number,
    /** Names readable per type (questions and earlier variables). */
    private readonly names: Record<CelType, string[]>,
  ) {}

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)];
  }

  generate(type: CelType, depth: number, scope: readonly string[] = []): string {
    if (depth <= 0 || this.random() < 0.25) return this.leaf(type, scope);
    const sub = (t: CelType, s: readonly string[] = scope) => this.generate(t, depth - 1, s);
    const iter = () => `x${this.iterations++}`;
    switch (type) {
      case 'int':
        return this.pick([
          () => `(${sub('int')} ${this.pick(['+', '-', '*', '/', '%'])} ${sub('int')})`,
          () => `size(${sub('list')})`,
          () => `size(${sub('string')})`,
          () => `int(${sub('double')})`,
          () => `(${sub('bool')} ? ${sub('int')} : ${sub('int')})`,
          () => `${sub('string')}.indexOf(${sub('string')})`,
          () => {
            const x = iter();
            return `${sub('list')}.filter(${x}, ${sub('bool', [...scope, x])}).size()`;
          },
        ])();
      case 'double':
        return this.pick([
          () => `(${sub('double')} ${this.pick(['+', '-', '*', '/'])} ${sub('double')})`,
          () => `double(${sub('int')})`,
          () => `(${sub('int')} * 1.5)`,
          () => `(${sub('bool')} ? ${sub('double')} : ${sub('double')})`,
        ])();
      case 'bool':
        return this.pick([
          () => `(${sub('int')} ${this.pick(['<', '<=', '>', '>=', '==', '!='])} ${sub('int')})`,
          () => `(${sub('double')} > ${sub('double')})`,
          () => `(${sub('string')} == ${sub('string')})`,
          () => `(${sub('bool')} ${this.pick(['&&', '||'])} ${sub('bool')})`,
          () => `!${sub('bool')}`,
          () =>
            `${sub('string')}.${this.pick(['contains', 'startsWith', 'endsWith'])}(${sub('string')})`,
          () =>
            `${sub('string')}.matches('${this.pick(['^o[0-9]+$', '(a|b)*c', '^([a-z0-9]+)*$'])}')`,
          () => `(${sub('string')} in ${sub('list')})`,
          () => {
            const x = iter();
            const macro = this.pick(['exists', 'all', 'exists_one']);
            return `${sub('list')}.${macro}(${x}, ${sub('bool', [...scope, x])})`;
          },
          () =>
            `(${this.pick([...this.names.int, ...this.names.string, ...this.names.list])} == null)`,
        ])();
      case 'string':
        return this.pick([
          () => `(${sub('string')} + ${sub('string')})`,
          () => `${sub('string')}.${this.pick(['lowerAscii', 'upperAscii', 'trim'])}()`,
          () => `string(${sub('int')})`,
          () => `(${sub('bool')} ? ${sub('string')} : ${sub('string')})`,
          () => `${sub('list')}.join(",")`,
        ])();
      case 'list':
        return this.pick([
          () => `(${sub('list')} + ${sub('list')})`,
          () => {
            const x = iter();
            return `${sub('list')}.filter(${x}, ${sub('bool', [...scope, x])})`;
          },
          () => {
            const x = iter();
            return `${sub('list')}.map(${x}, ${sub('string', [...scope, x])})`;
          },
          () => `${sub('string')}.split(",")`,
          () => {
            const z = iter();
            return `cel.bind(${z}, ${sub('list')}, ${z} + ${z})`;
          },
        ])();
    }
  }

  private leaf(type: CelType, scope: readonly string[]): string {
    const names = type === 'string' ? [...this.names.string, ...scope] : this.names[type];
    if (names.length > 0 && this.random() < 0.6) return this.pick(names);
    switch (type) {
      case 'int':
        return String(Math.floor(this.random() * 100));
      case 'double':
        return `${Math.floor(this.random() * 100)}.5`;
      case 'bool':
        return this.random() < 0.5 ? 'true' : 'false';
      case 'string':
        return `'${this.pick(OPTIONS)}'`;
      case 'list':
        return `['${this.pick(OPTIONS)}', '${this.pick(OPTIONS)}']`;
    }
  }
}

function randomModel(seed: number) {
  const random = prng(seed);
  const names: Record<CelType, string[]> = {
    int: ['n'],
    double: ['d'],
    bool: ['flag'],
    string: ['c', 't'],
    list: ['m'],
  };
  const generator = new ExpressionGenerator(random, names);
  const types: CelType[] = ['int', 'double', 'bool', 'string', 'list'];
  const variables: Array<{ key: string; expr: string }> = [];
  for (let i = 0; i < 6; i++) {
    const type = types[Math.floor(random() * types.length)];
    variables.push({ key: `v${i}`, expr: generator.generate(type, 6) });
    names[type].push(`v${i}`);
  }
  const document = {
    general: { name: `Fuzz ${seed}` },
    questions: [
      { key: 'n', type: 'integer', label: 'N', min: 0, max: 1000 },
      { key: 'd', type: 'number', label: 'D' },
      { key: 'flag', type: 'boolean', label: 'F' },
      {
        key: 'c',
        type: 'choice',
        label: 'C',
        options: OPTIONS.map((key) => ({ key, label: key })),
      },
      {
        key: 'm',
        type: 'multi_choice',
        label: 'M',
        options: OPTIONS.map((key) => ({ key, label: key })),
      },
      { key: 't', type: 'text', label: 'T', max_length: 50 },
    ],
    variables,
    rules: [{ key: 'r', assert: generator.generate('bool', 6), message: 'fuzz' }],
    bom_items: [
      {
        key: 'b',
        sku: 'B',
        description: 'B',
        quantity: generator.generate('double', 6),
        unit_price: '1.00',
      },
    ],
  };
  const answers = {
    n: { values: random() < 0.3 ? [] : [Math.floor(random() * 1000)] },
    d: { values: random() < 0.3 ? [] : [random() * 1e6] },
    flag: { values: random() < 0.3 ? [] : [random() < 0.5] },
    c: { values: random() < 0.3 ? [] : [OPTIONS[Math.floor(random() * 20)]] },
    m: { values: OPTIONS.filter(() => random() < 0.5) },
    t: { values: random() < 0.3 ? [] : ['o1,o2,'.repeat(8)] },
  };
  return { document, answers };
}

describe('fuzzed expressions', () => {
  it('are refused at upload with a path, or evaluate within the budget without throwing', () => {
    let compiled = 0;
    let refused = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const { document, answers } = randomModel(seed);
      const result = compileDocument(document);
      if (!result.ok) {
        refused++;
        for (const problem of result.problems)
          expect(problem.path, `seed ${seed}: ${JSON.stringify(problem)}`).toBeDefined();
        continue;
      }
      compiled++;
      for (const expression of result.model.variables)
        expect(expression.expr.cost, `seed ${seed}`).toBeLessThanOrEqual(1_000_000);
      const evaluation = evaluateConfiguration(result.model, {
        modelId: 1,
        versionNumber: 1,
        questions: answers,
      });
      for (const error of evaluation.errors)
        expect(error.path, `seed ${seed}: ${JSON.stringify(error)}`).toBeDefined();
    }
    // Both outcomes occur: the generator is neither trivially cheap nor always refused.
    expect(compiled).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(0);
  });
});
