/**
 * Random compiled models and nearest-configuration queries for the tests of the bounds of
 * src/engine/consistency/nearest-changes.ts, and the least changes of every node counted
 * over the whole diagram (every edge read) to check them against.
 */
import { distinctKids } from '../../../src/engine/consistency/distinct-kids.js';
import type { ConsistencyForm } from '../../../src/engine/consistency/form.js';
import { firstNodeAfter, stretchOf } from '../../../src/engine/consistency/nearest-stretch.js';
import { segmentsOf } from '../../../src/engine/consistency/prepared.js';
import { type SegmentSpan, segmentSpan } from '../../../src/engine/consistency/segments.js';
import { compileDocument } from '../../../src/engine/work.js';
import { prng, randomModel } from './random-model.js';

const FALSE = 0;
const TRUE = 1;

export interface NearestCase {
  readonly context: string;
  readonly form: ConsistencyForm;
  readonly span: SegmentSpan;
  readonly target: Int32Array;
  readonly fixed: Int32Array;
  readonly query: {
    target: Int32Array;
    fixed: Int32Array;
    rank: Int32Array;
    price: Float64Array;
    priceBelow: undefined;
  };
  readonly distinct: ReturnType<typeof distinctKids>;
  /** The first node past the stretch's deepest restricted layer (nodes below are never listed). */
  readonly last: number;
  readonly nodes: number;
}

/**
 * 8 queries on each of the compiled random models of seeds `seedBase + 1…80` (one segment's
 * span): each layer a target with probability `answered`, half of them with one layer fixed
 * instead; the targets ranked in layer order, or at random when `shuffled`.
 */
export function* nearestCases(
  seedBase: number,
  answered: number,
  shuffled: boolean,
): Generator<NearestCase> {
  for (let seed = 1; seed <= 80; seed++) {
    const random = prng(seedBase + seed);
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
        if (random() < answered) target[layer] = Math.floor(random() * domain[layer]);
      if (random() < 0.5) {
        const layer = Math.floor(random() * layers);
        fixed[layer] = Math.floor(random() * domain[layer]);
        target[layer] = -1;
      }
      const rank = new Int32Array(layers).fill(-1);
      const ranked = [...Array(layers).keys()].filter((layer) => target[layer] >= 0);
      if (shuffled) ranked.sort(() => random() - 0.5);
      ranked.forEach((layer, i) => (rank[layer] = i));
      const price = Float64Array.from({ length: valueBase[layers] }, () => random());
      const query = { target, fixed, rank, price, priceBelow: undefined };
      const distinct = distinctKids(form, price);
      const { deepest } = stretchOf(form, query, span);
      const end = span.end === TRUE ? nodes : span.end;
      const last = firstNodeAfter(form, deepest, span.start, end);
      const context = `seed ${seed} round ${r}`;
      yield { context, form, span, target, fixed, query, distinct, last, nodes };
    }
  }
}

/** Per node, the least changes from the start (`from`) and to the span's end (`to`), every edge read. */
export function leastChangeCounts({ form, target, fixed, span }: NearestCase): {
  from: number[];
  to: number[];
} {
  const { domain, nodeLayer, kidStart, kids } = form;
  const { start, end } = span;
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

/**
 * Node-sized scratch for a case's bounds (nearest-changes.ts, nearest-single.ts): the
 * backward sweep's (`leastChangesBelow`) and the arrays the forward bound shares with it.
 */
export function boundScratch({ nodes, distinct }: NearestCase) {
  return {
    below: new Uint8Array(nodes),
    distinct,
    visit: { stamp: new Int32Array(nodes), stack: new Int32Array(nodes), epoch: 0 },
    list: new Int32Array(nodes),
    listShare: 1,
    order: new Int32Array(nodes),
  };
}
