/**
 * The distinct children the backward change count and the lexicographic pass read
 * (src/engine/consistency/distinct-kids.ts): per node, each child other
 * than FALSE once, with the first of its cheapest values (by random prices, or the first
 * value without prices), in ascending value, on random compiled models.
 */
import { describe, expect, it } from 'vitest';
import { distinctKids } from '../../../src/engine/consistency/distinct-kids.js';
import { compileDocument } from '../../../src/engine/work.js';
import { prng, randomModel } from './random-model.js';

const FALSE = 0;

describe('distinctKids', () => {
  for (const priced of [false, true])
    it(`lists each child once with its first cheapest value, ${priced ? 'priced' : 'no price'}`, () => {
      let nodes = 0;
      let repeated = 0;
      for (let seed = 1; seed <= 40; seed++) {
        const random = prng(7000 + seed);
        const compiled = compileDocument(randomModel(random).document);
        if (!compiled.ok || !compiled.model.consistency.compiled) continue;
        const form = compiled.model.consistency;
        const { domain, valueBase, nodeLayer, kidStart, kids } = form;
        const layers = domain.length;
        const price = priced
          ? Float64Array.from({ length: valueBase[layers] }, () => Math.floor(random() * 4))
          : undefined;
        const distinct = distinctKids(form, price);
        for (let id = 2; id < nodeLayer.length; id++) {
          const base = valueBase[nodeLayer[id]];
          const cheapest = new Map<number, number>();
          let edges = 0;
          for (let v = 0; v < domain[nodeLayer[id]]; v++) {
            const child = kids[kidStart[id] + v];
            if (child === FALSE) continue;
            edges++;
            const known = cheapest.get(child);
            if (
              known === undefined ||
              (price !== undefined && price[base + v] < price[base + known])
            )
              cheapest.set(child, v);
          }
          const expected = [...cheapest].sort((a, b) => a[1] - b[1]);
          const listed: Array<[number, number]> = [];
          for (let k = distinct.start[id]; k < distinct.start[id + 1]; k++)
            listed.push([distinct.kids[k], distinct.values[k]]);
          expect(listed, `seed ${seed} node ${id}`).toEqual(expected);
          nodes++;
          if (expected.length < edges) repeated++;
        }
        expect(distinct.start[nodeLayer.length]).toBe(distinct.kids.length);
      }
      expect(nodes).toBeGreaterThan(100);
      expect(repeated).toBeGreaterThan(0);
    });
});
