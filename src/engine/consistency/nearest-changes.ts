import type { DistinctKids } from './distinct-kids.js';
import { FALSE, TRUE } from './mdd.js';
import { listed } from './nearest-listing.js';
import { countBelow, singleChangeNodes } from './nearest-single.js';
import type { SearchQuery } from './nearest-stretch.js';
import type { SegmentSpan } from './segments.js';
import type { VisitScratch } from './prepared.js';
import type { LayeredDiagram } from './weighted.js';
import { charge, type Work } from './work.js';

/**
 * The least number of changes c a path of a stretch needs, and the nodes a nearest path
 * can use, so that the lexicographic pass (nearest-pass.ts) reads those nodes only. A
 * nearest path has c changes, so each of its nodes is reached from the start with d
 * changes and reaches the end with c - d; either count bounds the nodes to read:
 * - `leastChanges`, forward: a breadth-first search by changes from the start (a 0-1
 *   BFS, depth-first within one count), each node expanded once with its least changes
 *   from the start, by its distinct children as the count below reads them; the nodes
 *   reached within c, narrowed to those on a path of c changes (nearest-narrow.ts).
 *   Cheap when the changes open a small part of the diagram;
 * - `leastChangesBelow`, backward: per node its least changes to the end (one sweep over
 *   the nodes above the last restricted layer, small integers, nearest-single.ts
 *   `countBelow`), then the nodes on a path of c changes (the edges where the count below
 *   drops by exactly the edge's change, from the start, in a sweep by id; with c = 1 those
 *   of the one change the key prefers, nearest-single.ts `singleChangeNodes`). Linear in
 *   the stretch, but a small part of the lexicographic pass's cost per node, and the pass
 *   then reads only the nodes of those paths.
 * Either way count 0 stops at the first path (the depth-first completion check of
 * query.ts `isConsistent`, the common case: the answers keep a path, nothing changes).
 */
export interface ChangeBound {
  /** The least changes of a path through the stretch (-1: the forced values leave none). */
  readonly changes: number;
  /** A node the pass may read is stamped with `epoch`… */
  readonly stamp: Int32Array;
  readonly epoch: number;
  /** …and, when given, has at most `changes` here (written over by the pass, see there). */
  readonly down: Int32Array | undefined;
  /** When they are few, those nodes in ascending order (else the pass reads every stamp). */
  readonly nodes?: Int32Array;
}

/** Node-sized scratch: the visit stamps (their `stack`), `down`, and the next count's nodes. */
export interface ChangeScratch {
  readonly visit: VisitScratch;
  readonly down: Int32Array;
  readonly frontier: Int32Array;
  /** The nodes expanded, listed for the pass when they are at most `listShare` of the stretch's. */
  readonly list: Int32Array;
  readonly listShare: number;
  /** The diagram's distinct children (distinct-kids.ts), kept per form and price. */
  readonly distinct: DistinctKids;
}

function nextEpoch(visit: VisitScratch): number {
  if (++visit.epoch === 0x7fffffff) {
    visit.stamp.fill(0);
    visit.epoch = 1;
  }
  return visit.epoch;
}

/**
 * The forward bound: charges every edge it examines to `work` (OutOfWork past it).
 * `last`: the first node below the stretch's last restricted layer (from there nothing
 * changes).
 */
export function leastChanges(
  diagram: LayeredDiagram,
  query: SearchQuery,
  span: SegmentSpan,
  last: number,
  scratch: ChangeScratch,
  work?: Work,
): ChangeBound {
  const { nodeLayer, kidStart, kids } = diagram;
  const { target, fixed } = query;
  const { start, end } = span;
  const { visit, down, frontier, list, listShare } = scratch;
  const { start: distinctStart, kids: distinct } = scratch.distinct;
  const epoch = nextEpoch(visit);
  const { stamp, stack } = visit;
  const bound = (changes: number): ChangeBound => ({ changes, stamp, epoch, down });
  if (start === end || start >= last) return bound(0);
  stamp[start] = epoch;
  down[start] = 0;
  stack[0] = start;
  let top = 1;
  let waiting = 0; // nodes in `frontier`: reached with k + 1 changes
  let best = Infinity; // the least changes of a path found so far
  let examined = 0;
  // Charged in chunks, the last one no more than what is left: the search stops at the
  // budget, rather than finishing past it only to be thrown away.
  let chunk = Math.min(CHUNK, work?.left ?? CHUNK);
  let count = 0;
  for (let k = 0; ; k++) {
    while (top > 0) {
      const id = stack[--top];
      list[count++] = id;
      const layer = nodeLayer[id];
      const f = fixed[layer];
      // A forced layer reads its one edge; else the node's distinct children (a change
      // costs 1 whichever value makes it), the answer's own child keeping it.
      const t = f >= 0 ? -1 : target[layer];
      const kept = t >= 0 ? kids[kidStart[id] + t] : -1;
      const lo = f >= 0 ? 0 : distinctStart[id];
      const hi = f >= 0 ? 1 : distinctStart[id + 1];
      examined += hi - lo;
      if (examined > chunk) {
        charge(work, examined);
        examined = 0;
        chunk = Math.min(CHUNK, work?.left ?? CHUNK);
      }
      for (let i = lo; i < hi; i++) {
        const child = f >= 0 ? kids[kidStart[id] + f] : distinct[i];
        if (child === FALSE) continue;
        if (child === TRUE && end !== TRUE) continue; // past the stretch: not its end
        const changes = t >= 0 && child !== kept ? k + 1 : k;
        if (child === end || child >= last) {
          if (changes === 0) {
            charge(work, examined);
            return bound(0);
          }
          if (changes < best) best = changes;
          continue;
        }
        if (changes > best) continue;
        if (stamp[child] === epoch && down[child] <= changes) continue;
        stamp[child] = epoch;
        down[child] = changes;
        if (changes === k) stack[top++] = child;
        else frontier[waiting++] = child;
      }
    }
    // Every node reached with k changes is expanded: a path of k changes is the least.
    if (best <= k || (waiting === 0 && best === Infinity)) break;
    for (let i = 0; i < waiting; i++) {
      const id = frontier[i];
      if (down[id] === k + 1) stack[top++] = id;
    }
    waiting = 0;
  }
  charge(work, examined);
  if (best === Infinity) return bound(-1);
  // Reached past the least count, never expanded: not the pass's (every stamped node is
  // then one it reads, as the list says).
  for (let i = 0; i < waiting; i++) if (down[frontier[i]] > best) stamp[frontier[i]] = 0;
  const most = listShare * (last - start);
  return listed(bound(best), nodeLayer.length, list, count, most, frontier);
}

/** Edges the forward bound examines between charges. */
const CHUNK = 65_536;

/** Counts below a node are held in a byte: at most this many (more: the caller's full pass). */
export const MOST_COUNTED = 254;
const NONE = 255;

/** The backward bound's scratch: counts, visit stamps, a node list (node-sized). */
export interface BelowScratch {
  readonly below: Uint8Array;
  /** The diagram's distinct children (distinct-kids.ts), kept per form and price. */
  readonly distinct: DistinctKids;
  readonly visit: VisitScratch;
  readonly list: Int32Array;
  /** The nodes are listed when they are at most this share of the stretch's. */
  readonly listShare: number;
  /**
   * Node-sized scratch, not read: the nodes come out of a sweep by id already sorted
   * (docs/adr/0230); kept so that callers sharing the forward bound's scratch need not change.
   */
  readonly order: Int32Array;
}

/**
 * The backward bound over the nodes [start, last) (`last`: the first node below the last
 * restricted layer): `below` gets each node's least changes to the end, saturated at
 * MOST_COUNTED. Charges the nodes' edges to `work`.
 *
 * The count sweep reads every node of the stretch, the resolution's largest cost when the
 * changes open most of the diagram, so it reads as little per node as it can: an open or
 * answered layer's least count is over the node's distinct children (`distinct`: a
 * change costs 1 whichever value makes it, so only the children matter, and the
 * answer's own child), stopping at a child with 0 (an answered layer whose answer's
 * child has 0 reads no other), and no edge is tested: FALSE (and TRUE past a stretch that
 * ends elsewhere) hold NONE in `below`, the end node and the nodes under the last
 * restricted layer 0, so each child is one read and one minimum (docs/adr/0230).
 */
export function leastChangesBelow(
  diagram: LayeredDiagram,
  query: SearchQuery,
  span: SegmentSpan,
  last: number,
  scratch: BelowScratch,
  work?: Work,
): ChangeBound {
  const { below, visit, list, listShare } = scratch;
  const { nodeLayer, kidStart, kids } = diagram;
  const { start: distinctStart, kids: distinct } = scratch.distinct;
  const { target, fixed } = query;
  const { start, end } = span;
  below[FALSE] = NONE;
  below[TRUE] = end === TRUE ? 0 : NONE;
  below.fill(0, last, end === TRUE ? nodeLayer.length : end + 1);
  const bounds = { start, last, end };
  // One sweep gives the count (and the 0s and 1s the one-change walk reads).
  if (start < last) charge(work, countBelow(diagram, query, bounds, below, scratch.distinct));
  const epoch = nextEpoch(visit);
  const { stamp } = visit;
  const changes = start >= last ? 0 : below[start] === NONE ? -1 : below[start];
  const bound: ChangeBound = { changes, stamp, epoch, down: undefined };
  if (changes <= 0 || changes >= MOST_COUNTED) return bound;
  if (changes === 1) {
    const marks = { stamp, epoch };
    const { count } = singleChangeNodes(
      diagram,
      query,
      bounds,
      below,
      scratch.distinct,
      marks,
      list,
    );
    // Listed in ascending id already (the walk's sweeps).
    return count > listShare * (last - start)
      ? bound
      : { ...bound, nodes: list.subarray(0, count) };
  }
  // The nodes of the paths of `changes` changes: from the start, along the edges whose
  // change is exactly what the count below drops by (by child, as the count: the
  // answer's own child cannot also be one a change leads to, its count being the least).
  // A sweep in ascending id (a parent before its children), as the one-change walk: it
  // reads in memory order where a depth-first walk jumps, and lists the nodes sorted.
  let count = 0;
  let furthest = start; // the greatest id marked: past it, nothing is
  const mark = (child: number): void => {
    stamp[child] = epoch;
    if (child > furthest) furthest = child;
  };
  stamp[start] = epoch;
  for (let id = start; id <= furthest; id++) {
    if (stamp[id] !== epoch) continue;
    list[count++] = id;
    const layer = nodeLayer[id];
    const f = fixed[layer];
    const own = below[id];
    if (f >= 0) {
      const child = kids[kidStart[id] + f];
      if (child > TRUE && child < last && own === below[child]) mark(child);
      continue;
    }
    const t = target[layer];
    const kept = t >= 0 ? kids[kidStart[id] + t] : -1;
    const step = t >= 0 ? 1 : 0;
    for (let k = distinctStart[id], hi = distinctStart[id + 1]; k < hi; k++) {
      const child = distinct[k];
      if (child <= TRUE || child >= last) continue;
      if (own === (child === kept ? below[child] : below[child] + step)) mark(child);
    }
  }
  return count > listShare * (last - start) ? bound : { ...bound, nodes: list.subarray(0, count) };
}
