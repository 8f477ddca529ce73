import { derived } from '../derived.js';
import { AND } from './dnnf-form.js';
import type { PreparedCircuit } from './dnnf-weighted.js';
import type { Nearest, NearestQuery } from './nearest.js';
import { compareSets } from './nearest-labels.js';
import { withPosition } from './nearest-stretch.js';

/**
 * The nearest valid configuration over a decision-DNNF in one bottom-up pass in the
 * lexicographic semiring of the contract's key (docs/model-format.md "Guided
 * configuration"): per node, the least (changes, the changed targets' positions in
 * `order`, price) of its solutions under the forced values, as nearest-pass.ts does per
 * diagram node. The key is additive over a conjunction (its kids share no layer, so their
 * changed positions are disjoint: the union of the sets) and a decision takes its least
 * value; the positions compare as the binary number whose earliest answer is the most
 * significant bit (nearest-labels.ts `compareSets`), so ties keep the earlier answers,
 * then the lower price. Then a walk down along each decision's chosen value.
 *
 * Sets are shared between nodes and made only where a change is added or two kids'
 * changes meet; most nodes hold the empty set.
 */
const FALSE = 0;
const TRUE = 1;
const NONE = -1;
const EMPTY: readonly number[] = [];

/** Per node its least key (changes NONE: no solution) and, on a decision, its value. */
interface Keys {
  readonly changes: Int32Array;
  readonly cost: Float64Array;
  readonly sets: Array<readonly number[]>;
  readonly choice: Int32Array;
}

const KEYS = Symbol('nearest keys');

/**
 * Node-sized arrays reused by every resolution on the form (evaluation is synchronous);
 * counted in the cache's byte bound with the DNNF's query scratch (dnnfScratchBytes).
 */
function keysOf(prepared: PreparedCircuit): Keys {
  const count = Math.max(prepared.circuit.root + 1, 2);
  return derived(prepared, KEYS, () => ({
    changes: new Int32Array(count),
    cost: new Float64Array(count),
    sets: new Array<readonly number[]>(count).fill(EMPTY),
    choice: new Int32Array(count),
  }));
}

export function circuitNearest(prepared: PreparedCircuit, query: NearestQuery): Nearest {
  const { circuit, unmentioned } = prepared;
  const { domain, valueBase, nodeLayer, kidStart, kids, root } = circuit;
  const { target, fixed } = query;
  const layers = domain.length;
  const price = query.price ?? new Float64Array(valueBase[layers]);
  const position = new Int32Array(layers).fill(-1);
  query.order.forEach((layer, i) => (position[layer] = i));
  // Every node up to the root is written below before it is read; FALSE and TRUE here.
  const { changes, cost, sets, choice } = keysOf(prepared);
  changes[FALSE] = NONE;
  changes[TRUE] = 0;
  cost[TRUE] = 0;
  sets[TRUE] = EMPTY;
  const path = new Int32Array(layers);
  // Layers no node mentions: each on its own, its least (change, price) value; the same
  // whatever the rest takes, so it adds its change (if any) and leaves the choice alone.
  let freeChanges = 0;
  for (const layer of unmentioned) {
    const best = leastValue(layer, query, price, valueBase, domain[layer]);
    path[layer] = best;
    if (target[layer] >= 0 && best !== target[layer]) freeChanges++;
  }
  const examined = root > TRUE ? kids.length : 0;
  if (root === FALSE) return { path: undefined, changes: 0, tiesBroken: true, examined };
  for (let n = TRUE + 1; n <= root; n++) {
    const layer = nodeLayer[n];
    const first = kidStart[n];
    const last = kidStart[n + 1];
    if (layer === AND) {
      let total = 0;
      let spent = 0;
      let set = EMPTY;
      for (let k = first; k < last && total !== NONE; k++) {
        const kid = kids[k];
        if (changes[kid] === NONE) total = NONE;
        else {
          total += changes[kid];
          spent += cost[kid];
          set = union(set, sets[kid]);
        }
      }
      changes[n] = total;
      cost[n] = spent;
      sets[n] = total === NONE ? EMPTY : set;
      continue;
    }
    let bestChanges = NONE;
    let bestSet = EMPTY;
    let bestCost = 0;
    let bestValue = -1;
    const f = fixed[layer];
    const base = valueBase[layer];
    const own = target[layer];
    for (let v = f >= 0 ? f : 0, hi = f >= 0 ? f + 1 : last - first; v < hi; v++) {
      const kid = kids[first + v];
      if (changes[kid] === NONE) continue;
      const changed = own >= 0 && v !== own;
      const total = changes[kid] + (changed ? 1 : 0);
      if (bestChanges !== NONE && total > bestChanges) continue;
      const set = changed ? withPosition(sets[kid], position[layer]) : sets[kid];
      const spent = cost[kid] + price[base + v];
      if (bestChanges !== NONE && total === bestChanges) {
        const order = compareSets(set, bestSet);
        if (order > 0 || (order === 0 && spent >= bestCost)) continue;
      }
      bestChanges = total;
      bestSet = set;
      bestCost = spent;
      bestValue = v;
    }
    changes[n] = bestChanges;
    sets[n] = bestSet;
    cost[n] = bestCost;
    choice[n] = bestValue;
  }
  if (changes[root] === NONE) return { path: undefined, changes: 0, tiesBroken: true, examined };
  const stack = root > TRUE ? [root] : [];
  while (stack.length > 0) {
    const n = stack.pop() as number;
    if (nodeLayer[n] === AND) {
      for (let k = kidStart[n]; k < kidStart[n + 1]; k++) if (kids[k] > TRUE) stack.push(kids[k]);
      continue;
    }
    path[nodeLayer[n]] = choice[n];
    const next = kids[kidStart[n] + choice[n]];
    if (next > TRUE) stack.push(next);
  }
  const total = freeChanges + (root > TRUE ? changes[root] : 0);
  return { path, changes: total, tiesBroken: true, examined };
}

/** The union of two disjoint sorted sets (shared when one is empty). */
function union(a: readonly number[], b: readonly number[]): readonly number[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const result: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length)
    result.push(j >= b.length || (i < a.length && a[i] < b[j]) ? a[i++] : b[j++]);
  return result;
}

/** An unmentioned layer's best value: its target when allowed, else the cheapest allowed. */
function leastValue(
  layer: number,
  { target, fixed }: NearestQuery,
  price: Float64Array,
  valueBase: Int32Array,
  size: number,
): number {
  if (fixed[layer] >= 0) return fixed[layer];
  if (target[layer] >= 0) return target[layer];
  let best = 0;
  for (let v = 1; v < size; v++)
    if (price[valueBase[layer] + v] < price[valueBase[layer] + best]) best = v;
  return best;
}
