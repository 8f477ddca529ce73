import { describe, expect, it } from 'vitest';
import { generateModel } from '../../tools/gen-model.mjs';
import { compileDocument, evaluate } from '../../src/engine/work.js';
import { jsonBytes } from '../../src/engine-runtime/tasks/json-encode.js';
import { prng } from '../support/prng.js';

/**
 * A worker writes a line's JSON in pieces (json-encode.ts, docs/adr/0241): its bytes must
 * be exactly those of `TextEncoder#encode(JSON.stringify(value))`, for any value.
 */
const expected = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/** Text with what JSON escapes or encodes in several bytes: quotes, controls, ß, €, 😀, lone surrogates. */
const TEXTS = [
  '',
  'a',
  'key',
  '"',
  '\\',
  '\n',
  '\u0000',
  'ß',
  '€',
  '😀',
  '\ud800',
  '\udc00x',
  'é—"',
];

function randomValue(random: () => number, depth: number): unknown {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const kind = depth > 4 ? Math.floor(random() * 6) : Math.floor(random() * 10);
  switch (kind) {
    case 0:
      return pick([0, -0, 1.5, -7, 1e21, 1e-7, Number.MAX_SAFE_INTEGER, NaN, Infinity]);
    case 1:
      return pick(TEXTS) + pick(TEXTS);
    case 2:
      return pick([true, false, null]);
    case 3:
      // No JSON of their own: left out of objects, null in arrays.
      return pick([undefined, () => 1, Symbol('s')]);
    case 4:
      return new Date(Math.floor(random() * 2e12));
    case 5:
      return { toJSON: (key: string) => `to-json:${key.length}` };
    case 6:
    case 7: {
      const items = Array.from({ length: Math.floor(random() * 6) }, () =>
        randomValue(random, depth + 1),
      );
      // A hole now and then.
      if (items.length > 1 && random() < 0.2) delete items[1];
      return items;
    }
    default: {
      const members: Record<string, unknown> =
        random() < 0.1 ? (Object.create(null) as Record<string, unknown>) : {};
      for (let i = Math.floor(random() * 6); i > 0; i--)
        members[pick([...TEXTS, '1', '0', 'questions'])] = randomValue(random, depth + 1);
      return members;
    }
  }
}

describe('jsonBytes: a value JSON-encoded in pieces', () => {
  it('writes the bytes JSON.stringify and TextEncoder write, for random values', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const value = randomValue(prng(seed), 0);
      if (JSON.stringify(value) === undefined) {
        expect(() => jsonBytes(value), `seed ${seed}`).toThrow(TypeError);
        continue;
      }
      expect(new TextDecoder().decode(jsonBytes(value)), `seed ${seed}`).toBe(
        JSON.stringify(value),
      );
      expect(Buffer.from(jsonBytes(value)).equals(expected(value)), `seed ${seed}`).toBe(true);
    }
  });

  it('writes a line larger than its scratch buffer, and the next one from the start', () => {
    const { model, answers } = generateModel(1000) as { model: unknown; answers: unknown };
    const compiled = compileDocument(model, undefined);
    if (!compiled.ok) throw new Error('the generated model does not compile');
    const request = { modelId: 1, versionNumber: 1, questions: answers, languageCode: null };
    const full = evaluate(compiled.model, { ...request, view: 'full' }).line;
    const compact = evaluate(compiled.model, { ...request, view: 'compact' }).line;
    const fullBytes = jsonBytes(full);
    // Past the 256 kB it starts with: the buffer grew on the way.
    expect(fullBytes.length).toBeGreaterThan(512 * 1024);
    expect(Buffer.from(fullBytes).equals(expected(full))).toBe(true);
    expect(Buffer.from(jsonBytes(compact)).equals(expected(compact))).toBe(true);
    // Each answer owns its buffer (it is transferred to the main thread).
    expect(fullBytes.buffer.byteLength).toBe(fullBytes.length);
  });

  it('throws what JSON.stringify throws, and writes nothing for a value without JSON', () => {
    const cyclic: Record<string, unknown> = { a: [{}] };
    (cyclic.a as Array<Record<string, unknown>>)[0].back = cyclic;
    expect(() => jsonBytes(cyclic)).toThrow(TypeError);
    expect(() => jsonBytes({ big: 1n })).toThrow(TypeError);
    expect(() => jsonBytes(undefined)).toThrow(TypeError);
  });
});
