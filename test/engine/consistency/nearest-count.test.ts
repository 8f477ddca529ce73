/**
 * The backward bound of src/engine/consistency/nearest-changes.ts (`leastChangesBelow`) on
 * random compiled models and queries, against counts over the whole diagram: its one
 * sweep's count below (nearest-single.ts `countBelow`, which stops reading a node's
 * children at 0) is each node's least changes to the end, and with two changes or more
 * the nodes its sweep lists are exactly those on a path of the least changes, ascending.
 * (That the pass over them finds the nearest path is nearest-search.property.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { leastChangesBelow } from '../../../src/engine/consistency/nearest-changes.js';
import { boundScratch, leastChangeCounts, nearestCases } from './nearest-cases.js';

const NONE = 255;

describe('the nearest configuration backward bound', () => {
  it('counts each node its least changes below in one sweep and lists the nodes of the least paths', () => {
    let counted = 0;
    let listed = 0;
    for (const testCase of nearestCases(9100, 0.7, false)) {
      const { context, form, span, query, last } = testCase;
      const scratch = boundScratch(testCase);
      const { below } = scratch;
      const bound = leastChangesBelow(form, query, span, last, scratch);
      const { from, to } = leastChangeCounts(testCase);
      for (let id = span.start; id < last; id++)
        expect(below[id], `${context} node ${id}`).toBe(to[id] === Infinity ? NONE : to[id]);
      counted++;
      if (bound.changes < 2) continue;
      const expected: number[] = [];
      for (let id = span.start; id < last; id++)
        if (from[id] + to[id] === bound.changes) expected.push(id);
      expect([...(bound.nodes ?? [])], context).toEqual(expected);
      for (const id of expected) expect(bound.stamp[id], context).toBe(bound.epoch);
      listed++;
    }
    expect(counted).toBeGreaterThan(200);
    expect(listed).toBeGreaterThan(20);
  }, 120_000);
});
