import { type LiveEdges, liveEdges, liveEdgesBytes } from './live-edges.js';
import { TRUE } from './mdd.js';
import type { SegmentSpan } from './segments.js';
import type { LayeredDiagram } from './weighted.js';

/**
 * Node-sized arrays of one diagram and weight pair, reused by every pass (no per-click
 * allocation). They also carry the backward weights from one pass to the next: a node's
 * depends only on the restrictions of its layer and those below, so after a click that
 * changes one answer the nodes below its layer keep theirs (`upKnown`).
 */
export interface PairScratch {
  readonly edges: LiveEdges;
  /**
   * Per node four numbers side by side (one memory line): at `4 id` and `4 id + 1` the least
   * weights from the start (first and second weight), at `4 id + 2` and `4 id + 3` the least
   * weights to the end (Infinity: none).
   */
  readonly weights: Float64Array;
  /**
   * Per reached node: its paths to the end under the restrictions (a double, exact below
   * 2^52 as in segment-pass.ts), counted by the backward walk over its allowed edges.
   */
  readonly paths: Float64Array;
  /** Per layer of a span and its end: the product of the allowed values of the layers from it on. */
  readonly tail: Float64Array;
  /** Per node: UNTOUCHED, NEEDED (its backward weight is read) or REACHED (also from the start). */
  readonly state: Uint8Array;
  /** Per node: 1 when its weights to the end are those under `lastFixed`'s restrictions. */
  readonly upKnown: Uint8Array;
  /** Per layer: the restriction of the last pass over the layer's span. */
  readonly lastFixed: Int32Array;
  /** Per layer (and the layer count): its first node id. */
  readonly layerStart: Int32Array;
  /**
   * The walks' worklist: the touched nodes of layer l are `touched[layerStart[l] …
   * layerStart[l] + filled[l])` (a layer touches at most its own nodes). Empty between passes.
   */
  readonly touched: Int32Array;
  readonly filled: Int32Array;
  /** Per value (flat): 1, the support of a pass given none. */
  readonly everyValue: Uint8Array;
}

/** Node states of a walk (pair-pass.ts). */
export const UNTOUCHED = 0;
export const NEEDED = 1;
export const REACHED = 2;

export function newPairScratch(diagram: LayeredDiagram): PairScratch {
  const { nodeLayer, domain } = diagram;
  const count = nodeLayer.length;
  const layers = domain.length;
  const layerStart = new Int32Array(layers + 1).fill(count);
  for (let id = count - 1; id > TRUE; id--) layerStart[nodeLayer[id]] = id;
  for (let layer = layers - 1; layer >= 0; layer--)
    layerStart[layer] = Math.min(layerStart[layer], layerStart[layer + 1]);
  return {
    edges: liveEdges(diagram),
    weights: new Float64Array(4 * count),
    paths: new Float64Array(count),
    tail: new Float64Array(layers + 1),
    state: new Uint8Array(count),
    upKnown: new Uint8Array(count),
    lastFixed: new Int32Array(layers).fill(-2),
    layerStart,
    touched: new Int32Array(count),
    filled: new Int32Array(layers),
    everyValue: new Uint8Array(diagram.valueBase[layers]).fill(1),
  };
}

/** Bytes of `newPairScratch`'s arrays, at `array(bytes)` per typed array. */
export function pairScratchBytes(
  diagram: LayeredDiagram,
  array: (bytes: number) => number,
): number {
  const nodes = diagram.nodeLayer.length;
  const layers = diagram.domain.length;
  return (
    liveEdgesBytes(diagram, array) +
    array(32 * nodes) +
    array(8 * nodes) +
    array(8 * (layers + 1)) +
    2 * array(nodes) +
    array(4 * nodes) +
    2 * array(4 * layers) +
    array(4 * (layers + 1)) +
    array(diagram.valueBase[layers])
  );
}

/**
 * Forgets the backward weights of the span's nodes down to the deepest layer whose
 * restriction changed since the span's last pass; the nodes below keep theirs.
 */
export function keepKnownUp(
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

/** Every touched node back to UNTOUCHED and the worklist empty (also after a stopped walk). */
export function clearWorklist(
  { fromLayer: from, toLayer: to }: SegmentSpan,
  { state, touched, filled, layerStart }: PairScratch,
): void {
  for (let layer = from; layer < to; layer++) {
    for (let i = layerStart[layer], end = i + filled[layer]; i < end; i++)
      state[touched[i]] = UNTOUCHED;
    filled[layer] = 0;
  }
}
