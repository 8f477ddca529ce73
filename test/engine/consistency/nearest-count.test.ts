/**
 * The backward bound of src/engine/consistency/nearest-changes.ts (`leastChangesBelow`) on
 * random compiled models and queries, against counts over the whole diagram: its one
 * sweep's count below (nearest-single.ts `countBelow`, which stops reading a node's
 * children at 0) is each node's least changes to the end, and with two changes or more
 * the nodes its sweep lists are exactly those on a path of the least changes, ascending.
 * (That the pass over them finds the nearest path is nearest-search.property.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { distinctKids } from '../../../src/engine/consistency/distinct-kids.js';
import type { ConsistencyForm } from '../../../src/engine/consistency/form.js';
import { leastChangesBelow } from '../../../src/engine/consistency/nearest-changes.js';
import { firstNodeAfter } from '../../../src/engine/consistency/nearest-pass.js';
import { stretchOf } from '../../../src/engine/consistency/nearest-stretch.js';
import { segmentsOf } from '../../../src/engine/consistency/prepared.js';
import { segmentSpan } from '../../../src/engine/consistency/segments.js';
import { compileDocument } from '../../../src/engine/work.js';
import { prng, randomModel } from './random-model.js';

const FALSE = 0;
const TRUE = 1;
const NONE = 255;

/** Per node, the least changes from the start and to the span's end, every edge read. */
function counts(
  form: ConsistencyForm,
  target: Int32Array,
  fixed: Int32Array,
  start: number,
  end: number,
): { from: number[]; to: number[] } {
  const { domain, nodeLayer, kidStart, kids } = form;
  const nodes = nodeLayer.length;
  const from = new Array<number>(nodes).fill(Infinity);
  const to = new Array<number>(nodes).fill(Infinity);
  const cost = (layer: number, v: number) =>
    fixed[layer] >= 0
      ? v === fixed[layer]
        ? 0
        : Infinity
      : target[layer] >= 0 && v !== target[layer]
        ? 1
        : 0;
  const edges = (id: number, visit: (child: number, cost: number) => void) => {
    for (let v = 0; v < domain[nodeLayer[id]]; v++) {
      const child = kids[kidStart[id] + v];
      if (child !== FALSE && (child !== TRUE || end === TRUE)) visit(child, cost(nodeLayer[id], v));
    }
  };
  to[end] = 0;
  const stop = end === TRUE ? nodes : end;
  for (let id = stop - 1; id >= start; id--)
    edges(id, (child, c) => (to[id] = Math.min(to[id], c + to[child])));
  from[start] = 0;
  for (let id = start; id < stop; id++)
    edges(id, (child, c) => (from[child] = Math.min(from[child], from[id] + c)));
  return { from, to };
}

describe('the nearest configuration backward bound', () => {
  it('counts each node its least changes below in one sweep and lists the nodes of the least paths', () => {
    let counted = 0;
    let listed = 0;
    for (let seed = 1; seed <= 80; seed++) {
      const random = prng(9100 + seed);
      const compiled = compileDocument(randomModel(random).document);
      if (!compiled.ok || !compiled.model.consistency.compiled) continue;
      const form = compiled.model.consistency;
      if (form.root <= TRUE) continue;
      const { domain, valueBase, nodeLayer } = form;
      const layers = domain.length;
      const nodes = nodeLayer.length;
      const span = segmentSpan(segmentsOf(form), 0);
      for (let r = 0; r < 8; r++) {
        const target = new Int32Array(layers).fill(-1);
        const fixed = new Int32Array(layers).fill(-1);
        for (let layer = 0; layer < layers; layer++)
          if (random() < 0.7) target[layer] = Math.floor(random() * domain[layer]);
        if (random() < 0.5) {
          const layer = Math.floor(random() * layers);
          fixed[layer] = Math.floor(random() * domain[layer]);
          target[layer] = -1;
        }
        const rank = new Int32Array(layers).fill(-1);
        [...Array(layers).keys()]
          .filter((layer) => target[layer] >= 0)
          .forEach((layer, i) => (rank[layer] = i));
        const price = Float64Array.from({ length: valueBase[layers] }, () => random());
        const query = { target, fixed, rank, price, priceBelow: undefined };
        const distinct = distinctKids(form, price);
        const { deepest } = stretchOf(form, query, span);
        const end = span.end === TRUE ? nodes : span.end;
        const last = firstNodeAfter(form, deepest, span.start, end);
        const visit = { stamp: new Int32Array(nodes), stack: new Int32Array(nodes), epoch: 0 };
        const below = new Uint8Array(nodes);
        const list = new Int32Array(nodes);
        const order = new Int32Array(nodes);
        const scratch = { below, distinct, visit, list, listShare: 1, order };
        const bound = leastChangesBelow(form, query, span, last, scratch);
        const { from, to } = counts(form, target, fixed, span.start, span.end);
        const context = `seed ${seed} round ${r}`;
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
    }
    expect(counted).toBeGreaterThan(200);
    expect(listed).toBeGreaterThan(20);
  }, 120_000);
});
