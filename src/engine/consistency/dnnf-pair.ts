import { AND } from './dnnf-form.js';
import type { PreparedCircuit } from './dnnf-weighted.js';

/**
 * `circuitMinPass` and `circuitValueMins` (dnnf-weighted.ts) for two weights in one walk
 * each way (price bounds: the least and the negated greatest weights). Which nodes have a
 * solution, and which a context, depends on the restrictions alone, not on the weights, so
 * both share every branch of the walk; the kids are read once for both.
 */
export interface PairMins {
  readonly bestA: number;
  readonly bestB: number;
  /** Per value (flat): the least weight through it, its own layer's restriction left out. */
  readonly throughA: Float64Array;
  readonly throughB: Float64Array;
}

/** Node-sized arrays reused from one call to the next. */
export interface PairScratch {
  readonly upA: Float64Array;
  readonly upB: Float64Array;
  readonly downA: Float64Array;
  readonly downB: Float64Array;
}

const FALSE = 0;
const TRUE = 1;

/** Per layer its least allowed weight (only the unmentioned layers' are read). */
function leastAllowed(
  prepared: PreparedCircuit,
  weight: Float64Array,
  fixed: Int32Array,
  layer: number,
): number {
  const { domain, valueBase } = prepared.circuit;
  const f = fixed[layer];
  let best = Infinity;
  for (let v = f >= 0 ? f : 0, hi = f >= 0 ? f + 1 : domain[layer]; v < hi; v++)
    best = Math.min(best, weight[valueBase[layer] + v]);
  return best;
}

export function circuitPairMins(
  prepared: PreparedCircuit,
  a: Float64Array,
  b: Float64Array,
  fixed: Int32Array,
  { upA, upB, downA, downB }: PairScratch,
): PairMins {
  const { circuit, unmentioned } = prepared;
  const { domain, valueBase, nodeLayer, kidStart, kids, root } = circuit;
  const throughA = new Float64Array(valueBase[domain.length]).fill(Infinity);
  const throughB = new Float64Array(valueBase[domain.length]).fill(Infinity);
  if (root === FALSE) return { bestA: Infinity, bestB: Infinity, throughA, throughB };
  let freeA = 0;
  let freeB = 0;
  for (const layer of unmentioned) {
    freeA += leastAllowed(prepared, a, fixed, layer);
    freeB += leastAllowed(prepared, b, fixed, layer);
  }
  upA[FALSE] = Infinity;
  upB[FALSE] = Infinity;
  upA[TRUE] = 0;
  upB[TRUE] = 0;
  for (let n = TRUE + 1; n <= root; n++) {
    const layer = nodeLayer[n];
    const first = kidStart[n];
    const last = kidStart[n + 1];
    let totalA = 0;
    let totalB = 0;
    if (layer === AND) {
      for (let k = first; k < last; k++) {
        totalA += upA[kids[k]];
        totalB += upB[kids[k]];
      }
    } else {
      totalA = Infinity;
      totalB = Infinity;
      const f = fixed[layer];
      const base = valueBase[layer];
      for (let v = f >= 0 ? f : 0, hi = f >= 0 ? f + 1 : last - first; v < hi; v++) {
        const kid = kids[first + v];
        if (upA[kid] === Infinity) continue;
        totalA = Math.min(totalA, a[base + v] + upA[kid]);
        totalB = Math.min(totalB, b[base + v] + upB[kid]);
      }
    }
    upA[n] = totalA;
    upB[n] = totalB;
  }
  const bestA = upA[root] + freeA;
  const bestB = upB[root] + freeB;
  for (const layer of unmentioned) {
    if (bestA === Infinity) break;
    const ownA = leastAllowed(prepared, a, fixed, layer);
    const ownB = leastAllowed(prepared, b, fixed, layer);
    for (let at = valueBase[layer]; at < valueBase[layer + 1]; at++) {
      throughA[at] = bestA - ownA + a[at];
      throughB[at] = bestB - ownB + b[at];
    }
  }
  if (root === TRUE) return { bestA, bestB, throughA, throughB };
  downA.fill(Infinity, 0, root + 1);
  downB.fill(Infinity, 0, root + 1);
  downA[root] = freeA;
  downB[root] = freeB;
  for (let n = root; n > TRUE; n--) {
    const contextA = downA[n];
    if (contextA === Infinity) continue;
    const contextB = downB[n];
    const layer = nodeLayer[n];
    const first = kidStart[n];
    const last = kidStart[n + 1];
    if (layer === AND) {
      let finiteA = 0;
      let finiteB = 0;
      let missing = 0;
      for (let k = first; k < last; k++) {
        const kid = kids[k];
        if (upA[kid] === Infinity) missing++;
        else {
          finiteA += upA[kid];
          finiteB += upB[kid];
        }
      }
      if (missing > 1) continue;
      for (let k = first; k < last; k++) {
        const kid = kids[k];
        const solved = upA[kid] !== Infinity;
        if (missing === 1 && solved) continue;
        const aroundA = contextA + (solved ? finiteA - upA[kid] : finiteA);
        const aroundB = contextB + (solved ? finiteB - upB[kid] : finiteB);
        if (aroundA < downA[kid]) downA[kid] = aroundA;
        if (aroundB < downB[kid]) downB[kid] = aroundB;
      }
      continue;
    }
    const f = fixed[layer];
    const base = valueBase[layer];
    for (let k = first; k < last; k++) {
      const kid = kids[k];
      if (kid === FALSE) continue;
      const v = k - first;
      const totalA = contextA + a[base + v];
      const totalB = contextB + b[base + v];
      if (upA[kid] !== Infinity) {
        if (totalA + upA[kid] < throughA[base + v]) throughA[base + v] = totalA + upA[kid];
        if (totalB + upB[kid] < throughB[base + v]) throughB[base + v] = totalB + upB[kid];
      }
      if (f >= 0 && f !== v) continue;
      if (totalA < downA[kid]) downA[kid] = totalA;
      if (totalB < downB[kid]) downB[kid] = totalB;
    }
  }
  return { bestA, bestB, throughA, throughB };
}
