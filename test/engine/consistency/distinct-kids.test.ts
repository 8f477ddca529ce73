/**
 * The distinct children the backward change count reads (src/engine/consistency/
 * nearest-changes.ts `distinctKids`): per node, each child other than FALSE once, in the
 * order of the node's edges, on random compiled models.
 */
import { describe, expect, it } from 'vitest';
import { distinctKids } from '../../../src/engine/consistency/nearest-changes.js';
import { compileDocument } from '../../../src/engine/work.js';
import { prng, randomModel } from './random-model.js';

const FALSE = 0;

describe('distinctKids', () => {
  it("lists each node's children other than FALSE once, in edge order", () => {
    let nodes = 0;
    let repeated = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const compiled = compileDocument(randomModel(prng(7000 + seed)).document);
      if (!compiled.ok || !compiled.model.consistency.compiled) continue;
      const form = compiled.model.consistency;
      const { domain, nodeLayer, kidStart, kids } = form;
      const distinct = distinctKids(form);
      for (let id = 2; id < nodeLayer.length; id++) {
        const edges = Array.from(
          kids.subarray(kidStart[id], kidStart[id] + domain[nodeLayer[id]]),
        ).filter((child) => child !== FALSE);
        const expected = [...new Set(edges)];
        const listed = Array.from(
          distinct.kids.subarray(distinct.start[id], distinct.start[id + 1]),
        );
        expect(listed, `seed ${seed} node ${id}`).toEqual(expected);
        nodes++;
        if (expected.length < edges.length) repeated++;
      }
      expect(distinct.start[nodeLayer.length]).toBe(distinct.kids.length);
    }
    expect(nodes).toBeGreaterThan(100);
    expect(repeated).toBeGreaterThan(0);
  });
});
