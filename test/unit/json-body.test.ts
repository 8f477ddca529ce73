import { describe, expect, it } from 'vitest';
import {
  isLargeJsonBody,
  MAX_JSON_DEPTH,
  parseJsonBody,
} from '../../src/common/http/json-body.middleware.js';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('parseJsonBody: body-parser’s JSON rules, then the depth check', () => {
  it('reads an empty body as an empty object', () => {
    expect(parseJsonBody('')).toEqual({ value: {} });
  });

  it('takes an object or an array at the top, after JSON whitespace', () => {
    expect(parseJsonBody(' \t\r\n{"a":[1,"x"]}')).toEqual({ value: { a: [1, 'x'] } });
    expect(parseJsonBody('[]')).toEqual({ value: [] });
  });

  it('refuses scalars at the top, whitespace alone and malformed text', () => {
    for (const text of ['"x"', '12', 'null', 'true', '   ', '\u00a0{}', '{"a":', '{a:1}']) {
      expect(parseJsonBody(text), text).toEqual({ problem: 'The body is not valid JSON' });
    }
  });

  it(`refuses nesting deeper than ${MAX_JSON_DEPTH} levels`, () => {
    expect(parseJsonBody(nested(MAX_JSON_DEPTH))).toHaveProperty('value');
    expect(parseJsonBody(nested(MAX_JSON_DEPTH + 1))).toEqual({
      problem: `The body is nested deeper than ${MAX_JSON_DEPTH} levels`,
    });
  });

  it('marks a body parsed as large, and only that one', () => {
    const large = parseJsonBody('{"a":1}', true);
    const small = parseJsonBody('{"a":1}');
    expect('value' in large && isLargeJsonBody(large.value)).toBe(true);
    expect('value' in small && isLargeJsonBody(small.value)).toBe(false);
    expect(isLargeJsonBody(null)).toBe(false);
  });
});
