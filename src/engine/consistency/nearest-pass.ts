import { FALSE, TRUE } from './mdd.js';
import type { DistinctKids } from './distinct-kids.js';
import type { ChangeBound } from './nearest-changes.js';
import { firstNodeAfter, type SearchQuery, type SpanPath, stretchOf } from './nearest-stretch.js';
import type { SegmentSpan } from './segments.js';
import type { LayeredDiagram } from './weighted.js';
import { charge, type Work } from './work.js';

/**
 * The nearest path of a stretch by one backward pass in the lexicographic semiring of
 * its key (nearest-search.ts): per node, the least (changes, changed positions, price)
 * of a path from it to the stretch's end under the restrictions, and the edge value that
 * has it; then a walk from the start node along those values. A shortest-path pass over
 * a DAG in topological order (Bellman's principle; the key is additive and totally
 * ordered, see nearest-search.ts), so every tie of the contract is broken in the one pass
 * where the (min, +) passes of weighted.ts needed one pass pair per tie.
 *
 * Linear in the stretch's edges: what the search takes when its best-first order would
 * expand too many nodes (many changes, or a conflict early in the order). With a bound
 * (`within`, nearest-changes.ts) it reads only the nodes a path of the least changes
 * can use: every nearest path keeps within them, and on such a path each node's key is
 * the one the whole pass gives it, so the walk takes the same edges.
 */
export interface PassColumns {
  /** Per node: its least key below (changes; a set of changed positions, see `sets`; price). */
  readonly changes: Int32Array;
  readonly changed: Int32Array;
  readonly price: Float64Array;
  /** Per node: the value of its first edge with that key. */
  readonly value: Int32Array;
  /**
   * The sets of changed positions the pass made, flat: a set is its offset, holding its
   * length then its positions ascending; 0 is the empty set. Grown as needed.
   */
  sets: Int32Array;
  /** The bounds' scratch (nearest-changes.ts): the next count's nodes, counts below, a list. */
  readonly frontier: Int32Array;
  readonly below: Uint8Array;
  readonly list: Int32Array;
}

export function newPassColumns(nodes: number): PassColumns {
  return {
    changes: new Int32Array(nodes),
    changed: new Int32Array(nodes),
    price: new Float64Array(nodes),
    value: new Int32Array(nodes),
    sets: new Int32Array(1024),
    frontier: new Int32Array(nodes),
    below: new Uint8Array(nodes),
    list: new Int32Array(nodes),
  };
}

const NO_PATH = 0x3fffffff;

/**
 * The least key's path of `span` (undefined: the forced values leave it no path); writes
 * the values of its restricted layers into `path`. Charges the stretch's edges to `work`.
 */
export function passSpan(
  diagram: LayeredDiagram,
  query: SearchQuery,
  span: SegmentSpan,
  path: Int32Array,
  columns: PassColumns,
  distinct: DistinctKids,
  work?: Work,
  within?: ChangeBound,
): SpanPath | undefined {
  const { valueBase, nodeLayer, kidStart, kids } = diagram;
  const { start: distinctStart, kids: distinctKids, values: distinctValues } = distinct;
  const { target, fixed, rank, price } = query;
  const { fromLayer, toLayer, start, end } = span;
  const { skipBefore, skipValue, deepest } = stretchOf(diagram, query, span);
  const { priceBelow } = query;
  // Below the last restricted layer nothing changes and the least price is known
  // (`priceBelow`): the pass starts at the first node below it.
  const last = firstNodeAfter(diagram, deepest, start, end === TRUE ? nodeLayer.length : end);
  if (within === undefined)
    charge(work, (last === nodeLayer.length ? kids.length : kidStart[last]) - kidStart[start]);
  const { changes, changed, value } = columns;
  // With a bound (nearest-changes.ts): only the nodes it allows, their edges charged.
  let examined = 0;
  const paid = columns.price;
  let top = 1; // sets[0] = 0: the empty set
  columns.sets[0] = 0;
  const floor = priceBelow === undefined || end === TRUE ? 0 : priceBelow[end];
  // The bound's few nodes when it lists them (others are never read), else every node.
  const listed = within?.nodes;
  const stamp = within?.stamp;
  const epoch = within?.epoch;
  for (let k = (listed?.length ?? last - start) - 1; k >= 0; k--) {
    const id = listed === undefined ? start + k : listed[k];
    if (listed === undefined && within !== undefined && !reached(within, id)) {
      // A node the bound never stamped is never read (children are tested by stamp).
      if (stamp?.[id] === epoch) changes[id] = NO_PATH;
      continue;
    }
    const layer = nodeLayer[id];
    const f = fixed[layer];
    const t = f >= 0 ? -1 : target[layer];
    const position = t >= 0 ? rank[layer] : -1;
    const first = kidStart[id];
    // An open layer's edges into one child differ by their value's price only: its
    // distinct children with their cheapest values, in the order of the edges. So do an
    // answered layer's, but for the answer's own child, whose other edges add a change
    // to the answer's key: that child is read at the answer (a tie goes to the lesser value).
    const open = f < 0;
    const edges = open ? distinctKids : kids;
    const lo = open ? distinctStart[id] : first + f;
    const hi = open ? distinctStart[id + 1] : first + f + 1;
    const kept = t >= 0 ? kids[first + t] : -1;
    if (within !== undefined) {
      examined += hi - lo;
      if (examined > 65_536) {
        charge(work, examined);
        examined = 0;
      }
    }
    const base = valueBase[layer];
    const after = skipBefore[layer + 1 - fromLayer];
    let bestChanges = NO_PATH;
    let bestSet = 0;
    let bestPrice = Infinity;
    let bestValue = -1;
    let bestAdds = -1;
    for (let k = lo; k < hi; k++) {
      const child = edges[k];
      if (child === FALSE) continue;
      const v = !open ? f : child === kept ? t : distinctValues[k];
      const below = child >= last || child === end;
      if (
        !below &&
        ((within !== undefined && stamp?.[child] !== epoch) || changes[child] === NO_PATH)
      )
        continue;
      const adds = t >= 0 && v !== t ? position : -1;
      const count = (below ? 0 : changes[child]) + (adds >= 0 ? 1 : 0);
      if (count > bestChanges) continue;
      const next = child === end ? toLayer : nodeLayer[child];
      const cost =
        (price === undefined ? 0 : price[base + v]) +
        skipBefore[next - fromLayer] -
        after +
        (!below
          ? paid[child]
          : priceBelow === undefined || child === end
            ? 0
            : priceBelow[child] - floor);
      const set = below ? 0 : changed[child];
      if (count === bestChanges) {
        const order =
          set === bestSet && adds === bestAdds
            ? 0
            : compareSets(columns.sets, set, adds, bestSet, bestAdds);
        if (
          order > 0 ||
          (order === 0 && (cost > bestPrice || (cost === bestPrice && v > bestValue)))
        )
          continue;
      }
      bestChanges = count;
      bestSet = set;
      bestAdds = adds;
      bestPrice = cost;
      bestValue = v;
    }
    changes[id] = bestChanges;
    if (bestAdds >= 0) {
      const length = columns.sets[bestSet] + 1;
      if (top + length + 1 > columns.sets.length) {
        const grown = new Int32Array(2 * (top + length + 1));
        grown.set(columns.sets);
        columns.sets = grown;
      }
      const sets = columns.sets;
      sets[top] = length;
      for (let k = 0; k < length; k++) sets[top + 1 + k] = nth(sets, bestSet, bestAdds, k);
      changed[id] = top;
      top += length + 1;
    } else changed[id] = bestSet;
    paid[id] = bestPrice;
    value[id] = bestValue;
  }
  charge(work, examined);
  if (changes[start] === NO_PATH) return undefined;
  for (let layer = fromLayer; layer < toLayer; layer++) path[layer] = skipValue[layer - fromLayer];
  for (let id = start; id < last && id !== end;) {
    path[nodeLayer[id]] = value[id];
    id = kids[kidStart[id] + value[id]];
  }
  return { changes: changes[start], path };
}

/**
 * The bound allows the node. Its `down` may be the pass's `changes` column: read at a
 * node before the node's own key is written there (children, read after, hold keys).
 */
function reached(within: ChangeBound, id: number): boolean {
  const { stamp, epoch, down, changes } = within;
  return stamp[id] === epoch && (down === undefined || down[id] <= changes);
}

/** The k-th position (ascending) of set `set` of `sets` with `extra` added (when ≥ 0). */
function nth(sets: Int32Array, set: number, extra: number, k: number): number {
  if (extra < 0) return sets[set + 1 + k];
  let below = 0; // positions of the set before `extra`
  while (below < sets[set] && sets[set + 1 + below] < extra) below++;
  return k < below ? sets[set + 1 + k] : k === below ? extra : sets[set + k];
}

/**
 * Set a with `extraA` against set b with `extraB` (each added when ≥ 0) as binary numbers,
 * the earliest position the most significant bit: negative when a is the less (it keeps
 * the earlier answer: the least position of their difference is in b).
 */
function compareSets(
  sets: Int32Array,
  a: number,
  extraA: number,
  b: number,
  extraB: number,
): number {
  const la = sets[a] + (extraA >= 0 ? 1 : 0);
  const lb = sets[b] + (extraB >= 0 ? 1 : 0);
  for (let k = 0; k < la && k < lb; k++) {
    const x = nth(sets, a, extraA, k);
    const y = nth(sets, b, extraB, k);
    if (x !== y) return x < y ? 1 : -1;
  }
  return la - lb;
}
