import { describe, expect, it } from 'vitest';
import { scanJson } from '../../src/common/http/json-body-facts.js';
import { depthExceeds } from '../../src/common/http/json-body.middleware.js';
import { unsafeTextProblems } from '../../src/engine/work.js';
import { prng } from '../support/prng.js';

const scan = (text: string) => scanJson(Buffer.from(text, 'utf8'));
/** The text of `text`'s UTF-8 bytes from `start` to `end` (a member's offsets are bytes). */
const bytesOf = (text: string, start?: number, end?: number) =>
  Buffer.from(text, 'utf8').subarray(start, end).toString('utf8');

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

describe('scanJson: where the top-level members are written', () => {
  it('finds each container member by key, its text, and its width as written', () => {
    const text = ' {"a":1, "q" : { "x":{"values":["o1"]},"y":{}} ,"b":[1,[2,3]],"e":{ },"s":"{"}';
    const facts = scan(text);
    const textOf = (key: string) => {
      const member = facts.members.get(key);
      return member && bytesOf(text, member.start, member.end);
    };
    expect([...facts.members.keys()]).toEqual(['q', 'b', 'e']);
    expect(textOf('q')).toBe('{ "x":{"values":["o1"]},"y":{}}');
    expect(facts.members.get('q')?.widthAtMost).toBe(2);
    expect(facts.members.get('b')?.widthAtMost).toBe(2);
    expect(facts.members.get('e')?.widthAtMost).toBe(0);
  });

  it('keeps the last of a repeated key, whose width as written bounds the parsed one', () => {
    const text = '{"q":{"a":1},"q":{"b":1,"b":2}}';
    const member = scan(text).members.get('q');
    expect(bytesOf(text, member?.start, member?.end)).toBe('{"b":1,"b":2}');
    expect(member?.widthAtMost).toBe(2);
    expect(Object.keys((JSON.parse(text) as { q: object }).q)).toHaveLength(1);
  });

  it('names no member of a body with an escape, nor of a top-level array', () => {
    expect(scan('{"q\\u0041":{"a":1}}').members.size).toBe(0);
    expect(scan('{"q":{"a":"\\n"}}').members.size).toBe(0);
    expect(scan('[{"a":1},{"b":2}]').members.size).toBe(0);
  });

  it('agrees with the parsed value on random bodies: every container member, its text and width', () => {
    const random = prng(43);
    for (let i = 0; i < 2_000; i++) {
      const value = Object.fromEntries(
        Array.from({ length: Math.floor(random() * 5) }, (_, k) => [
          `m${k}`,
          randomValue(random, 1),
        ]),
      );
      const text = JSON.stringify(value, null, random() < 0.3 ? 1 : undefined);
      const facts = scan(text);
      if (!facts.verbatim) {
        expect(facts.members.size).toBe(0);
        continue;
      }
      const containers = Object.entries(value).filter(
        ([, v]) => v !== null && typeof v === 'object',
      );
      expect([...facts.members.keys()].sort()).toEqual(containers.map(([k]) => k).sort());
      for (const [key, member] of containers) {
        const written = facts.members.get(key);
        expect(JSON.parse(bytesOf(text, written?.start, written?.end))).toEqual(member);
        expect(written?.widthAtMost).toBe(Object.keys(member as object).length);
      }
    }
  });
});
