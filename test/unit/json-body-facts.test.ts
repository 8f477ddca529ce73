import { describe, expect, it } from 'vitest';
import {
  type JsonBodyFacts,
  NOTED_MEMBER_BYTES,
  memberOf,
  scanJson,
} from '../../src/common/http/json-body-facts.js';
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

/** A body's facts with every container member noted, whatever its size. */
function noted(text: string): JsonBodyFacts {
  const raw = Buffer.from(text, 'utf8');
  return { ...scanJson(raw, 0), raw };
}

/** The keys of the noted members, in the body's order (repeated keys as often as written). */
const notedKeys = (facts: JsonBodyFacts) =>
  Array.from({ length: facts.members.length / 5 }, (_, m) =>
    facts.raw.subarray(facts.members[5 * m], facts.members[5 * m + 1]).toString('utf8'),
  );

/** The parsed top-level object's keys of object or array values, as JSON.parse names them. */
const parsedContainerKeys = (text: string) =>
  Object.entries(JSON.parse(text) as Record<string, unknown>)
    .filter(([, v]) => v !== null && typeof v === 'object')
    .map(([k]) => k);

describe('scanJson: where the top-level members are written', () => {
  it('finds each container member by key, its text, and its width as written', () => {
    const text = ' {"a":1, "q" : { "x":{"values":["o1"]},"y":{}} ,"b":[1,[2,3]],"e":{ },"s":"{"}';
    const facts = noted(text);
    const textOf = (key: string) => {
      const member = memberOf(facts, key);
      return member && bytesOf(text, member.start, member.end);
    };
    expect(notedKeys(facts)).toEqual(['q', 'b', 'e']);
    expect(textOf('q')).toBe('{ "x":{"values":["o1"]},"y":{}}');
    expect(memberOf(facts, 'q')?.widthAtMost).toBe(2);
    expect(memberOf(facts, 'b')?.widthAtMost).toBe(2);
    expect(memberOf(facts, 'e')?.widthAtMost).toBe(0);
    expect(memberOf(facts, 'a')).toBeUndefined();
  });

  it('notes only members of NOTED_MEMBER_BYTES or more by default', () => {
    const large = `{${Array.from({ length: 200 }, (_, i) => `"q${i}":[]`).join(',')}}`;
    const text = `{"small":{"a":[]},"large":${large}}`;
    const raw = Buffer.from(text, 'utf8');
    const facts = { ...scanJson(raw), raw };
    expect(large.length).toBeGreaterThanOrEqual(NOTED_MEMBER_BYTES);
    expect(notedKeys(facts)).toEqual(['large']);
    expect(memberOf(facts, 'large')?.widthAtMost).toBe(200);
  });

  it('keeps the last of a repeated key, whose width as written bounds the parsed one', () => {
    const text = '{"q":{"a":1},"q":{"b":1,"b":2}}';
    const member = memberOf(noted(text), 'q');
    expect(bytesOf(text, member?.start, member?.end)).toBe('{"b":1,"b":2}');
    expect(member?.widthAtMost).toBe(2);
    expect(Object.keys((JSON.parse(text) as { q: object }).q)).toHaveLength(1);
  });

  it('finds a key by its bytes: one led by U+FEFF is not another', () => {
    const text = '{"questions":{"a":1,"b":2},"\uFEFFquestions":{"a":1}}';
    const facts = noted(text);
    expect(notedKeys(facts).sort()).toEqual(parsedContainerKeys(text).sort());
    expect(memberOf(facts, 'questions')?.widthAtMost).toBe(2);
  });

  it('names no member of a body with an escape, nor of a top-level array', () => {
    expect(noted('{"q\\u0041":{"a":1}}').members).toEqual([]);
    expect(noted('{"q":{"a":"\\n"}}').members).toEqual([]);
    expect(noted('[{"a":1},{"b":2}]').members).toEqual([]);
  });

  it('agrees with the parsed value on random bodies: every container member, its text and width', () => {
    const random = prng(43);
    for (let i = 0; i < 2_000; i++) {
      const value = Object.fromEntries(
        Array.from({ length: Math.floor(random() * 5) }, (_, k) => [
          random() < 0.2 ? ALPHABET[Math.floor(random() * ALPHABET.length)] + `m${k}` : `m${k}`,
          randomValue(random, 1),
        ]),
      );
      const text = JSON.stringify(value, null, random() < 0.3 ? 1 : undefined);
      const facts = noted(text);
      if (!facts.verbatim) {
        expect(facts.members).toEqual([]);
        continue;
      }
      expect(notedKeys(facts).sort()).toEqual(parsedContainerKeys(text).sort());
      for (const [key, member] of Object.entries(value)) {
        if (member === null || typeof member !== 'object') continue;
        const written = memberOf(facts, key);
        expect(JSON.parse(bytesOf(text, written?.start, written?.end))).toEqual(member);
        expect(written?.widthAtMost).toBe(Object.keys(member).length);
      }
    }
  });
});
