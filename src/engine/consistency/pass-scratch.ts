import type { ConsistencyForm } from './form.js';
import { TRUE } from './mdd.js';
import type { Segments } from './segments.js';

/**
 * Per form: node- and layer-sized scratch arrays, so that a pass allocates nothing (a
 * model of thousands of questions has thousands of small segments). One pass at a
 * time: a pass (and bigCount right after it) runs to its end synchronously — an
 * evaluation in slices pauses only between its steps, never inside a query.
 *
 * Counts are kept between passes while they stay valid. A node's count depends only on
 * the restrictions of its own layer and those below it: it is valid when it was made
 * (`stamp`, or its whole layer in `layerCounted`) at or after the last change of any of
 * those (`validFrom`, from `changedAt`). A click changes one answer, a pick a few: the
 * layers below the deepest change keep every count.
 */
export interface PassScratch {
  readonly segments: Segments;
  /** Per node: paths to its segment's end node (valid as said above). */
  readonly count: Float64Array;
  /** Per node: the pass that last counted it alone (segment-walk.ts); 0: never. */
  readonly stamp: Int32Array;
  /** Per node: reached from the start node (zero between passes). */
  readonly reach: Uint8Array;
  /** The reached nodes of a walk (segment-walk.ts), in the order reached. */
  readonly reached: Int32Array;
  /** A walk's depth-first frames, one per layer at most: node, next value, sum so far. */
  readonly frameNode: Int32Array;
  readonly frameValue: Int32Array;
  readonly frameSum: Float64Array;
  /** Per layer: allowed values of the layers from it to its segment's end (a product). */
  readonly tail: Float64Array;
  /** Per layer: difference array of free stretches, zero between passes. */
  readonly free: Int32Array;
  /** Per layer: the restriction of the last pass over it (-2: none yet). */
  readonly lastFixed: Int32Array;
  /** Per layer: the pass its restriction last changed in. */
  readonly changedAt: Int32Array;
  /** Per layer, this pass: the latest change at it or below (in its segment). */
  readonly validFrom: Int32Array;
  /** Per layer: the pass that last counted every node on it (a scan). */
  readonly layerCounted: Int32Array;
  /** Per layer: the first node on it or below it (ids ascend by layer); then the node count. */
  readonly firstNode: Int32Array;
  /** The walk's budget, as a share of what a scan would examine (passSegment). */
  readonly walkShare: number;
  /** Passes made so far ([0]); a pass's number stamps what it counts. */
  readonly passes: Int32Array;
}

/**
 * The walk's budget, a share of what the scan would examine (the edges above the deepest
 * layer with a count to remake, and a look at every node for reach): measured on the
 * 268-question car's clicks and picks (docs/adr/0218).
 */
const WALK_SHARE = 0.05;

/** The form's scratch arrays, made once by its prepared form (prepared.ts). */
export function newPassScratch(
  form: ConsistencyForm,
  segments: Segments,
  walkShare = WALK_SHARE,
): PassScratch {
  const size = form.nodeLayer.length;
  const layers = form.domain.length;
  const firstNode = new Int32Array(layers + 1).fill(size);
  for (let id = size - 1; id > TRUE; id--) firstNode[form.nodeLayer[id]] = id;
  for (let layer = layers - 1; layer >= 0; layer--)
    firstNode[layer] = Math.min(firstNode[layer], firstNode[layer + 1]);
  const scratch: PassScratch = {
    segments,
    count: new Float64Array(size),
    stamp: new Int32Array(size),
    reach: new Uint8Array(size),
    reached: new Int32Array(size),
    frameNode: new Int32Array(layers + 1),
    frameValue: new Int32Array(layers + 1),
    frameSum: new Float64Array(layers + 1),
    tail: new Float64Array(layers + 1),
    free: new Int32Array(layers + 1),
    lastFixed: new Int32Array(layers).fill(-2),
    changedAt: new Int32Array(layers),
    validFrom: new Int32Array(layers + 1),
    layerCounted: new Int32Array(layers),
    firstNode,
    walkShare,
    passes: new Int32Array(1),
  };
  scratch.count[TRUE] = 1;
  return scratch;
}

/** Every layer inside a free stretch of an allowed, alive edge supports all its values. */
export function closeStretches(
  form: ConsistencyForm,
  scratch: PassScratch,
  from: number,
  to: number,
  supported: Uint8Array,
): void {
  const { valueBase } = form;
  const { free } = scratch;
  for (let layer = from, open = 0; layer < to; layer++) {
    open += free[layer];
    free[layer] = 0;
    if (open > 0) supported.fill(1, valueBase[layer], valueBase[layer + 1]);
  }
  free[to] = 0; // every stretch ends by `to`: the array is zero again
}
