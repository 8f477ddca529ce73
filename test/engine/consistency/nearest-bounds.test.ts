/**
 * The nodes the bounds of src/engine/consistency/nearest-changes.ts list for the pass, on
 * random compiled models and queries: each once, in ascending id, each stamped; the
 * forward bound's narrowed to those on a path of the least changes (nearest-narrow.ts):
 * a subset of its own, and every node there has its counts from the start and to the
 * end adding up to the least changes, checked against a count over the whole diagram.
 * (That the pass over them finds the nearest path is nearest-search.property.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { distinctKids } from '../../../src/engine/consistency/distinct-kids.js';
import type { ConsistencyForm } from '../../../src/engine/consistency/form.js';
import {
  type ChangeBound,
  leastChanges,
  leastChangesBelow,
} from '../../../src/engine/consistency/nearest-changes.js';
import { narrowed } from '../../../src/engine/consistency/nearest-narrow.js';
import { firstNodeAfter } from '../../../src/engine/consistency/nearest-pass.js';
import { stretchOf } from '../../../src/engine/consistency/nearest-stretch.js';
import { segmentsOf } from '../../../src/engine/consistency/prepared.js';
import { segmentSpan } from '../../../src/engine/consistency/segments.js';
import { compileDocument } from '../../../src/engine/work.js';
import { prng, randomModel } from './random-model.js';

const FALSE = 0;
const TRUE = 1;

/** Per node, the least changes from the start (forward) and to the span's end (backward). */
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
  to[end] = 0;
  const stop = end === TRUE ? nodes : end;
  for (let id = stop - 1; id >= start; id--)
    for (let v = 0; v < domain[nodeLayer[id]]; v++) {
      const child = kids[kidStart[id] + v];
      if (child === FALSE || (child === TRUE && end !== TRUE)) continue;
      to[id] = Math.min(to[id], cost(nodeLayer[id], v) + to[child]);
    }
  from[start] = 0;
  for (let id = start; id < stop; id++)
    for (let v = 0; v < domain[nodeLayer[id]]; v++) {
      const child = kids[kidStart[id] + v];
      if (child === FALSE || (child === TRUE && end !== TRUE)) continue;
      from[child] = Math.min(from[child], from[id] + cost(nodeLayer[id], v));
    }
  return { from, to };
}

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
    for (let seed = 1; seed <= 80; seed++) {
      const random = prng(9000 + seed);
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
          if (random() < 0.6) target[layer] = Math.floor(random() * domain[layer]);
        if (random() < 0.5) {
          const layer = Math.floor(random() * layers);
          fixed[layer] = Math.floor(random() * domain[layer]);
          target[layer] = -1;
        }
        const rank = new Int32Array(layers).fill(-1);
        [...Array(layers).keys()]
          .filter((layer) => target[layer] >= 0)
          .sort(() => random() - 0.5)
          .forEach((layer, i) => (rank[layer] = i));
        const price = Float64Array.from({ length: valueBase[layers] }, () => random());
        const query = { target, fixed, rank, price, priceBelow: undefined };
        const distinct = distinctKids(form, price);
        const { deepest } = stretchOf(form, query, span);
        const end = span.end === TRUE ? nodes : span.end;
        const last = firstNodeAfter(form, deepest, span.start, end);
        const visit = { stamp: new Int32Array(nodes), stack: new Int32Array(nodes), epoch: 0 };
        const list = new Int32Array(nodes);
        const order = new Int32Array(nodes);
        const below = new Uint8Array(nodes);
        const context = `seed ${seed} round ${r}`;
        const backward = leastChangesBelow(form, query, span, last, {
          below,
          distinct,
          visit,
          list,
          listShare: 1,
          order,
        });
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
        const { from, to } = counts(form, target, fixed, span.start, span.end);
        const kept = new Set(narrow.nodes);
        for (const id of before) {
          // Nodes under the last restricted layer are never listed; `to` counts from the end.
          const onLeast = from[id] + to[id] === forward.changes;
          expect(kept.has(id), `${context} node ${id}`).toBe(onLeast);
          if (!onLeast) expect(narrow.stamp[id], context).not.toBe(narrow.epoch);
        }
        narrowedSome++;
      }
    }
    expect(narrowedSome).toBeGreaterThan(60);
    expect(listedBackward).toBeGreaterThan(60);
  }, 120_000);
});
