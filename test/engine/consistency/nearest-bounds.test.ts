/**
 * The nodes the bounds of src/engine/consistency/nearest-changes.ts list for the pass, on
 * random compiled models and queries: each once, in ascending id, each stamped; the
 * forward bound's narrowed to those on a path of the least changes (nearest-narrow.ts):
 * a subset of its own, and every node there has its counts from the start and to the
 * end adding up to the least changes, checked against a count over the whole diagram.
 * (That the pass over them finds the nearest path is nearest-search.property.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import {
  type ChangeBound,
  leastChanges,
  leastChangesBelow,
} from '../../../src/engine/consistency/nearest-changes.js';
import { narrowed } from '../../../src/engine/consistency/nearest-narrow.js';
import { boundScratch, leastChangeCounts, nearestCases } from './nearest-cases.js';

function expectAscendingAndStamped(bound: ChangeBound, context: string): void {
  const nodes = bound.nodes as Int32Array;
  for (let i = 0; i < nodes.length; i++) {
    if (i > 0) expect(nodes[i], context).toBeGreaterThan(nodes[i - 1]);
    expect(bound.stamp[nodes[i]], context).toBe(bound.epoch);
  }
}

describe('the nodes the nearest configuration bounds list', () => {
  it('are listed once each, in ascending id; the forward ones narrowed to paths of the least changes', () => {
    let narrowedSome = 0;
    let listedBackward = 0;
    for (const testCase of nearestCases(9000, 0.6, true)) {
      const { context, form, span, query, distinct, last, nodes } = testCase;
      const shared = boundScratch(testCase);
      const { visit, list, order, below } = shared;
      const backward = leastChangesBelow(form, query, span, last, shared);
      if (backward.nodes !== undefined) {
        expectAscendingAndStamped(backward, context);
        listedBackward++;
      }
      const down = new Int32Array(nodes);
      const scratch = { visit, down, frontier: order, list, listShare: 1, distinct };
      const forward = leastChanges(form, query, span, last, scratch);
      expect(forward.changes, context).toBe(backward.changes);
      if (forward.nodes === undefined || forward.changes <= 0) continue;
      expectAscendingAndStamped(forward, context);
      const before = new Set(forward.nodes);
      const narrow = narrowed(form, query, span, last, forward, below, distinct);
      expectAscendingAndStamped(narrow, context);
      const { from, to } = leastChangeCounts(testCase);
      const kept = new Set(narrow.nodes);
      for (const id of before) {
        // Nodes under the last restricted layer are never listed; `to` counts from the end.
        const onLeast = from[id] + to[id] === forward.changes;
        expect(kept.has(id), `${context} node ${id}`).toBe(onLeast);
        if (!onLeast) expect(narrow.stamp[id], context).not.toBe(narrow.epoch);
      }
      narrowedSome++;
    }
    expect(narrowedSome).toBeGreaterThan(60);
    expect(listedBackward).toBeGreaterThan(60);
  }, 120_000);
});
