import { FALSE, TRUE } from './mdd.js';

/**
 * The finite part as *nogoods*, the input of the decision-DNNF compiler (dnnf-compile.ts):
 * nogood i is the conjunction of `layer[j] ∈ mask[j]` for j in [start[i], start[i + 1]),
 * which no valid configuration satisfies (a clause, negated, over finite domains: value v
 * of a layer is bit v of a mask). Read off each part's own diagram (the forest the
 * fallback builds, fallback.ts): every path from the part's root to FALSE is one nogood,
 * its edges to one child grouped into one mask. A clause of k literals is one nogood of k
 * members, `required` one of one member.
 */
export interface Nogoods {
  readonly start: Int32Array;
  readonly layer: Int32Array;
  readonly mask: Int32Array;
}

/** The largest domain a mask holds (bit 30 is the last below the sign). */
export const MAX_NOGOOD_DOMAIN = 30;

/** A forest of part diagrams in flat arrays (ConsistencyForm's node arrays and partRoots). */
export interface PartForest {
  readonly domain: Int32Array;
  readonly nodeLayer: Int32Array;
  readonly kidStart: Int32Array;
  readonly kids: Int32Array;
  readonly partRoots: Int32Array;
}

/**
 * The nogoods of every part, or undefined when a layer's domain is wider than a mask or
 * the paths to FALSE hold more than `maxMembers` members together (a large table is
 * better left to the diagram).
 */
export function nogoodsOf(forest: PartForest, maxMembers: number): Nogoods | undefined {
  const { domain, nodeLayer, kidStart, kids, partRoots } = forest;
  for (const size of domain) if (size > MAX_NOGOOD_DOMAIN) return undefined;
  const start: number[] = [0];
  const layers: number[] = [];
  const masks: number[] = [];
  const pathLayer: number[] = [];
  const pathMask: number[] = [];
  /** Emits the current path plus one last member (skipped when it allows every value). */
  const emit = (layer: number, mask: number): boolean => {
    for (let i = 0; i < pathLayer.length; i++) {
      layers.push(pathLayer[i]);
      masks.push(pathMask[i]);
    }
    if (mask !== full(domain[layer])) {
      layers.push(layer);
      masks.push(mask);
    }
    start.push(layers.length);
    return layers.length <= maxMembers;
  };
  // Depth-first over (node, the path's length when entered), an explicit stack: a
  // clause's chain is as deep as the clause is long.
  const walk = (root: number): boolean => {
    if (root === TRUE) return true;
    if (root === FALSE) {
      start.push(layers.length); // the empty nogood: the part alone has no solution
      return true;
    }
    const stack: number[] = [root, 0, -1, 0];
    while (stack.length > 0) {
      const mask = stack.pop() as number;
      const layerIn = stack.pop() as number;
      const depth = stack.pop() as number;
      const node = stack.pop() as number;
      pathLayer.length = depth;
      pathMask.length = depth;
      if (layerIn >= 0) {
        pathLayer.push(layerIn);
        pathMask.push(mask);
      }
      const layer = nodeLayer[node];
      const first = kidStart[node];
      const byChild = new Map<number, number>();
      for (let v = 0; v < domain[layer]; v++) {
        const child = kids[first + v];
        byChild.set(child, (byChild.get(child) ?? 0) | (1 << v));
      }
      for (const [child, childMask] of byChild) {
        if (child === TRUE) continue;
        if (child === FALSE) {
          if (!emit(layer, childMask)) return false;
          continue;
        }
        // A member allowing every value of its layer constrains nothing: left out.
        const member = childMask === full(domain[layer]) ? -1 : layer;
        stack.push(child, pathLayer.length, member, childMask);
      }
    }
    return true;
  };
  for (const root of partRoots) if (!walk(root)) return undefined;
  return {
    start: Int32Array.from(start),
    layer: Int32Array.from(layers),
    mask: Int32Array.from(masks),
  };
}

/** The mask of every value of a domain of `size` values. */
export function full(size: number): number {
  return size >= 31 ? -1 : (1 << size) - 1;
}
