import { TRUE } from './mdd.js';
import { firstNodeAfter, type SearchQuery } from './nearest-stretch.js';
import type { LayeredDiagram } from './weighted.js';

/**
 * The nodes the lexicographic pass (nearest-pass.ts) reads when one change settles the
 * stretch (the backward count `below` of nearest-changes.ts says 1 at its start). One
 * change means one answered layer differs, and among the layers where one can, the key
 * keeps the earlier answers: the change is at the candidate layer latest in question
 * order. So the nodes are:
 * - above the change: those reached from the start with no change (each has 1 below),
 *   found in one walk that also finds the candidates (an answered layer's node with a
 *   child other than its answer's that reaches the end with no change), then only those
 *   of the chosen layer and the layers before it (a nearest path reads an edge of the
 *   chosen layer: skipping the layer keeps its answer);
 * - below it: those reached with no change from the children the chosen layer's changes
 *   lead to (each has 0 below), for that layer only.
 * Every path of the least key keeps within them. The other candidates' above nodes the
 * pass reads too, but no path from them is complete within the nodes unless it is one of the least
 * key's, so the pass's keys on the nearest paths, and its walk, are the whole pass's.
 * `below` is `countBelow`'s (before docs/adr/0230, an agreeing pass's 0 or 1, for which
 * the walk is as exact: the above nodes then included some on no path of one change, which
 * the pass found have no path within the nodes).
 *
 * Each walk is a sweep in ascending id (a parent before its children: ids ascend by
 * layer), a node read when a parent marked it: where the answers leave most of the
 * diagram open it reaches hundreds of thousands of nodes, which a sweep reads in memory
 * order where a depth-first walk jumps, and the list comes out sorted for the pass.
 * Returns how many nodes `list` holds, ascending (each stamped with `epoch`), and whether
 * some layer's change completes a path (else more are needed).
 */
export function singleChangeNodes(
  diagram: LayeredDiagram,
  query: SearchQuery,
  bounds: { readonly start: number; readonly last: number; readonly end: number },
  below: Uint8Array,
  /** The distinct children of each node (distinct-kids.ts). */
  distinct: { readonly start: Int32Array; readonly kids: Int32Array },
  marks: { readonly stamp: Int32Array; readonly epoch: number },
  list: Int32Array,
): { readonly count: number; readonly single: boolean } {
  const { nodeLayer, kidStart, kids } = diagram;
  const { start: distinctStart, kids: distinctKids } = distinct;
  const { target, fixed, rank } = query;
  const { start, last, end } = bounds;
  const { stamp, epoch } = marks;
  // Marks a node the sweep reads: inside the counted part, with `want` below.
  const mark = (child: number, want: number): void => {
    if (child > TRUE && child < last && child !== end && below[child] === want)
      stamp[child] = epoch;
  };
  let count = 0;
  stamp[start] = epoch;
  let chosen = -1; // the candidate layer latest in question order
  for (let id = start; id < last; id++) {
    if (stamp[id] !== epoch) continue;
    list[count++] = id;
    const layer = nodeLayer[id];
    const f = fixed[layer];
    if (f >= 0) {
      mark(kids[kidStart[id] + f], 1);
      continue;
    }
    const t = target[layer];
    if (t >= 0) {
      const kept = kids[kidStart[id] + t];
      mark(kept, 1);
      if (chosen >= 0 && rank[chosen] >= rank[layer]) continue;
      for (let k = distinctStart[id], hi = distinctStart[id + 1]; k < hi; k++)
        if (distinctKids[k] !== kept && below[distinctKids[k]] === 0) {
          chosen = layer;
          break;
        }
      continue;
    }
    for (let k = distinctStart[id], hi = distinctStart[id + 1]; k < hi; k++)
      mark(distinctKids[k], 1);
  }
  if (chosen < 0) return { count, single: false };
  // A nearest path takes an edge of the chosen layer (skipping it keeps its answer), so
  // the above nodes of later layers are on none: unstamped, the pass never reads them.
  let above = count;
  while (above > 0 && nodeLayer[list[above - 1]] > chosen) stamp[list[--above]] = 0;
  count = above;
  // Below the change: from the chosen layer's changed children, every edge keeps its answer.
  const from = list[above - 1] + 1; // after the chosen layer's listed nodes
  for (let i = above - 1; i >= 0 && nodeLayer[list[i]] === chosen; i--) {
    const id = list[i];
    const kept = kids[kidStart[id] + target[chosen]];
    for (let k = distinctStart[id], hi = distinctStart[id + 1]; k < hi; k++)
      if (distinctKids[k] !== kept) mark(distinctKids[k], 0);
  }
  for (let id = from; id < last; id++) {
    if (stamp[id] !== epoch) continue;
    list[count++] = id;
    const layer = nodeLayer[id];
    const f = fixed[layer];
    const value = f >= 0 ? f : target[layer];
    if (value >= 0) {
      mark(kids[kidStart[id] + value], 0);
      continue;
    }
    for (let k = distinctStart[id], hi = distinctStart[id + 1]; k < hi; k++)
      mark(distinctKids[k], 0);
  }
  return { count, single: true };
}

/** No path below (FALSE, TRUE past a stretch that ends elsewhere), as nearest-changes.ts. */
const NONE = 255;
/** The most a byte holds as a count (more: saturated here). */
const MOST = 254;

/**
 * Per node of [start, last), its least changes to the end (nearest-changes.ts
 * `leastChangesBelow`, saturated at MOST, NONE where no path goes on), in one sweep by
 * descending id; `below` must hold the counts of FALSE, TRUE and the nodes from `last`.
 * It reads as little as the agreeing test did where a path keeps every answer: an answered
 * layer whose answer's child has 0 is 0 without its other children, and a minimum stops at
 * 0 (nothing is less). So one sweep gives both what the one-change walk needs (0, 1) and
 * the count, where an agreeing sweep and then a count over the others read the nodes twice.
 * Returns the reads (children and nodes) to charge.
 */
export function countBelow(
  diagram: LayeredDiagram,
  query: SearchQuery,
  bounds: { readonly start: number; readonly last: number },
  below: Uint8Array,
  distinct: { readonly start: Int32Array; readonly kids: Int32Array },
): number {
  const { nodeLayer, kidStart, kids } = diagram;
  const { start: distinctStart, kids: distinctKids } = distinct;
  const { target, fixed } = query;
  const { start, last } = bounds;
  let read = last - start;
  // Layer by layer (ids ascend by layer): a layer's restriction is read once and each
  // kind of layer gets its own loop.
  for (let id = last - 1; id >= start;) {
    const layer = nodeLayer[id];
    // The layer's first id: the first one past the layer above.
    const first = firstNodeAfter(diagram, layer - 1, start, id);
    const f = fixed[layer];
    const t = target[layer];
    if (f >= 0) {
      for (; id >= first; id--) below[id] = below[kids[kidStart[id] + f]];
      continue;
    }
    for (; id >= first; id--) {
      // Answered: 0 when the answer's child has 0, else keep it or change it (1 more) to
      // any child. Open: the least child.
      const keep = t >= 0 ? below[kids[kidStart[id] + t]] : NONE;
      if (keep === 0) {
        below[id] = 0;
        continue;
      }
      let least = NONE;
      const hi = distinctStart[id + 1];
      let k = distinctStart[id];
      for (; k < hi && least > 0; k++) {
        const after = below[distinctKids[k]];
        if (after < least) least = after;
      }
      read += k - distinctStart[id];
      below[id] = t < 0 ? least : least === NONE ? keep : Math.min(keep, least + 1, MOST);
    }
  }
  return read;
}
