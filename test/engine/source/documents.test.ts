import { describe, expect, it } from 'vitest';

import { readModelSource, type SourceResult } from '../../../src/engine/source/index.js';
import { limits, yamlBytes } from './fixtures.js';

const read = (text: string, format: 'json' | 'yaml', overrides = {}) =>
  readModelSource(yamlBytes(text), format, limits(overrides));

function problemsOf<T>(result: SourceResult<T>) {
  if (result.ok) throw new Error('expected a refusal');
  return result;
}

/** `depth` nested single-key mappings in block YAML. */
const nestedYaml = (depth: number) =>
  Array.from({ length: depth }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n') + ' 1\n';

/** Classic billion laughs: 9 levels, each listing the previous one 9 times (72 aliases). */
function billionLaughs(): string {
  const lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
  const names = 'abcdefghi';
  for (let i = 1; i < names.length; i++) {
    const previous = `*${names[i - 1]}`;
    lines.push(`${names[i]}: &${names[i]} [${Array(9).fill(previous).join(', ')}]`);
  }
  return `general: {name: lol}\n${lines.join('\n')}\n`;
}

describe('JSON and YAML bodies', () => {
  it('reads a JSON model', async () => {
    const result = await read(
      '{"general": {"name": "Window"}, "questions": [{"key": "w", "type": "number"}]}',
      'json',
    );
    expect(result).toEqual({
      ok: true,
      value: expect.objectContaining({
        document: { general: { name: 'Window' }, questions: [{ key: 'w', type: 'number' }] },
      }),
    });
    if (result.ok) expect(result.value.fragments.size + result.value.assets.size).toBe(0);
  });

  it('reads a YAML model, dropping a BOM, with aliases copied into a plain tree', async () => {
    const result = await read(
      '\uFEFFgeneral:\n  name: Door\nx-a: &opts [1, 2]\nx-b: *opts\n',
      'yaml',
    );
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const document = result.value.document;
    expect(document).toEqual({ general: { name: 'Door' }, 'x-a': [1, 2], 'x-b': [1, 2] });
    expect(document['x-a']).not.toBe(document['x-b']);
  });

  it('keeps a __proto__ key as data', async () => {
    const result = await read('general: {name: x}\n__proto__: {polluted: true}\n', 'yaml');
    if (!result.ok) throw new Error('expected ok');
    expect(Object.getPrototypeOf(result.value.document)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses an upload over uploadBytes with 413 before parsing', async () => {
    const result = problemsOf(
      await read('{"general": {"name": "' + 'x'.repeat(200) + '"}}', 'json', { uploadBytes: 100 }),
    );
    expect(result.status).toBe(413);
    expect(result.problems[0]).toMatchObject({
      code: 'limit_exceeded',
      message: expect.stringContaining('uploadBytes (100)'),
    });
  });

  it('reports JSON syntax errors with a position', async () => {
    const result = problemsOf(await read('{\n  "general": {"name": "x"},\n}', 'json'));
    expect(result.status).toBe(400);
    expect(result.problems[0].code).toBe('invalid_json');
    expect(result.problems[0].message).toMatch(/line 3/);
  });

  it('takes the last of duplicate JSON keys, as JSON.parse does', async () => {
    const result = await read('{"general": {"name": "a"}, "general": {"name": "b"}}', 'json');
    expect(result.ok && result.value.document.general).toEqual({ name: 'b' });
  });

  it('reports YAML syntax errors with line and column', async () => {
    const result = problemsOf(await read('general:\n  name: [unclosed\nquestions: []\n', 'yaml'));
    expect(result.status).toBe(400);
    expect(result.problems[0].code).toBe('invalid_yaml');
    expect(result.problems[0].message).toMatch(/line \d+, column \d+/);
  });

  it('says to quote an expression whose ": " YAML took for another entry (a CEL ternary)', async () => {
    const yaml = 'variables:\n  - key: rate\n    expr: frame == "alu" ? 0.12 : 0.16\n';
    const result = problemsOf(await read(yaml, 'yaml'));
    expect(result.problems[0].code).toBe('invalid_yaml');
    expect(result.problems[0].message).toMatch(/line 3, column \d+; .*must be quoted/);
    const quoted = await read(
      yaml.replace('expr: frame == "alu" ? 0.12 : 0.16', `expr: 'frame == "alu" ? 0.12 : 0.16'`),
      'yaml',
    );
    expect(quoted.ok).toBe(true);
  });

  it('gives no quoting advice for a syntax error of another kind', async () => {
    const result = problemsOf(await read('general:\n  name: [unclosed\nquestions: []\n', 'yaml'));
    expect(result.problems[0].message).not.toContain('quoted');
  });

  it.each([
    'general: !!js/function "function () { return 1 }"\n',
    'general: !custom {name: x}\n',
    'a: !!binary aGVsbG8=\n',
  ])('refuses custom tags: %s', async (text) => {
    const result = problemsOf(await read(text, 'yaml'));
    expect(result.problems[0]).toMatchObject({
      code: 'invalid_yaml',
      message: expect.stringContaining('unknown tag'),
    });
  });

  it.each([
    ['[1, 2]', 'json'],
    ['"text"', 'json'],
    ['- a\n- b\n', 'yaml'],
    ['just text\n', 'yaml'],
    ['', 'yaml'],
  ] as const)('refuses a root that is not a mapping: %j', async (text, format) => {
    const result = problemsOf(await read(text, format));
    expect(result.problems[0].code).toBe('invalid_document');
  });

  it('refuses invalid UTF-8', async () => {
    const result = problemsOf(
      await readModelSource(Buffer.from([0x7b, 0xff, 0x7d]), 'json', limits()),
    );
    expect(result.problems[0].code).toBe('invalid_encoding');
  });
});

describe('YAML aliases', () => {
  it('allows exactly yamlAliases aliases and refuses one more', async () => {
    const doc = (n: number) =>
      `general: {name: x}\nx-base: &b {k: 1}\nx-uses: [${Array(n).fill('*b').join(', ')}]\n`;
    expect((await read(doc(5), 'yaml', { yamlAliases: 5 })).ok).toBe(true);
    const result = problemsOf(await read(doc(6), 'yaml', { yamlAliases: 5 }));
    expect(result.status).toBe(400);
    expect(result.problems[0]).toMatchObject({
      code: 'limit_exceeded',
      message: expect.stringContaining('yamlAliases (5)'),
    });
  });

  it('does not count asterisks inside scalars or comments', async () => {
    const text =
      'general: {name: "a * b"}\nx-e: width * 2\nx-q: \'*x\'\n# *y *z\nx-b: |\n  *q *r\n';
    expect((await read(text, 'yaml', { yamlAliases: 0 })).ok).toBe(true);
  });

  it('refuses billion laughs over the alias limit quickly', async () => {
    const started = performance.now();
    const result = problemsOf(await read(billionLaughs(), 'yaml', { yamlAliases: 50 }));
    expect(result.problems[0].message).toContain('yamlAliases (50)');
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('refuses billion laughs within the alias limit by its expanded size, without expanding it', async () => {
    const started = performance.now();
    const result = problemsOf(await read(billionLaughs(), 'yaml'));
    expect(result.problems[0]).toMatchObject({
      code: 'limit_exceeded',
      message: expect.stringContaining('expand'),
    });
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('refuses a recursive alias', async () => {
    const result = problemsOf(await read('general: {name: x}\nx-a: &a [1, *a]\n', 'yaml'));
    expect(result.problems[0].code).toBe('invalid_yaml');
  });
});

describe('nesting depth', () => {
  it('allows nestingDepth levels and refuses one more (YAML)', async () => {
    expect((await read(nestedYaml(8), 'yaml', { nestingDepth: 8 })).ok).toBe(true);
    const result = problemsOf(await read(nestedYaml(9), 'yaml', { nestingDepth: 8 }));
    expect(result.problems[0]).toMatchObject({
      code: 'limit_exceeded',
      message: expect.stringContaining('nestingDepth (8)'),
    });
  });

  it('allows nestingDepth levels and refuses one more (JSON)', async () => {
    const nested = (depth: number) =>
      '{"a":'.repeat(depth - 1) + '{"x": 1}' + '}'.repeat(depth - 1);
    expect((await read(nested(6), 'json', { nestingDepth: 6 })).ok).toBe(true);
    expect(problemsOf(await read(nested(7), 'json', { nestingDepth: 6 })).problems[0].code).toBe(
      'limit_exceeded',
    );
  });

  it('ignores brackets inside JSON strings', async () => {
    expect(
      (await read('{"general": {"name": "[[[[{{{{\\"[["}}', 'json', { nestingDepth: 2 })).ok,
    ).toBe(true);
  });

  it('refuses very deep documents without overflowing the stack', async () => {
    const deepJson = '['.repeat(200_000) + ']'.repeat(200_000);
    expect(problemsOf(await read(deepJson, 'json')).problems[0].code).toBe('limit_exceeded');
    const deepYaml = 'a: ' + '['.repeat(200_000) + ']'.repeat(200_000);
    expect(problemsOf(await read(deepYaml, 'yaml')).problems[0].code).toBe('limit_exceeded');
  });

  it('counts the depth an alias adds where it is used', async () => {
    const text = 'x-deep: &d {a: {b: {c: 1}}}\ngeneral: {name: x, more: {deeper: *d}}\n';
    // root > general > more > deeper (the alias) > a > b: six containers
    expect((await read(text, 'yaml', { nestingDepth: 6 })).ok).toBe(true);
    expect(problemsOf(await read(text, 'yaml', { nestingDepth: 5 })).problems[0].code).toBe(
      'limit_exceeded',
    );
  });
});
