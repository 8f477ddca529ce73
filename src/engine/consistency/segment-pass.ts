import { freeProduct } from './count.js';
import type { ConsistencyForm } from './form.js';
import { FALSE, TRUE } from './mdd.js';
import { type SegmentSpan, type Segments, segmentSpan } from './segments.js';
import type { LayeredDiagram } from './weighted.js';
import { charge, type Work } from './work.js';

/**
 * One segment (segments.ts) under the restrictions of its own layers (`fixed[layer]`:
 * a value, or -1 when free): whether it has a path from its start node to its end
 * node, how many (an edge that skips layers counting every allowed value of them), and
 * its supported values. One bottom-up pass counts the paths to the end node (a node is
 * alive when it has one), one top-down pass marks the nodes reachable from the start
 * node; value v of layer l is supported when an edge (u, v, c) has u reachable and c
 * alive — a layer's own restriction is not applied to its own edges ("the answers
 * minus itself"), as in query.ts.
 */
export interface SegmentResult {
  readonly consistent: boolean;
  /** Paths through the segment: exact while `exact`, else past 2^53 (see bigCount). */
  readonly count: number;
  readonly exact: boolean;
}

const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Per form: node- and layer-sized scratch arrays, so that a pass allocates nothing (a
 * model of thousands of questions has thousands of small segments). One pass at a
 * time: a pass (and bigCount right after it) runs to its end synchronously — an
 * evaluation in slices pauses only between its steps, never inside a query.
 */
export interface PassScratch {
  readonly segments: Segments;
  /** Per node: paths to its segment's end node. */
  readonly count: Float64Array;
  readonly reach: Uint8Array;
  /** Per layer: allowed values of the layers from it to its segment's end (a product). */
  readonly tail: Float64Array;
  /** Per layer: difference array of free stretches, zero between passes. */
  readonly free: Int32Array;
  /**
   * Per layer: the restriction its nodes' `count` was last computed under (-2: never). A
   * node's count depends on the restrictions of its own layer and those below it only, so
   * a pass recounts the layers down to the deepest one whose restriction changed, and
   * keeps the counts below it: a click changes one answer, and a diagram of one large
   * segment was counted whole at every click.
   */
  readonly countedUnder: Int32Array;
  /** Per layer: the first node on it or below it (ids ascend by layer); then the node count. */
  readonly firstNode: Int32Array;
}

/** The form's scratch arrays, made once by its prepared form (prepared.ts). */
export function newPassScratch(form: ConsistencyForm, segments: Segments): PassScratch {
  const size = form.nodeLayer.length;
  const layers = form.domain.length;
  const firstNode = new Int32Array(layers + 1).fill(size);
  for (let id = size - 1; id > TRUE; id--) firstNode[form.nodeLayer[id]] = id;
  for (let layer = layers - 1; layer >= 0; layer--)
    firstNode[layer] = Math.min(firstNode[layer], firstNode[layer + 1]);
  const scratch: PassScratch = {
    segments,
    count: new Float64Array(size),
    reach: new Uint8Array(size),
    tail: new Float64Array(layers + 1),
    free: new Int32Array(layers + 1),
    countedUnder: new Int32Array(layers).fill(-2),
    firstNode,
  };
  scratch.count[TRUE] = 1;
  return scratch;
}

/** The edges of segment `s` (what one pass over it examines, twice). */
export function segmentEdges(form: ConsistencyForm, segments: Segments, s: number): number {
  const end = segments.endNode[s];
  return (
    (end === TRUE ? form.kids.length : form.kidStart[end]) - form.kidStart[segments.startNode[s]]
  );
}

/**
 * The pass over segment `s`; its supported values are written into `supported` (flat
 * per value, `ConsistencyForm.valueBase`; the segment's range must be zero).
 */
export function passSegment(
  form: ConsistencyForm,
  fixed: Int32Array,
  s: number,
  supported: Uint8Array,
  scratch: PassScratch,
  work?: Work,
): SegmentResult {
  if (work !== undefined) charge(work, 2 * segmentEdges(form, scratch.segments, s));
  const { nodeLayer, kidStart, kids, domain, valueBase } = form;
  const { segments, count, reach, tail, free, countedUnder } = scratch;
  const from = segments.fromLayer[s];
  const to = segments.toLayer[s];
  const start = segments.startNode[s];
  const end = segments.endNode[s];
  const hi = end === TRUE ? nodeLayer.length : end;
  count[end] = 1;
  // A stretch's product of allowed values is a quotient of two tails (exact while safe).
  tail[to] = 1;
  for (let layer = to - 1; layer >= from; layer--)
    tail[layer] = tail[layer + 1] * (fixed[layer] >= 0 ? 1 : domain[layer]);
  // The layers below `deepest` kept their restrictions: their nodes keep their counts (and
  // the tails they read). The first layer is always recounted: its node is the previous
  // segment's end, whose count that segment's pass sets to 1. A kept count past 2^53 that
  // the start's count includes makes that one pass it too, which this pass sees.
  let deepest = to - 1;
  while (deepest > from && countedUnder[deepest] === fixed[deepest]) deepest--;
  let exact = tail[from] <= SAFE;
  for (let id = Math.min(hi, scratch.firstNode[deepest + 1]) - 1; id >= start; id--) {
    const layer = nodeLayer[id];
    const first = kidStart[id];
    const f = fixed[layer];
    let total = 0;
    for (let v = f >= 0 ? f : 0, last = f >= 0 ? f + 1 : domain[layer]; v < last; v++) {
      const child = kids[first + v];
      const below = child === FALSE ? 0 : count[child];
      if (below === 0) continue;
      const next = child === end ? to : nodeLayer[child];
      // Past 2^53 the tails are rounded, and so is their quotient: rounded back to the
      // integer it is (exact while below 2^52; a larger one makes the count inexact).
      total += next > layer + 1 ? below * Math.round(tail[layer + 1] / tail[next]) : below;
    }
    if (total > SAFE) exact = false;
    count[id] = total;
  }
  for (let layer = from; layer <= deepest; layer++) countedUnder[layer] = fixed[layer];
  const consistent = count[start] > 0;
  reach.fill(0, start, hi);
  reach[start] = 1;
  for (let id = start; id < hi; id++) {
    if (reach[id] === 0) continue;
    const layer = nodeLayer[id];
    const first = kidStart[id];
    const base = valueBase[layer];
    const f = fixed[layer];
    for (let v = 0, size = domain[layer]; v < size; v++) {
      const child = kids[first + v];
      if (child === FALSE) continue;
      const allowed = f < 0 || f === v;
      // Reach follows every allowed edge; `count` holds the restrictions of the layers
      // below, which a deeper layer's own values must not be judged by.
      if (allowed && child !== end) reach[child] = 1;
      if (count[child] === 0) continue;
      supported[base + v] = 1;
      if (!allowed) continue;
      const next = child === end ? to : nodeLayer[child];
      if (next > layer + 1) {
        free[layer + 1]++;
        free[next]--;
      }
    }
  }
  for (let layer = from, open = 0; layer < to; layer++) {
    open += free[layer];
    free[layer] = 0;
    if (open > 0) supported.fill(1, valueBase[layer], valueBase[layer + 1]);
  }
  free[to] = 0; // every stretch ends by `to`: the array is zero again
  return { consistent, count: count[start], exact };
}

/**
 * The segment's exact path count when passSegment's doubles passed 2^53 (only where a
 * count is asked for: the pairwise relation does not need it), right after that pass.
 */
export function bigCount(
  form: ConsistencyForm,
  fixed: Int32Array,
  s: number,
  scratch: PassScratch,
): bigint {
  return exactCount(form, fixed, segmentSpan(scratch.segments, s), scratch.count);
}

/**
 * A span's exact path count from double counts per node (`count`, paths to the span's end
 * under `fixed`, at least those of the nodes reached from its start along allowed edges; a
 * walk's own, pair-pass.ts, or passSegment's). A node whose double count is below 2^52 is
 * exact (its descendants' are smaller; passSegment rounds its factors back to integers), so
 * only the nodes above it that the start's count sums are summed again, in BigInt: those
 * reached from the start node along allowed edges through such nodes (a node's count is at
 * least each allowed child's, so every ancestor of a large count is large too).
 */
export function exactCount(
  diagram: LayeredDiagram,
  fixed: Int32Array,
  { toLayer: to, start, end }: SegmentSpan,
  count: Float64Array,
): bigint {
  const { nodeLayer, kidStart, kids, domain } = diagram;
  const paths = (node: number): number => (node === end ? 1 : count[node]);
  const large = (node: number): boolean => paths(node) >= 2 ** 52;
  if (!large(start)) return BigInt(paths(start));
  const sums = [start];
  const seen = new Set(sums);
  for (let i = 0; i < sums.length; i++) {
    const id = sums[i];
    const f = fixed[nodeLayer[id]];
    for (let v = f >= 0 ? f : 0, last = f >= 0 ? f + 1 : domain[nodeLayer[id]]; v < last; v++) {
      const child = kids[kidStart[id] + v];
      if (child === FALSE || seen.has(child) || !large(child)) continue;
      seen.add(child);
      sums.push(child);
    }
  }
  // Ids ascend by layer: deepest first, each node's children are summed before it.
  sums.sort((a, b) => b - a);
  const big = new Map<number, bigint>();
  const exactly = (node: number): bigint => big.get(node) ?? BigInt(paths(node));
  for (const id of sums) {
    const layer = nodeLayer[id];
    const first = kidStart[id];
    const f = fixed[layer];
    let total = 0n;
    for (let v = f >= 0 ? f : 0, last = f >= 0 ? f + 1 : domain[layer]; v < last; v++) {
      const child = kids[first + v];
      if (child === FALSE || paths(child) === 0) continue;
      const next = child === end ? to : nodeLayer[child];
      const below = exactly(child);
      total +=
        next > layer + 1 ? below * BigInt(freeProduct(diagram, fixed, layer + 1, next)) : below;
    }
    big.set(id, total);
  }
  return exactly(start);
}
