import { FALSE, TRUE } from './mdd.js';
import type { SegmentSpan } from './segments.js';
import type { LayeredDiagram } from './weighted.js';

/**
 * The (min, +) passes of weighted.ts for two weights at once (price bounds: the least
 * and the negated greatest weights) over one stretch of a diagram that every valid path
 * crosses (a segment, segments.ts): which nodes a path reaches does not depend on the
 * weights, so both share one walk over the edges.
 *
 * Only the nodes a result reads are visited. The forward pass reaches nodes from the
 * start under the restrictions; the per-value pass then reads the backward weight of every
 * child of a reached node (its own layer's restriction left out: "the answers minus
 * itself"), and those children's allowed descendants are needed too. After a few answers
 * that is a fraction of the diagram, where a full backward pass read every node.
 */

/**
 * Node-sized arrays of one diagram and weight pair, reused by every pass (no per-click
 * allocation). They also carry the backward weights from one pass to the next: a node's
 * depends only on the restrictions of its layer and those below, so after a click that
 * changes one answer the nodes below its layer keep theirs (`upKnown`).
 */
export interface PairScratch {
  readonly downA: Float64Array;
  readonly downB: Float64Array;
  readonly upA: Float64Array;
  readonly upB: Float64Array;
  /** Per node: UNTOUCHED, NEEDED (its backward weight is read) or REACHED (also from the start). */
  readonly state: Uint8Array;
  /** Per node: 1 when upA/upB hold its weights under `lastFixed`'s restrictions. */
  readonly upKnown: Uint8Array;
  /** Per layer: the restriction of the last pass over the layer's span. */
  readonly lastFixed: Int32Array;
  /** Per layer (and the layer count): its first node id. */
  readonly layerStart: Int32Array;
}

const UNTOUCHED = 0;
const NEEDED = 1;
const REACHED = 2;

export function newPairScratch(diagram: LayeredDiagram): PairScratch {
  const { nodeLayer, domain } = diagram;
  const count = nodeLayer.length;
  const layers = domain.length;
  const layerStart = new Int32Array(layers + 1).fill(count);
  for (let id = count - 1; id > TRUE; id--) layerStart[nodeLayer[id]] = id;
  for (let layer = layers - 1; layer >= 0; layer--)
    layerStart[layer] = Math.min(layerStart[layer], layerStart[layer + 1]);
  return {
    downA: new Float64Array(count),
    downB: new Float64Array(count),
    upA: new Float64Array(count),
    upB: new Float64Array(count),
    state: new Uint8Array(count),
    upKnown: new Uint8Array(count),
    lastFixed: new Int32Array(layers).fill(-2),
    layerStart,
  };
}

/**
 * Forgets the backward weights of the span's nodes down to the deepest layer whose
 * restriction changed since the span's last pass; the nodes below keep theirs.
 */
function keepKnownUp(
  { fromLayer: from, toLayer: to, start }: SegmentSpan,
  fixed: Int32Array,
  scratch: PairScratch,
): void {
  const { lastFixed, upKnown, layerStart } = scratch;
  let deepest = to - 1;
  while (deepest >= from && fixed[deepest] === lastFixed[deepest]) deepest--;
  if (deepest < from) return;
  upKnown.fill(0, start, Math.max(start, layerStart[deepest + 1]));
  for (let layer = from; layer <= deepest; layer++) lastFixed[layer] = fixed[layer];
}

/** One span's result for each weight. */
export interface PairResult {
  /** The least weight from the start node to the end node (Infinity: no path). */
  readonly bestA: number;
  readonly bestB: number;
  /** Per value of the span's layers (from valueBase[from]): the least weight start → end through it. */
  readonly valuesA: Float64Array;
  readonly valuesB: Float64Array;
}

/**
 * The passes over `span` under `fixed` (a value per layer, or -1 free). `freeA`/`freeB`:
 * per layer the least allowed weight, what an edge skipping the layer adds.
 */
export function pairPass(
  diagram: LayeredDiagram,
  span: SegmentSpan,
  weights: readonly [Float64Array, Float64Array],
  free: readonly [Float64Array, Float64Array],
  fixed: Int32Array,
  scratch: PairScratch,
): PairResult {
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
  keepKnownUp(span, fixed, scratch);
  forward(diagram, span, weights, before, fixed, scratch);
  backward(diagram, span, weights, before, fixed, scratch);
  return throughValues(diagram, span, weights, free, before, fixed, scratch);
}

type Pair = readonly [Float64Array, Float64Array];

/** Least weights from the start to each reached node; marks the nodes whose backward weight is read. */
function forward(
  { domain, valueBase, nodeLayer, kidStart, kids }: LayeredDiagram,
  { fromLayer: from, start, end }: SegmentSpan,
  [a, b]: Pair,
  [beforeA, beforeB]: Pair,
  fixed: Int32Array,
  { downA, downB, state, upKnown }: PairScratch,
): void {
  const last = end === TRUE ? nodeLayer.length : end;
  state.fill(UNTOUCHED, start, last);
  state[start] = REACHED;
  downA[start] = 0;
  downB[start] = 0;
  for (let id = start; id < last; id++) {
    const mark = state[id];
    if (mark === UNTOUCHED) continue;
    const layer = nodeLayer[id];
    const f = fixed[layer];
    const first = kidStart[id];
    if (mark === NEEDED) {
      // A known backward weight needs none of the children's.
      if (upKnown[id] === 1) continue;
      for (let v = f >= 0 ? f : 0, hi = f >= 0 ? f + 1 : domain[layer]; v < hi; v++) {
        const child = kids[first + v];
        if (child !== FALSE && child !== end && state[child] === UNTOUCHED) state[child] = NEEDED;
      }
      continue;
    }
    const aboveA = downA[id];
    const aboveB = downB[id];
    const base = valueBase[layer];
    const afterA = beforeA[layer + 1 - from];
    const afterB = beforeB[layer + 1 - from];
    for (let v = 0, size = domain[layer]; v < size; v++) {
      const child = kids[first + v];
      if (child === FALSE || child === end) continue;
      if (f >= 0 && v !== f) {
        if (state[child] === UNTOUCHED) state[child] = NEEDED;
        continue;
      }
      const next = nodeLayer[child] - from;
      const totalA = aboveA + a[base + v] + beforeA[next] - afterA;
      const totalB = aboveB + b[base + v] + beforeB[next] - afterB;
      if (state[child] !== REACHED) {
        state[child] = REACHED;
        downA[child] = totalA;
        downB[child] = totalB;
        continue;
      }
      if (totalA < downA[child]) downA[child] = totalA;
      if (totalB < downB[child]) downB[child] = totalB;
    }
  }
}

/** Least weights from each needed node to the end node (Infinity: none), where not known. */
function backward(
  { domain, valueBase, nodeLayer, kidStart, kids }: LayeredDiagram,
  { fromLayer: from, toLayer: to, start, end }: SegmentSpan,
  [a, b]: Pair,
  [beforeA, beforeB]: Pair,
  fixed: Int32Array,
  { upA, upB, state, upKnown }: PairScratch,
): void {
  const last = end === TRUE ? nodeLayer.length : end;
  for (let id = last - 1; id >= start; id--) {
    if (state[id] === UNTOUCHED || upKnown[id] === 1) continue;
    upKnown[id] = 1;
    const layer = nodeLayer[id];
    const f = fixed[layer];
    const first = kidStart[id];
    const base = valueBase[layer];
    const afterA = beforeA[layer + 1 - from];
    const afterB = beforeB[layer + 1 - from];
    let leastA = Infinity;
    let leastB = Infinity;
    for (let v = f >= 0 ? f : 0, hi = f >= 0 ? f + 1 : domain[layer]; v < hi; v++) {
      const child = kids[first + v];
      if (child === FALSE) continue;
      const atEnd = child === end;
      const belowA = atEnd ? 0 : upA[child];
      if (belowA === Infinity) continue;
      const next = (atEnd ? to : nodeLayer[child]) - from;
      const totalA = a[base + v] + beforeA[next] - afterA + belowA;
      const totalB = b[base + v] + beforeB[next] - afterB + (atEnd ? 0 : upB[child]);
      if (totalA < leastA) leastA = totalA;
      if (totalB < leastB) leastB = totalB;
    }
    upA[id] = leastA;
    upB[id] = leastB;
  }
}

/**
 * Per value the least weight of a start → end path through it: over the edges of reached
 * nodes (every value, the layer's own restriction left out), and for layers an allowed
 * edge skips, the path's weight without the layer's free part plus the value's weight.
 */
function throughValues(
  { domain, valueBase, nodeLayer, kidStart, kids }: LayeredDiagram,
  { fromLayer: from, toLayer: to, start, end }: SegmentSpan,
  [a, b]: Pair,
  [freeA, freeB]: Pair,
  [beforeA, beforeB]: Pair,
  fixed: Int32Array,
  { downA, downB, upA, upB, state }: PairScratch,
): PairResult {
  const last = end === TRUE ? nodeLayer.length : end;
  const offset = valueBase[from];
  const valuesA = new Float64Array(valueBase[to] - offset).fill(Infinity);
  const valuesB = new Float64Array(valueBase[to] - offset).fill(Infinity);
  const aroundA = new Float64Array(to - from).fill(Infinity);
  const aroundB = new Float64Array(to - from).fill(Infinity);
  for (let id = start; id < last; id++) {
    if (state[id] !== REACHED) continue;
    const aboveA = downA[id];
    const aboveB = downB[id];
    const layer = nodeLayer[id];
    const first = kidStart[id];
    const base = valueBase[layer];
    const at = base - offset;
    const afterA = beforeA[layer + 1 - from];
    const afterB = beforeB[layer + 1 - from];
    const allowed = fixed[layer];
    for (let v = 0, size = domain[layer]; v < size; v++) {
      const child = kids[first + v];
      if (child === FALSE) continue;
      const atEnd = child === end;
      const belowA = atEnd ? 0 : upA[child];
      if (belowA === Infinity) continue;
      const next = atEnd ? to : nodeLayer[child];
      const totalA = aboveA + a[base + v] + beforeA[next - from] - afterA + belowA;
      const totalB =
        aboveB + b[base + v] + beforeB[next - from] - afterB + (atEnd ? 0 : upB[child]);
      if (totalA < valuesA[at + v]) valuesA[at + v] = totalA;
      if (totalB < valuesB[at + v]) valuesB[at + v] = totalB;
      if (next === layer + 1 || (allowed >= 0 && v !== allowed)) continue;
      for (let skipped = layer + 1; skipped < next; skipped++) {
        const withoutA = totalA - freeA[skipped];
        const withoutB = totalB - freeB[skipped];
        if (withoutA < aroundA[skipped - from]) aroundA[skipped - from] = withoutA;
        if (withoutB < aroundB[skipped - from]) aroundB[skipped - from] = withoutB;
      }
    }
  }
  for (let layer = from; layer < to; layer++) {
    const restA = aroundA[layer - from];
    if (restA === Infinity) continue;
    const restB = aroundB[layer - from];
    for (let at = valueBase[layer]; at < valueBase[layer + 1]; at++) {
      if (restA + a[at] < valuesA[at - offset]) valuesA[at - offset] = restA + a[at];
      if (restB + b[at] < valuesB[at - offset]) valuesB[at - offset] = restB + b[at];
    }
  }
  const bestA = state[start] === REACHED ? upA[start] : Infinity;
  const bestB = state[start] === REACHED ? upB[start] : Infinity;
  return { bestA, bestB, valuesA, valuesB };
}
