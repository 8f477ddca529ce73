import { freeProduct } from './count.js';
import type { ConsistencyForm } from './form.js';
import { FALSE, TRUE } from './mdd.js';
import { segmentsOf } from './segments.js';

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
  /** Paths through the segment (exact: a BigInt past 2^53). */
  readonly count: number | bigint;
}

const SAFE = Number.MAX_SAFE_INTEGER;

/** Per form: node-sized scratch arrays (evaluation is synchronous, one pass at a time). */
const scratches = new WeakMap<ConsistencyForm, { count: Float64Array; reach: Uint8Array }>();

function scratchOf(form: ConsistencyForm): { count: Float64Array; reach: Uint8Array } {
  let scratch = scratches.get(form);
  if (scratch === undefined) {
    const size = form.nodeLayer.length;
    scratch = { count: new Float64Array(size), reach: new Uint8Array(size) };
    scratch.count[TRUE] = 1;
    scratches.set(form, scratch);
  }
  return scratch;
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
): SegmentResult {
  const { nodeLayer, kidStart, kids, domain, valueBase } = form;
  const segments = segmentsOf(form);
  const from = segments.fromLayer[s];
  const to = segments.toLayer[s];
  const start = segments.startNode[s];
  const end = segments.endNode[s];
  const hi = end === TRUE ? nodeLayer.length : end;
  const { count, reach } = scratchOf(form);
  count[end] = 1;
  // Allowed values of the layers [layer, to): a stretch's product is a quotient of two.
  const tail = new Float64Array(to - from + 1);
  tail[to - from] = 1;
  for (let layer = to - 1; layer >= from; layer--)
    tail[layer - from] = tail[layer - from + 1] * (fixed[layer] >= 0 ? 1 : domain[layer]);
  let exact = tail[0] <= SAFE;
  const nextLayer = (child: number): number => (child === end ? to : nodeLayer[child]);
  for (let id = hi - 1; id >= start; id--) {
    const layer = nodeLayer[id];
    const first = kidStart[id];
    const f = fixed[layer];
    let total = 0;
    for (let v = f >= 0 ? f : 0, last = f >= 0 ? f + 1 : domain[layer]; v < last; v++) {
      const child = kids[first + v];
      const below = child === FALSE ? 0 : count[child];
      if (below === 0) continue;
      const next = nextLayer(child);
      total += next > layer + 1 ? below * (tail[layer + 1 - from] / tail[next - from]) : below;
    }
    if (total > SAFE) exact = false;
    count[id] = total;
  }
  const consistent = count[start] > 0;
  reach.fill(0, start, hi);
  reach[start] = 1;
  const free = new Int32Array(to - from + 1); // difference array: free stretches
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
      const next = nextLayer(child);
      if (next > layer + 1) {
        free[layer + 1 - from]++;
        free[next - from]--;
      }
    }
  }
  for (let layer = from, open = 0; layer < to; layer++) {
    open += free[layer - from];
    if (open > 0) supported.fill(1, valueBase[layer], valueBase[layer + 1]);
  }
  if (!consistent) return { consistent, count: 0 };
  return { consistent, count: exact ? count[start] : bigCount(form, fixed, s) };
}

/** The segment's path count in BigInt: when a count in it passes 2^53. */
function bigCount(form: ConsistencyForm, fixed: Int32Array, s: number): bigint {
  const { nodeLayer, kidStart, kids, domain } = form;
  const segments = segmentsOf(form);
  const to = segments.toLayer[s];
  const start = segments.startNode[s];
  const end = segments.endNode[s];
  const hi = end === TRUE ? nodeLayer.length : end;
  const count = new Map<number, bigint>([[end, 1n]]);
  for (let id = hi - 1; id >= start; id--) {
    const layer = nodeLayer[id];
    const first = kidStart[id];
    const f = fixed[layer];
    let total = 0n;
    for (let v = f >= 0 ? f : 0, last = f >= 0 ? f + 1 : domain[layer]; v < last; v++) {
      const child = kids[first + v];
      const below = child === FALSE ? 0n : (count.get(child) ?? 0n);
      if (below === 0n) continue;
      const next = child === end ? to : nodeLayer[child];
      total += next > layer + 1 ? below * BigInt(freeProduct(form, fixed, layer + 1, next)) : below;
    }
    count.set(id, total);
  }
  return count.get(start) ?? 0n;
}
