import type { DistinctKids } from './distinct-kids.js';
import { TRUE } from './mdd.js';
import { type ChangeBound, MOST_COUNTED } from './nearest-changes.js';
import type { SearchQuery } from './nearest-stretch.js';
import type { SegmentSpan } from './segments.js';
import type { LayeredDiagram } from './weighted.js';
import { charge, type Work } from './work.js';

/** No path of the least changes below (a byte's counts, as nearest-changes.ts `leastChangesBelow`). */
const NONE = 255;

/**
 * The forward bound's listed nodes (nearest-changes.ts `leastChanges`: every node reached
 * from the start with at most c changes, its least count from the start in `down`)
 * narrowed to those on a path of c changes: a count of the least changes below each of
 * them, over them only (a child the bound did not list is reached with more than c, so
 * on no such path), then the nodes whose two counts add up to c. A node on a path of c
 * changes has its whole suffix listed, so its count is exact and it is kept; any other
 * node's counts add up to more. The pass (nearest-pass.ts) reads each node several times
 * what this count does, and most listed nodes are on no path of c changes: reached with
 * fewer changes, they have more to make below. The bound keeps its stamp and epoch; the
 * nodes left out are unstamped. `below` is node-sized scratch.
 */
export function narrowed(
  diagram: LayeredDiagram,
  query: SearchQuery,
  span: SegmentSpan,
  last: number,
  bound: ChangeBound,
  below: Uint8Array,
  distinct: DistinctKids,
  work?: Work,
): ChangeBound {
  const { nodes, stamp, epoch, down, changes } = bound;
  if (nodes === undefined || down === undefined || changes <= 0 || changes >= MOST_COUNTED)
    return bound;
  const { kidStart, kids, nodeLayer } = diagram;
  const { start: distinctStart, kids: distinctKids } = distinct;
  const { target, fixed } = query;
  const { end } = span;
  // A child's count: 0 below the last restricted layer or at the end, NONE where no path
  // of c changes goes on (FALSE, TRUE past a stretch ending elsewhere, an unlisted node).
  const after = (child: number): number =>
    child === end || (child >= last && child !== TRUE)
      ? 0
      : child > TRUE && stamp[child] === epoch
        ? below[child]
        : NONE;
  let examined = 0;
  for (let i = nodes.length - 1; i >= 0; i--) {
    const id = nodes[i];
    const layer = nodeLayer[id];
    const f = fixed[layer];
    let best: number;
    if (f >= 0) best = after(kids[kidStart[id] + f]);
    else {
      let least = NONE;
      for (let k = distinctStart[id], hi = distinctStart[id + 1]; k < hi; k++) {
        const count = after(distinctKids[k]);
        if (count < least) least = count;
      }
      const t = target[layer];
      if (t < 0) best = least;
      else {
        const changed = least === NONE ? NONE : Math.min(least + 1, MOST_COUNTED);
        best = Math.min(after(kids[kidStart[id] + t]), changed);
      }
    }
    below[id] = best;
    examined += 1 + (f >= 0 ? 0 : distinctStart[id + 1] - distinctStart[id]);
  }
  charge(work, examined);
  let kept = 0;
  for (let i = 0; i < nodes.length; i++) {
    const id = nodes[i];
    if (below[id] !== NONE && down[id] + below[id] === changes) nodes[kept++] = id;
    else stamp[id] = 0;
  }
  return { ...bound, nodes: nodes.subarray(0, kept) };
}
