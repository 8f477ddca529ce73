import { FALSE, TRUE } from './mdd.js';
import type { LayeredDiagram } from './weighted.js';

/**
 * What the nearest-configuration search (nearest-search.ts) and pass (nearest-pass.ts)
 * share: the stretch they read and their query, the stretch's restrictions as both read
 * them, sets of changed positions, and the search's heuristic, the least price below each
 * node with no restriction (one backward pass).
 */

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

/** No changed position (shared, so that equal empty sets compare by identity). */
export const EMPTY: readonly number[] = [];

/** `set` (ascending positions) with `position` added. */
export function withPosition(set: readonly number[], position: number): readonly number[] {
  const result = new Array<number>(set.length + 1);
  let i = 0;
  for (; i < set.length && set[i] < position; i++) result[i] = set[i];
  result[i] = position;
  for (; i < set.length; i++) result[i + 1] = set[i];
  return result;
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

/** A stretch's restrictions as the searches read them. */
export interface Stretch {
  /**
   * Per layer of the stretch (from its first): the value a layer takes when an edge skips
   * it, its forced value, else its target, else its cheapest: never a change.
   */
  readonly skipValue: Int32Array;
  /** `skipBefore[l - fromLayer]`: the prices of `skipValue` summed over the layers before l. */
  readonly skipBefore: Float64Array;
  /** The last layer with a target or a forced value (fromLayer - 1: none). */
  readonly deepest: number;
}

export function stretchOf(
  diagram: LayeredDiagram,
  query: {
    readonly target: Int32Array;
    readonly fixed: Int32Array;
    readonly price: Float64Array | undefined;
  },
  span: { readonly fromLayer: number; readonly toLayer: number },
): Stretch {
  const { domain, valueBase } = diagram;
  const { target, fixed, price } = query;
  const { fromLayer, toLayer } = span;
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
  return { skipValue, skipBefore, deepest };
}

/** The first node id in [from, to) of a layer after `layer` (ids ascend by layer), else `to`. */
export function firstNodeAfter(
  diagram: LayeredDiagram,
  layer: number,
  from: number,
  to: number,
): number {
  const { nodeLayer } = diagram;
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (nodeLayer[mid] > layer) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
