import { derived } from '../derived.js';
import type { ConsistencyForm } from './form.js';
import { FALSE, TRUE } from './mdd.js';
import type { Nearest, NearestQuery } from './nearest.js';
import { newPassColumns, type PassColumns, passSpan } from './nearest-pass.js';
import { newSearchScratch, type SearchScratch, searchSpan } from './nearest-search.js';
import { leastPriceToTrue, type SearchQuery, type SpanPath } from './nearest-stretch.js';
import { prepareForm } from './prepared.js';
import { isConsistent } from './query.js';
import { type SegmentSpan, segmentSpan } from './segments.js';
import { charge, type Work, withinBudget } from './work.js';

/**
 * The nearest valid configuration over a compiled form (docs/model-format.md "Guided
 * configuration"), segment by segment (segments.ts): a segment without a target or a
 * forced value, or with a path that keeps them all (query.ts `isConsistent`, a depth-first
 * search that stops at the first path), is left as it is; each other one gets its least key (nearest-search.ts:
 * the fewest changes, the earliest answers kept, the least price) by the best-first
 * search while it stays within UNGUIDED_WORK edges (a segment whose restrictions have a
 * path costs it one path), else by one lexicographic backward pass (nearest-pass.ts).
 * Segments are independent, so their least keys add up to the least key of the whole.
 * Exact, every tie broken; OutOfWork (work.ts) when `work` runs out. On the returned path
 * only the layers with a target or a forced value are meaningful.
 */
export function searchedNearest(
  form: ConsistencyForm,
  query: NearestQuery,
  work?: Work,
  unguidedWork = UNGUIDED_WORK,
): Nearest {
  const { domain, root } = form;
  const layers = domain.length;
  const path = new Int32Array(layers);
  const rank = new Int32Array(layers).fill(-1);
  query.order.forEach((layer, i) => (rank[layer] = i));
  // A forced value that differs from its layer's answer is a change every path makes.
  let changes = 0;
  let restricted = false;
  for (let layer = 0; layer < layers; layer++) {
    const { fixed, target } = query;
    const value = fixed[layer] >= 0 ? fixed[layer] : target[layer];
    path[layer] = Math.max(0, value);
    restricted ||= value >= 0;
    if (fixed[layer] >= 0 && target[layer] >= 0 && fixed[layer] !== target[layer]) changes++;
  }
  const none = { path: undefined, changes: 0, tiesBroken: true, examined: 0 };
  if (root === FALSE) return none;
  if (root === TRUE || !restricted) return { path, changes, tiesBroken: true, examined: 0 };
  const { segments } = prepareForm(form);
  const search = {
    target: query.target,
    fixed: query.fixed,
    rank,
    price: query.price,
    priceBelow: query.price === undefined ? undefined : priceBelow(form, query.price),
  };
  const before = work?.left ?? 0;
  // Targets and forced values together: a segment that has a path under all of them keeps
  // every answer (no change), which a depth-first search finds far cheaper than a search by key.
  const kept = new Int32Array(layers);
  for (let layer = 0; layer < layers; layer++)
    kept[layer] = query.fixed[layer] >= 0 ? query.fixed[layer] : query.target[layer];
  for (let s = 0; s < segments.fromLayer.length; s++) {
    const span = segmentSpan(segments, s);
    let open = true;
    for (let layer = span.fromLayer; layer < span.toLayer && open; layer++)
      open = query.fixed[layer] < 0 && query.target[layer] < 0;
    if (open || isConsistent(form, kept, s, work)) continue;
    const found = nearestOfSpan(form, search, span, path, work, unguidedWork);
    if (found === undefined) return none;
    changes += found.changes;
  }
  const examined = work === undefined ? 0 : before - work.left;
  return { path, changes, tiesBroken: true, examined };
}

/**
 * Edges the best-first search of one segment may examine before the pass takes over. A
 * label costs tens of times an edge of the pass (a heap, a key of three parts), so the
 * search is worth it only while it stays a small part of the segment: conflicts settled
 * within a change or two near the end of the order.
 */
const UNGUIDED_WORK = 50_000;

/** The search within `unguidedWork` edges (when the segment is larger), else the pass. */
function nearestOfSpan(
  form: ConsistencyForm,
  query: SearchQuery,
  span: SegmentSpan,
  path: Int32Array,
  work: Work | undefined,
  unguidedWork: number,
): SpanPath | undefined {
  const { kidStart, kids } = form;
  const scratch = searchScratch(form);
  const edges = (span.end === TRUE ? kids.length : kidStart[span.end]) - kidStart[span.start];
  if (edges <= unguidedWork) return searchSpan(form, query, span, path, scratch.search, work);
  const allowed = Math.min(unguidedWork, work?.left ?? Infinity);
  const first: Work = { left: allowed };
  const found = withinBudget(() => searchSpan(form, query, span, path, scratch.search, first));
  charge(work, allowed - first.left);
  if (found !== undefined || first.left >= 0) return found;
  scratch.pass ??= newPassColumns(form.nodeLayer.length);
  return passSpan(form, query, span, path, scratch.pass, work);
}

/** Per form: the search's scratch, and the pass's columns (made on first use). */
interface NearestScratch {
  readonly search: SearchScratch;
  pass: PassColumns | undefined;
}

const SCRATCH = Symbol('nearest search scratch');
const PRICE_BELOW = Symbol('least price below each node');

function searchScratch(form: ConsistencyForm): NearestScratch {
  return derived(form, SCRATCH, () => ({
    search: newSearchScratch(prepareForm(form).visit),
    pass: undefined,
  }));
}
/**
 * The search's heuristic for these prices, kept per form for the last prices asked (a
 * model's price weights are one array, derived once per model: price-terms.ts).
 */
function priceBelow(form: ConsistencyForm, price: Float64Array): Float64Array {
  const slot = derived(form, PRICE_BELOW, () => ({
    price: undefined as Float64Array | undefined,
    below: new Float64Array(0) as Float64Array,
  }));
  if (slot.price !== price) {
    slot.below = leastPriceToTrue(form, price);
    slot.price = price;
  }
  return slot.below;
}
