import { describe, expect, it } from 'vitest';
import { lineIfMatchAccepts } from '../../src/carts/line-etag.js';
import { ifMatchAccepts } from '../../src/models/model-lock.js';

describe('If-Match of a line and of a model', () => {
  it('lets a change through without a header, with *, or naming the current state', () => {
    for (const header of [undefined, '', ' ', '*', '2', '"2"', 'W/"2"', '"1", "2"', '"1",W/"2"']) {
      expect(lineIfMatchAccepts(header, 2), String(header)).toBe(true);
      expect(ifMatchAccepts(header, 2), String(header)).toBe(true);
    }
  });

  it('refuses a header naming another state only', () => {
    for (const header of ['1', '"1"', 'W/"1", "3"', '"2-x"', 'two']) {
      expect(lineIfMatchAccepts(header, 2), header).toBe(false);
      expect(ifMatchAccepts(header, 2), header).toBe(false);
    }
  });

  it("names a model's version through its ETag with the lock, never a line's revision", () => {
    const locked = '"2-locked-7-1767225600000"';
    expect(ifMatchAccepts(locked, 2)).toBe(true);
    expect(ifMatchAccepts(`W/${locked}`, 3)).toBe(false);
    expect(lineIfMatchAccepts(locked, 2)).toBe(false);
  });
});
