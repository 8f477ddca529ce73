import { describe, expect, it } from 'vitest';
import { depthExceeds, MAX_JSON_DEPTH } from '../../src/common/http/json-body.middleware.js';

const nested = (depth: number): unknown => JSON.parse('['.repeat(depth) + ']'.repeat(depth));

describe('depthExceeds: the depth check after express’s JSON parser', () => {
  it(`passes ${MAX_JSON_DEPTH} levels and refuses one more, in arrays and objects`, () => {
    expect(depthExceeds(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(depthExceeds(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    let object: unknown = {};
    for (let i = 1; i < MAX_JSON_DEPTH; i++) object = { a: 1, b: object };
    expect(depthExceeds(object, MAX_JSON_DEPTH)).toBe(false);
    expect(depthExceeds({ c: object }, MAX_JSON_DEPTH)).toBe(true);
  });

  it('stops walking at the bound: a nesting far past it does not overflow', () => {
    expect(depthExceeds(nested(5_000), MAX_JSON_DEPTH)).toBe(true);
  });

  it('counts scalars and empty bodies as no depth', () => {
    for (const value of [null, 1, 'x', true, undefined]) expect(depthExceeds(value, 1)).toBe(false);
  });
});
