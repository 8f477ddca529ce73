import { describe, expect, it } from 'vitest';
import { scanJson } from '../../src/common/http/json-body-facts.js';

/** The keys of `text`'s top-level container members, as JSON.parse reads them. */
const parsedContainerKeys = (text: string) =>
  Object.entries(JSON.parse(text) as Record<string, unknown>)
    .filter(([, v]) => v !== null && typeof v === 'object')
    .map(([k]) => k);

describe('review: scanJson names members as JSON.parse does', () => {
  it('keeps a U+FEFF that leads a key (TextDecoder strips it by default)', () => {
    const text = '{"questions":{"a":1,"b":2},"\uFEFFquestions":{"a":1}}';
    const facts = scanJson(Buffer.from(text, 'utf8'));
    expect(facts.verbatim).toBe(true);
    expect([...facts.members.keys()].sort()).toEqual(parsedContainerKeys(text).sort());
    // What the width bound reads for `questions`: the parsed value has 2 members.
    expect(facts.members.get('questions')?.widthAtMost).toBeGreaterThanOrEqual(2);
  });
});
