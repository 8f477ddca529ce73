import { charge, type Work } from './work.js';
import type { LayeredDiagram } from './weighted.js';
import { LabelHeap, type Labels, newLabels, pushLabel } from './nearest-labels.js';
import type { VisitScratch } from './prepared.js';

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
 * The heuristic is the price part only: per node the least price from it to TRUE with no
 * restriction (one backward pass per form and price, kept), a lower bound of any
 * restricted completion and consistent along every edge (skipped layers included), so A*
 * settles each node once. Below the last restricted layer it is exact, so the first such
 * node settled closes the search.
 */
export interface SearchSpan {
  /** The node every path of the stretch starts at, and the one it ends at (TRUE, or a cut). */
  readonly start: number;
  readonly end: number;
  /** The stretch's first layer, and the layer after its last. */
  readonly fromLayer: number;
  readonly toLayer: number;
}

export interface SearchQuery {
  /** Per layer: the answer's value (changing it costs 1), or -1. Not read where `fixed`. */
  readonly target: Int32Array;
  /** Per layer: a forced value, or -1. */
  readonly fixed: Int32Array;
  /** Per layer with a target: its position in question order (earlier kept first). */
  readonly rank: Int32Array;
  /** Per value (flat): the price tie-break (minor units), or undefined (no price). */
  readonly price: Float64Array | undefined;
  /** Per node: the least price from it to TRUE, unrestricted (`leastPriceToTrue`). */
  readonly priceBelow: Float64Array | undefined;
}

export interface SpanPath {
  /** Changed targets of the stretch. */
  readonly changes: number;
  /** The values of the stretch's restricted layers on the nearest path (others untouched). */
  readonly path: Int32Array;
}

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

const FALSE = 0;
const TRUE = 1;

/**
 * The nearest path of `span` (undefined: the forced values leave it no path), charging
 * every edge it examines to `work` (OutOfWork past it). Writes into `path` the values of
 * the stretch's restricted layers.
 */
export function searchSpan(
  diagram: LayeredDiagram,
  query: SearchQuery,
  span: SearchSpan,
  path: Int32Array,
  scratch: SearchScratch,
  work?: Work,
): SpanPath | undefined {
  const { domain, valueBase, nodeLayer, kidStart, kids } = diagram;
  const { target, fixed, rank, price, priceBelow } = query;
  const { fromLayer, toLayer, start, end } = span;
  // A skipped layer keeps its forced value, else its target, else takes its cheapest value:
  // never a change. `skipBefore[l - fromLayer]`: their prices summed over the layers before l.
  const skipBefore = new Float64Array(toLayer - fromLayer + 1);
  const skipValue = new Int32Array(toLayer - fromLayer);
  let deepest = fromLayer - 1;
  for (let layer = fromLayer; layer < toLayer; layer++) {
    const base = valueBase[layer];
    let value = fixed[layer] >= 0 ? fixed[layer] : target[layer];
    if (value >= 0) deepest = layer;
    else if (price === undefined) value = 0;
    else {
      value = 0;
      for (let v = 1; v < domain[layer]; v++) if (price[base + v] < price[base + value]) value = v;
    }
    skipValue[layer - fromLayer] = value;
    const own = price === undefined ? 0 : price[base + value];
    skipBefore[layer - fromLayer + 1] = skipBefore[layer - fromLayer] + own;
  }
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
      return { changes: labels.changes[label], path: tracePath(labels, label, diagram, span, skipValue, path) };
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
    if (examined > 65536) {
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

const EMPTY: readonly number[] = [];

/** `set` (ascending positions) with `position` added. */
function withPosition(set: readonly number[], position: number): readonly number[] {
  const result = new Array<number>(set.length + 1);
  let i = 0;
  for (; i < set.length && set[i] < position; i++) result[i] = set[i];
  result[i] = position;
  for (; i < set.length; i++) result[i + 1] = set[i];
  return result;
}

/**
 * Label `label`'s key against (count, set, estimate): negative when the label is less.
 * Of two equal counts, the set that changes the earlier answer is the greater.
 */
export function compareKey(
  labels: Labels,
  label: number,
  count: number,
  set: readonly number[],
  estimate: number,
): number {
  const own = labels.changes[label];
  if (own !== count) return own - count;
  const changed = labels.changed[label];
  if (changed !== set)
    for (let i = 0; i < changed.length; i++)
      if (changed[i] !== set[i]) return changed[i] < set[i] ? 1 : -1;
  return labels.estimate[label] - estimate;
}

/** The values of the restricted layers along the label's path (skipped ones: `skipValue`). */
function tracePath(
  labels: Labels,
  last: number,
  diagram: LayeredDiagram,
  span: SearchSpan,
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

/**
 * Per node, the least price of a path from it to TRUE with no restriction (skipped
 * layers at their cheapest value): the search's heuristic. One backward pass.
 */
export function leastPriceToTrue(diagram: LayeredDiagram, price: Float64Array): Float64Array {
  const { domain, valueBase, nodeLayer, kidStart, kids } = diagram;
  const layers = domain.length;
  const cheapestBefore = new Float64Array(layers + 1);
  for (let layer = 0; layer < layers; layer++) {
    let least = Infinity;
    for (let at = valueBase[layer]; at < valueBase[layer + 1]; at++)
      least = Math.min(least, price[at]);
    cheapestBefore[layer + 1] = cheapestBefore[layer] + least;
  }
  const result = new Float64Array(nodeLayer.length).fill(Infinity);
  result[TRUE] = 0;
  for (let id = nodeLayer.length - 1; id > TRUE; id--) {
    const layer = nodeLayer[id];
    const base = valueBase[layer];
    const after = cheapestBefore[layer + 1];
    let least = Infinity;
    for (let v = 0, k = kidStart[id]; v < domain[layer]; v++, k++) {
      const child = kids[k];
      if (child === FALSE) continue;
      const to = child === TRUE ? layers : nodeLayer[child];
      const total = price[base + v] + cheapestBefore[to] - after + result[child];
      if (total < least) least = total;
    }
    result[id] = least;
  }
  return result;
}
