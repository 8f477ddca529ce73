import { describe, expect, it } from 'vitest';
import type { Problem } from '../../../src/engine/problems.js';
import { unsafeTextProblems, unsafeTextReason } from '../../../src/engine/source/text.js';
import { prng as random } from '../../support/prng.js';

/**
 * unsafeTextProblems builds paths only for problems; the reference below is a plain
 * recursive walk that builds every path, checked against it on random documents.
 */
function reference(value: unknown, root = ''): Problem[] {
  const problems: Problem[] = [];
  const visit = (current: unknown, path: string): void => {
    if (typeof current === 'string') {
      const reason = unsafeTextReason(current);
      if (reason) problems.push(problem(path, reason));
      return;
    }
    if (current === null || typeof current !== 'object') return;
    if (Array.isArray(current)) {
      current.forEach((item, index) => visit(item, `${path}[${index}]`));
      return;
    }
    for (const key of Object.keys(current)) {
      const reason = unsafeTextReason(key);
      if (reason) problems.push(problem(path, `has a key that ${reason}`));
    }
    for (const [key, item] of Object.entries(current)) visit(item, path ? `${path}.${key}` : key);
  };
  visit(value, root);
  return problems;
}

function problem(path: string, reason: string): Problem {
  return {
    code: 'invalid_text',
    message: `${path || 'the value'} ${reason}`,
    ...(path ? { path } : {}),
  };
}

const TEXTS = ['ok', 'a\u0000b', 'tab\tok', 'x\u0085', 'lone\ud800', '\ud83d\ude00', ''];

function document(next: () => number, depth: number): unknown {
  const pick = next();
  const text = () => TEXTS[Math.floor(next() * TEXTS.length)];
  if (depth === 0 || pick < 0.3) return pick < 0.2 ? text() : Math.floor(pick * 100);
  const size = Math.floor(next() * 4);
  if (pick < 0.6) return Array.from({ length: size }, () => document(next, depth - 1));
  const record: Record<string, unknown> = {};
  for (let i = 0; i < size; i++) record[`${text()}${i}`] = document(next, depth - 1);
  return record;
}

describe('unsafeTextProblems', () => {
  it('finds what the path-building reference finds, in the same order, on 500 documents', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const value = document(random(seed), 4);
      const expected = reference(value, seed % 2 ? '' : 'body');
      const found = unsafeTextProblems(value, seed % 2 ? '' : 'body', 1_000);
      expect(found, `seed ${seed}`).toEqual(expected);
      expect(unsafeTextProblems(value, seed % 2 ? '' : 'body', 3), `seed ${seed}`).toEqual(
        expected.slice(0, 3),
      );
    }
  });

  it('names the paths of values and keys', () => {
    const found = unsafeTextProblems({ a: [{ b: 'x\u0000' }], ['k\u0007']: 1 }, '', 20, 'doc');
    expect(found.map((p) => p.path)).toEqual([undefined, 'a[0].b']);
    expect(found[0].message).toBe(
      'doc: the value has a key that contains a NUL or another control character',
    );
    expect(unsafeTextProblems('a\u0000')).toEqual([
      {
        code: 'invalid_text',
        message: 'the value contains a NUL or another control character',
      },
    ]);
  });

  it('unsafeTextReason: every code unit below U+0100, surrogates alone and paired', () => {
    // Written from the definition (C0 but tab, LF, CR; DEL; C1; unpaired surrogates).
    const control = (code: number) =>
      (code <= 0x1f && code !== 0x09 && code !== 0x0a && code !== 0x0d) ||
      (code >= 0x7f && code <= 0x9f);
    for (let code = 0; code < 0x100; code++)
      for (const text of [String.fromCharCode(code), `ab${String.fromCharCode(code)}cd`])
        expect(unsafeTextReason(text) !== null, `U+${code.toString(16)}`).toBe(control(code));
    for (const lone of ['\ud800', '\udbff', '\udc00', '\udfff', 'a\udc00\ud800b', '\ud83d'])
      expect(unsafeTextReason(lone), JSON.stringify(lone)).toMatch(/unpaired surrogate/);
    for (const fine of ['\ud83d\ude00', 'é漢\ud800\udc00', '\u2028', '\ufffd', ''])
      expect(unsafeTextReason(fine), JSON.stringify(fine)).toBeNull();
  });
});
