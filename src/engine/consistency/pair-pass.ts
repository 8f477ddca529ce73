import { FALSE } from './mdd.js';
import { exactCount } from './segment-pass.js';
import {
  clearWorklist,
  keepKnownUp,
  NEEDED,
  type PairScratch,
  REACHED,
  UNTOUCHED,
} from './pair-scratch.js';
import type { SegmentSpan } from './segments.js';
import type { LayeredDiagram } from './weighted.js';

/**
 * The (min, +) passes of weighted.ts for two weights at once (price bounds: the least
 * and the negated greatest weights) over one stretch of a diagram that every valid path
 * crosses (a segment, segments.ts): which nodes a path reaches does not depend on the
 * weights, so both share one walk over the edges.
 *
 * Only the nodes a result reads are visited, and only they are iterated: each walk goes
 * layer by layer through a worklist of the nodes it touched, never through the segment's
 * id range, and over live edges only (live-edges.ts). The forward walk reaches nodes from
 * the start under the restrictions and marks as *needed* every child of a reached node
 * (the per-value result leaves a layer's own restriction out: "the answers minus itself")
 * and the allowed children of needed nodes. The backward walk then computes the needed
 * nodes' least weights to the end and, at each reached node, the per-value results of its
 * edges: every child's weight is known by then, children lying on deeper layers.
 */

/** One span's result for each weight. */
export interface PairResult {
  /** The least weight from the start node to the end node (Infinity: no path). */
  readonly bestA: number;
  readonly bestB: number;
  /** Per value of the span's layers (from valueBase[from]): the least weight start → end through it. */
  readonly valuesA: Float64Array;
  readonly valuesB: Float64Array;
  /**
   * When asked (`counted`): the span's paths from the start node to the end node under the
   * restrictions, an edge that skips layers counting every allowed value of them: what
   * availability's count pass gives (segment-pass.ts), exact (a BigInt past 2^52), for
   * availability (evaluate/bounds-first.ts).
   */
  readonly count?: number | bigint;
  /** Edges the walks read (a caller's work budget). */
  readonly work: number;
}

type Pair = readonly [Float64Array, Float64Array];

/**
 * The passes over `span` under `fixed` (a value per layer, or -1 free). `free`: per layer
 * and weight the least allowed weight, what an edge skipping the layer adds. `support`,
 * when given: the span's supported values under `fixed` (segment-pass.ts, flat), whose
 * zeros let the walks leave out an answered layer's other values that no completion takes
 * (their result is Infinity: no path through them keeps the other answers), and the
 * subdiagrams only they lead to. Undefined when the walks would read more than `budget`
 * edges (checked layer by layer, so a walk stops at most one layer past it); the backward
 * weights computed so far are kept, correct. `counted`: the result has the span's count
 * (its exact BigInt is summed only then).
 */
export function pairPass(
  diagram: LayeredDiagram,
  span: SegmentSpan,
  weights: Pair,
  free: Pair,
  fixed: Int32Array,
  scratch: PairScratch,
  support: Uint8Array | undefined,
  budget = Infinity,
  counted = false,
): PairResult | undefined {
  const { fromLayer: from, toLayer: to } = span;
  // Prefix sums of the free weights over the span's layers: an edge from layer l to
  // layer n adds before[n] - before[l + 1] for the layers it skips.
  const beforeA = new Float64Array(to - from + 1);
  const beforeB = new Float64Array(to - from + 1);
  for (let layer = from; layer < to; layer++) {
    beforeA[layer - from + 1] = beforeA[layer - from] + free[0][layer];
    beforeB[layer - from + 1] = beforeB[layer - from] + free[1][layer];
  }
  const before = [beforeA, beforeB] as const;
  const { tail } = scratch;
  tail[to - from] = 1;
  for (let layer = to - 1; layer >= from; layer--)
    tail[layer - from] = tail[layer + 1 - from] * (fixed[layer] >= 0 ? 1 : diagram.domain[layer]);
  keepKnownUp(span, fixed, scratch);
  try {
    const open = support ?? scratch.everyValue;
    const read = forward(diagram, span, weights, before, fixed, open, scratch, budget);
    if (read > budget) return undefined;
    const left = budget - read;
    const result = backward(diagram, span, weights, free, before, fixed, open, scratch, left);
    if (result === undefined) return undefined;
    const { bestA, bestB, valuesA, valuesB } = result;
    valuesOfSkipped(diagram, span, weights, result);
    const work = read + result.work;
    if (!counted) return { bestA, bestB, valuesA, valuesB, work };
    const paths = scratch.paths[span.start];
    const count = paths < 2 ** 52 ? paths : exactCount(diagram, fixed, span, scratch.paths);
    return { bestA, bestB, valuesA, valuesB, count, work };
  } finally {
    clearWorklist(span, scratch);
  }
}

/**
 * Least weights from the start to each reached node; marks the nodes whose backward
 * weight is read. Returns the edges read (past `budget`: stopped there).
 */
function forward(
  { valueBase, nodeLayer, kidStart, kids }: LayeredDiagram,
  { fromLayer: from, toLayer: to, start, end }: SegmentSpan,
  [a, b]: Pair,
  [beforeA, beforeB]: Pair,
  fixed: Int32Array,
  support: Uint8Array,
  { edges, weights: node, state, upKnown, touched, filled, layerStart }: PairScratch,
  budget: number,
): number {
  const { edge } = edges;
  state[start] = REACHED;
  node[4 * start] = 0;
  node[4 * start + 1] = 0;
  touched[layerStart[from]] = start;
  filled[from] = 1;
  let read = 0;
  for (let layer = from; layer < to && read <= budget; layer++) {
    const f = fixed[layer];
    const answer = f >= 0 ? valueBase[layer] + f : -1;
    const afterA = beforeA[layer + 1 - from];
    const afterB = beforeB[layer + 1 - from];
    for (let i = layerStart[layer], last = i + filled[layer]; i < last; i++) {
      const id = touched[i];
      const reached = state[id] === REACHED;
      // A known backward weight needs none of the children's.
      if (!reached && upKnown[id] === 1) continue;
      if (!reached && f >= 0) {
        read++;
        const child = kids[kidStart[id] + f];
        if (child === FALSE || child === end || state[child] !== UNTOUCHED) continue;
        state[child] = NEEDED;
        const at = nodeLayer[child];
        touched[layerStart[at] + filled[at]++] = child;
        continue;
      }
      const aboveA = node[4 * id];
      const aboveB = node[4 * id + 1];
      const stop = edges.start[id + 1];
      read += stop - edges.start[id];
      for (let e = edges.start[id]; e < stop; e++) {
        const child = edge[3 * e + 1];
        if (child === end) continue;
        const mark = state[child];
        const next = edge[3 * e + 2];
        // From a needed node, or off the answer: only the child's backward weight is read.
        if (!reached || (answer >= 0 && edge[3 * e] !== answer)) {
          if (mark !== UNTOUCHED || (reached && support[edge[3 * e]] === 0)) continue;
          state[child] = NEEDED;
          touched[layerStart[next] + filled[next]++] = child;
          continue;
        }
        const totalA = aboveA + a[edge[3 * e]] + beforeA[next - from] - afterA;
        const totalB = aboveB + b[edge[3 * e]] + beforeB[next - from] - afterB;
        if (mark === REACHED) {
          if (totalA < node[4 * child]) node[4 * child] = totalA;
          if (totalB < node[4 * child + 1]) node[4 * child + 1] = totalB;
          continue;
        }
        if (mark === UNTOUCHED) touched[layerStart[next] + filled[next]++] = child;
        state[child] = REACHED;
        node[4 * child] = totalA;
        node[4 * child + 1] = totalB;
      }
    }
  }
  return read;
}

interface Backward {
  readonly bestA: number;
  readonly bestB: number;
  readonly valuesA: Float64Array;
  readonly valuesB: Float64Array;
  /** Per layer of the span: the least weight of an allowed path that skips it, less its free part. */
  readonly aroundA: Float64Array;
  readonly aroundB: Float64Array;
  readonly work: number;
}

/**
 * Least weights from each needed node to the end node (Infinity: none), where not known,
 * and per value the least weight of a start → end path through it over the edges of
 * reached nodes (every value, the layer's own restriction left out). Undefined past `budget`.
 */
function backward(
  { nodeLayer, kidStart, kids, valueBase }: LayeredDiagram,
  { fromLayer: from, toLayer: to, start, end }: SegmentSpan,
  [a, b]: Pair,
  [freeA, freeB]: Pair,
  [beforeA, beforeB]: Pair,
  fixed: Int32Array,
  support: Uint8Array,
  { edges, weights: node, paths, tail, state, upKnown, touched, filled, layerStart }: PairScratch,
  budget: number,
): Backward | undefined {
  const { edge } = edges;
  const offset = valueBase[from];
  const valuesA = new Float64Array(valueBase[to] - offset).fill(Infinity);
  const valuesB = new Float64Array(valueBase[to] - offset).fill(Infinity);
  const aroundA = new Float64Array(to - from).fill(Infinity);
  const aroundB = new Float64Array(to - from).fill(Infinity);
  let read = 0;
  for (let layer = to - 1; layer >= from; layer--) {
    if (read > budget) return undefined;
    const f = fixed[layer];
    const answer = f >= 0 ? valueBase[layer] + f : -1;
    const afterA = beforeA[layer + 1 - from];
    const afterB = beforeB[layer + 1 - from];
    for (let i = layerStart[layer], last = i + filled[layer]; i < last; i++) {
      const id = touched[i];
      const known = upKnown[id] === 1;
      const reached = state[id] === REACHED;
      if (!reached && known) continue;
      if (state[id] === NEEDED && f >= 0) {
        // Its one allowed edge.
        read++;
        const child = kids[kidStart[id] + f];
        const atEnd = child === end;
        const below = child === FALSE ? Infinity : atEnd ? 0 : node[4 * child + 2];
        const next = atEnd ? to : nodeLayer[child];
        node[4 * id + 2] =
          below === Infinity ? Infinity : a[answer] + beforeA[next - from] - afterA + below;
        node[4 * id + 3] =
          below === Infinity
            ? Infinity
            : b[answer] + beforeB[next - from] - afterB + (atEnd ? 0 : node[4 * child + 3]);
        upKnown[id] = 1;
        continue;
      }
      const aboveA = node[4 * id];
      const aboveB = node[4 * id + 1];
      let leastA = Infinity;
      let leastB = Infinity;
      let count = 0;
      const stop = edges.start[id + 1];
      read += stop - edges.start[id];
      for (let e = edges.start[id]; e < stop; e++) {
        const at = edge[3 * e];
        const allowed = answer < 0 || at === answer;
        // Left out by the forward walk: no completion takes it, its child may be stale.
        if (!allowed && support[at] === 0) continue;
        const child = edge[3 * e + 1];
        const atEnd = child === end;
        const belowA = atEnd ? 0 : node[4 * child + 2];
        if (belowA === Infinity) continue;
        const next = edge[3 * e + 2];
        const edgeA = a[at] + beforeA[next - from] - afterA + belowA;
        const edgeB = b[at] + beforeB[next - from] - afterB + (atEnd ? 0 : node[4 * child + 3]);
        if (allowed) {
          if (edgeA < leastA) leastA = edgeA;
          if (edgeB < leastB) leastB = edgeB;
          // A reached node's allowed children are reached: their paths are counted (a path
          // exists wherever the least weight is finite). As segment-pass.ts counts them.
          if (reached) {
            const below = atEnd ? 1 : paths[child];
            count +=
              next > layer + 1
                ? below * Math.round(tail[layer + 1 - from] / tail[next - from])
                : below;
          }
        }
        if (!reached) continue;
        const totalA = aboveA + edgeA;
        const totalB = aboveB + edgeB;
        if (totalA < valuesA[at - offset]) valuesA[at - offset] = totalA;
        if (totalB < valuesB[at - offset]) valuesB[at - offset] = totalB;
        if (!allowed) continue;
        for (let skipped = layer + 1; skipped < next; skipped++) {
          const withoutA = totalA - freeA[skipped];
          const withoutB = totalB - freeB[skipped];
          if (withoutA < aroundA[skipped - from]) aroundA[skipped - from] = withoutA;
          if (withoutB < aroundB[skipped - from]) aroundB[skipped - from] = withoutB;
        }
      }
      if (reached) paths[id] = count;
      if (known) continue;
      upKnown[id] = 1;
      node[4 * id + 2] = leastA;
      node[4 * id + 3] = leastB;
    }
  }
  const bestA = node[4 * start + 2];
  const bestB = node[4 * start + 3];
  return { bestA, bestB, valuesA, valuesB, aroundA, aroundB, work: read };
}

/**
 * For layers an allowed edge skips: a value's least weight is also the least weight of a
 * path skipping its layer, without the layer's free part, plus the value's weight.
 */
function valuesOfSkipped(
  { valueBase }: LayeredDiagram,
  { fromLayer: from, toLayer: to }: SegmentSpan,
  [a, b]: Pair,
  { valuesA, valuesB, aroundA, aroundB }: Backward,
): void {
  const offset = valueBase[from];
  for (let layer = from; layer < to; layer++) {
    const restA = aroundA[layer - from];
    if (restA === Infinity) continue;
    const restB = aroundB[layer - from];
    for (let at = valueBase[layer]; at < valueBase[layer + 1]; at++) {
      if (restA + a[at] < valuesA[at - offset]) valuesA[at - offset] = restA + a[at];
      if (restB + b[at] < valuesB[at - offset]) valuesB[at - offset] = restB + b[at];
    }
  }
}
