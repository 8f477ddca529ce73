import { charge, type Work } from './work.js';
import { FALSE, TRUE } from './mdd.js';
import type { SegmentSpan } from './segments.js';
import type { LayeredDiagram } from './weighted.js';
import { compareKey, LabelHeap, type Labels, newLabels, pushLabel } from './nearest-labels.js';
import type { VisitScratch } from './prepared.js';
import {
  EMPTY,
  type SearchQuery,
  type SpanPath,
  stretchOf,
  withPosition,
} from './nearest-stretch.js';

/**
 * The nearest valid configuration of one stretch of a layered diagram by a best-first
 * search that touches only what it must: A* (Hart, Nilsson & Raphael, "A formal basis for
 * the heuristic determination of minimum cost paths", 1968) from the stretch's start node
 * to its end node, which stops as soon as a node below the last restricted layer is
 * settled. Where the (min, +) passes (weighted.ts) read every edge of the stretch three
 * times and more, this reads the nodes a path of fewer changes reaches, and no further.
 *
 * The cost of a path is lexicographic, as the contract ranks (docs/model-format.md
 * "Guided configuration"): (changes, the changed answers' positions in question order,
 * price). The second part is a binary number whose bit i, the earliest question's the
 * most significant, says that answer i changed; positions on one path are on distinct
 * layers, so a path's number is the sum of its edges' and the whole key is additive with
 * non-negative weights: Dijkstra's order settles each node with its least key, ties on
 * changes going to the path that keeps the earlier answers. The key is held exactly (the
 * count, the sorted positions, the price) instead of as a 2^k-sized integer.
 *
 * The heuristic is on the price (nearest-stretch.ts): per node the least price from it to
 * TRUE with no restriction (one backward pass per form and price, kept), a lower bound of
 * any restricted completion, consistent along every edge (skipped layers included), so A*
 * settles each node once; exact below the last restricted layer, so the first node
 * settled there closes the search. Every node reachable with fewer changes is settled
 * before the answer: cheap when the conflict is near the end of the order, which is the
 * common case; the caller bounds the work and otherwise takes one backward pass
 * (nearest-pass.ts).
 */
/**
 * Per-form scratch, reused by every search (one at a time: evaluation is synchronous).
 * `visit` is the form's node-sized visit stamps of completion checks (prepared.ts): a
 * node holds a label of this search when stamped with its epoch, its best label in
 * `stack` (free between checks).
 */
export interface SearchScratch {
  readonly visit: VisitScratch;
  readonly labels: Labels;
}

export function newSearchScratch(visit: VisitScratch): SearchScratch {
  return { visit, labels: newLabels() };
}

/**
 * The nearest path of `span` (undefined: the forced values leave it no path), charging
 * every edge it examines to `work` (OutOfWork past it). Writes into `path` the values of
 * the stretch's restricted layers.
 */
export function searchSpan(
  diagram: LayeredDiagram,
  query: SearchQuery,
  span: SegmentSpan,
  path: Int32Array,
  scratch: SearchScratch,
  work?: Work,
): SpanPath | undefined {
  const { domain, valueBase, nodeLayer, kidStart, kids } = diagram;
  const { target, fixed, rank, price, priceBelow } = query;
  const { fromLayer, toLayer, start, end } = span;
  const { skipBefore, skipValue, deepest } = stretchOf(diagram, query, span);
  const below = (node: number): number =>
    priceBelow === undefined || node === end ? 0 : priceBelow[node] - priceBelow[end];
  const layerOf = (node: number): number => (node === end ? toLayer : nodeLayer[node]);
  const labels = scratch.labels;
  labels.count = 0;
  const { stamp, stack: best } = scratch.visit;
  if (++scratch.visit.epoch === 0x7fffffff) {
    stamp.fill(0);
    scratch.visit.epoch = 1;
  }
  const epoch = scratch.visit.epoch;
  const heap = new LabelHeap(labels);
  const first = pushLabel(labels, start, -1, -1, 0, EMPTY, skipBefore[layerOf(start) - fromLayer]);
  labels.estimate[first] = labels.price[first] + below(start);
  stamp[start] = epoch;
  best[start] = first;
  heap.push(first);
  let examined = 0;
  for (;;) {
    const label = heap.pop();
    if (label < 0) {
      charge(work, examined);
      return undefined;
    }
    const node = labels.node[label];
    if (best[node] !== label) continue; // a better label reached the node since
    const layer = layerOf(node);
    if (layer > deepest) {
      charge(work, examined);
      return {
        changes: labels.changes[label],
        path: tracePath(labels, label, diagram, span, skipValue, path),
      };
    }
    const f = fixed[layer];
    const t = f >= 0 ? -1 : target[layer];
    const from = kidStart[node];
    const base = valueBase[layer];
    const after = skipBefore[layer + 1 - fromLayer];
    const changes = labels.changes[label];
    const changed = labels.changed[label];
    const paid = labels.price[label];
    const hi = f >= 0 ? f + 1 : domain[layer];
    examined += hi;
    if (examined > 4096) {
      charge(work, examined);
      examined = 0;
    }
    for (let v = f >= 0 ? f : 0; v < hi; v++) {
      const child = kids[from + v];
      if (child === FALSE) continue;
      const next = child === TRUE || child === end ? toLayer : nodeLayer[child];
      if (child === TRUE && end !== TRUE) continue; // past the stretch: not its end
      const change = t >= 0 && v !== t;
      const cost =
        paid + (price === undefined ? 0 : price[base + v]) + skipBefore[next - fromLayer] - after;
      const estimate = cost + below(child);
      const set = change ? withPosition(changed, rank[layer]) : changed;
      const count = changes + (change ? 1 : 0);
      if (stamp[child] === epoch && compareKey(labels, best[child], count, set, estimate) <= 0)
        continue;
      const made = pushLabel(labels, child, label, v, count, set, cost);
      labels.estimate[made] = estimate;
      stamp[child] = epoch;
      best[child] = made;
      heap.push(made);
    }
  }
}

/** The values of the restricted layers along the label's path (skipped ones: `skipValue`). */
function tracePath(
  labels: Labels,
  last: number,
  diagram: LayeredDiagram,
  span: SegmentSpan,
  skipValue: Int32Array,
  path: Int32Array,
): Int32Array {
  for (let layer = span.fromLayer; layer < span.toLayer; layer++)
    path[layer] = skipValue[layer - span.fromLayer];
  for (let label = last; labels.parent[label] >= 0; label = labels.parent[label]) {
    const parent = labels.node[labels.parent[label]];
    path[diagram.nodeLayer[parent]] = labels.value[label];
  }
  return path;
}
