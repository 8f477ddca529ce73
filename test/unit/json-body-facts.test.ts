import { describe, expect, it } from 'vitest';
import { scanJson } from '../../src/common/http/json-body-facts.js';
import { depthExceeds } from '../../src/common/http/json-body.middleware.js';
import { unsafeTextProblems } from '../../src/engine/work.js';
import { prng } from '../support/prng.js';

const scan = (text: string) => scanJson(Buffer.from(text, 'utf8'));

/** The depth depthExceeds finds: the least bound it does not exceed. */
function walkedDepth(value: unknown): number {
  let depth = 0;
  while (depthExceeds(value, depth)) depth++;
  return depth;
}

/** Text with, now and then, characters that need escapes or are unsafe (quotes, brackets, C1, lone surrogates). */
const ALPHABET = [
  'a',
  'é',
  '"',
  '\\',
  '[',
  '{',
  '}',
  ']',
  '\n',
  '\u0085',
  '\u0000',
  '\ud800',
  '😀',
  '\u2028',
];
function randomValue(random: () => number, depth: number): unknown {
  const text = () =>
    Array.from({ length: Math.floor(random() * 4) }, () =>
      random() < 0.8 ? 'x' : ALPHABET[Math.floor(random() * ALPHABET.length)],
    ).join('');
  const pick = random();
  if (depth > 5 || pick < 0.3) return random() < 0.5 ? text() : Math.floor(random() * 100);
  if (pick < 0.6)
    return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
  return Object.fromEntries(
    Array.from({ length: Math.floor(random() * 4) }, () => [
      text(),
      randomValue(random, depth + 1),
    ]),
  );
}

describe('scanJson: what the body parser learns from the bytes before it parses them', () => {
  it('finds the depth depthExceeds finds, brackets inside strings aside', () => {
    expect(scan('{}').depth).toBe(1);
    expect(scan('{"a":[1,{"b":"]]]"}]}').depth).toBe(3);
    expect(scan('{"a":"[[[[\\"[[["}').depth).toBe(1);
    expect(scan('[[],[[]]]').depth).toBe(3);
  });

  it('calls verbatim only bodies whose strings have no escape and no unsafe character', () => {
    expect(scan('{"a":"plain é 😀"}').verbatim).toBe(true);
    expect(scan('{"a":"\\n"}').verbatim).toBe(false);
    expect(scan('{"a":"\\u0000"}').verbatim).toBe(false);
    expect(scan('{"a\u0085":1}').verbatim).toBe(false);
    expect(scan('{"a":"\u007f"}').verbatim).toBe(false);
  });

  it('agrees with the walks of the parsed value on random bodies', () => {
    const random = prng(27);
    for (let i = 0; i < 2_000; i++) {
      const value = { body: randomValue(random, 1) };
      const text = JSON.stringify(value);
      const facts = scan(text);
      expect(facts.depth).toBe(walkedDepth(JSON.parse(text)));
      // Verbatim promises no unsafe text (the converse need not hold: an escaped quote is safe).
      if (facts.verbatim) expect(unsafeTextProblems(JSON.parse(text))).toEqual([]);
      if (unsafeTextProblems(JSON.parse(text)).length > 0) expect(facts.verbatim).toBe(false);
    }
  });
});
