import { derived } from '../derived.js';
import type { ConsistencyForm } from './form.js';
import { FALSE, TRUE } from './mdd.js';
import type { Nearest, NearestQuery } from './nearest.js';
import { type DistinctKids, distinctKids } from './distinct-kids.js';
import { leastChanges, leastChangesBelow, MOST_COUNTED } from './nearest-changes.js';
import { narrowed } from './nearest-narrow.js';
import { newPassColumns, type PassColumns, passSpan } from './nearest-pass.js';
import { newSearchScratch, type SearchScratch, searchSpan } from './nearest-search.js';
import {
  firstNodeAfter,
  leastPriceToTrue,
  type SearchQuery,
  type SpanPath,
  stretchOf,
} from './nearest-stretch.js';
import { prepareForm, segmentsOf, type VisitScratch } from './prepared.js';
import { isConsistent } from './query.js';
import { segmentEdges } from './segment-pass.js';
import { type SegmentSpan, segmentSpan } from './segments.js';
import { charge, type Work, withinBudget } from './work.js';

/**
 * The nearest valid configuration over a compiled form (docs/model-format.md "Guided
 * configuration"), segment by segment (segments.ts): a segment without a target or a
 * forced value, or with a path that keeps them all, is left as it is; each other one gets
 * its least key (nearest-search.ts: the fewest changes, the earliest answers kept, the
 * least price). A segment of at most UNGUIDED_WORK edges: the completion check (query.ts
 * `isConsistent`, a depth-first search that stops at the first path), then the
 * best-first search. A larger one: the least number of changes and the nodes a path of
 * that many can use (nearest-changes.ts, whose count 0 is the same check), then one
 * lexicographic backward pass over those nodes (nearest-pass.ts).
 * Segments are independent, so their least keys add up to the least key of the whole.
 * Exact, every tie broken; OutOfWork (work.ts) when `work` runs out. On the returned path
 * only the layers with a target or a forced value are meaningful.
 */
export function searchedNearest(
  form: ConsistencyForm,
  query: NearestQuery,
  work?: Work,
  tuning = NEAREST_TUNING,
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
    if (open) continue;
    const found = nearestOfSpan(form, search, span, path, work, {
      kept,
      segment: s,
      tuning,
    });
    if (found === undefined) return none;
    changes += found.changes;
  }
  const examined = work === undefined ? 0 : before - work.left;
  return { path, changes, tiesBroken: true, examined };
}

/** How segments are searched (the property tests take each way apart). */
export interface NearestTuning {
  /**
   * Edges of a segment up to which its best-first search runs to the end (a label costs
   * tens of times an edge of a pass: a heap, a key of three parts). A larger segment gets
   * the bounded pass (`boundedPass`).
   */
  readonly unguidedWork: number;
  /**
   * Edges the forward bound (nearest-changes.ts `leastChanges`) may examine before the
   * backward one takes over: the forward one reads only what the changes open, but when
   * they open most of the diagram it costs more per node than the backward one. It reads
   * a node about five times what the backward count does (a depth-first walk jumps in
   * memory, the count sweeps), so where it gives up it costs the tail most: 50,000 kept
   * the median and cut the p99 (docs/adr/0230).
   */
  readonly forwardWork: number;
  /**
   * Edges the forward bound may examine per node the backward one would read (the
   * stretch above its last restricted layer): where that is small, the backward bound
   * costs less than a forward one that gives up.
   */
  readonly forwardShare: number;
  /** A bound lists its nodes for the pass when they are at most this share of the stretch's. */
  readonly listShare: number;
}

export const NEAREST_TUNING: NearestTuning = {
  unguidedWork: 50_000,
  forwardWork: 50_000,
  forwardShare: 1,
  listShare: 1,
};

interface SpanOptions {
  /** Targets and forced values together (a path keeping them all changes nothing). */
  readonly kept: Int32Array;
  readonly segment: number;
  readonly tuning: NearestTuning;
}

/** A small segment: the completion check, then the search; a larger one: the bounded pass. */
function nearestOfSpan(
  form: ConsistencyForm,
  query: SearchQuery,
  span: SegmentSpan,
  path: Int32Array,
  work: Work | undefined,
  options: SpanOptions,
): SpanPath | undefined {
  const { kidStart, kids } = form;
  const scratch = searchScratch(form);
  const edges = (span.end === TRUE ? kids.length : kidStart[span.end]) - kidStart[span.start];
  if (edges <= options.tuning.unguidedWork) {
    if (isConsistent(form, options.kept, options.segment, work)) return { changes: 0, path };
    return searchSpan(form, query, span, path, scratch.search, work);
  }
  scratch.pass ??= newPassColumns(form.nodeLayer.length);
  return boundedPass(form, query, span, path, scratch.search.visit, scratch.pass, work, options);
}

/**
 * The lexicographic pass over the nodes a path of the least changes can use
 * (nearest-changes.ts): the forward bound within `forwardWork` edges and `forwardShare`
 * edges per node above the last restricted layer, else the backward one. Count 0: the
 * answers keep a path, the segment is left as it is.
 */
function boundedPass(
  form: ConsistencyForm,
  query: SearchQuery,
  span: SegmentSpan,
  path: Int32Array,
  visit: VisitScratch,
  columns: PassColumns,
  work: Work | undefined,
  options: SpanOptions,
): SpanPath | undefined {
  const { deepest } = stretchOf(form, query, span);
  const distinct = () => distinctKidsOf(form, query.price);
  const end = span.end === TRUE ? form.nodeLayer.length : span.end;
  const last = firstNodeAfter(form, deepest, span.start, end);
  const { forwardWork, forwardShare } = options.tuning;
  const allowed = Math.min(forwardWork, forwardShare * (last - span.start), work?.left ?? Infinity);
  const forward: Work = { left: allowed };
  const { listShare } = options.tuning;
  const { frontier, list } = columns;
  const scratch = { visit, down: columns.changes, frontier, list, listShare, distinct: distinct() };
  let bound = withinBudget(() => leastChanges(form, query, span, last, scratch, forward));
  charge(work, allowed - forward.left);
  if (bound !== undefined)
    bound = narrowed(form, query, span, last, bound, columns.below, distinct(), work);
  else {
    const { below } = columns;
    const backward = { below, distinct: distinct(), visit, list, listShare, order: frontier };
    bound = leastChangesBelow(form, query, span, last, backward, work);
    if (bound.changes >= MOST_COUNTED)
      return passSpan(form, query, span, path, columns, distinct(), work);
  }
  if (bound.changes === 0) return { changes: 0, path };
  if (bound.changes < 0) return undefined;
  return passSpan(form, query, span, path, columns, distinct(), work, bound);
}

/** Initial length of the pass's sets of changed positions (nearest-pass.ts `newPassColumns`). */
const INITIAL_SETS = 1024;

/**
 * The most the nearest configuration's scratch holds on a diagram form while in use,
 * counted up front in the compiled-model cache's bytes (as segment-weights.ts
 * `priceBoundsBytes`): the pass's node-sized columns (nearest-pass.ts, with the bounds'
 * frontier, counts and list of docs/adr/0206), the search's heuristic (a price per node)
 * and its labels and queue, at most one label per edge of a searched span (at most
 * `unguidedWork` edges) in columns that double. Typed arrays and objects at their V8
 * layout cost, as heap-estimate.ts counts them. The pass's sets of changed positions grow
 * with the changes of a resolution, not with the diagram: counted at their first length.
 */
export function nearestScratchBytes(form: ConsistencyForm, tuning = NEAREST_TUNING): number {
  if (!form.compiled || form.root <= TRUE) return 0;
  const array = (bytes: number): number => 96 + bytes;
  const nodes = form.nodeLayer.length;
  // A segment of at most `unguidedWork` edges is searched, a larger one passed over.
  const segments = segmentsOf(form);
  let searched = 0;
  let passed = false;
  for (let s = 0; s < segments.fromLayer.length; s++) {
    const edges = segmentEdges(form, segments, s);
    if (edges > tuning.unguidedWork) passed = true;
    else searched = Math.max(searched, edges);
  }
  const columns = passed
    ? 5 * array(4 * nodes) + array(8 * nodes) + array(nodes) + array(4 * INITIAL_SETS) + 128
    : 0;
  const heuristic = array(8 * nodes) + 64;
  let labels = 1024;
  while (labels < searched) labels *= 2;
  // Four Int32 and two Float64 columns, the queue's items, a reference per label.
  const search = 5 * array(4 * labels) + 2 * array(8 * labels) + array(8 * labels) + 128;
  return columns + heuristic + search;
}

/** Per form: the search's scratch, and the pass's columns (made on first use). */
interface NearestScratch {
  readonly search: SearchScratch;
  pass: PassColumns | undefined;
}

const SCRATCH = Symbol('nearest search scratch');
const PRICE_BELOW = Symbol('least price below each node');
const DISTINCT_KIDS = Symbol('distinct children of each node');

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

/**
 * The distinct children and their cheapest values (nearest-changes.ts), kept per form for
 * the last prices asked, as `priceBelow`; made on the first pass that reads them.
 */
function distinctKidsOf(form: ConsistencyForm, price: Float64Array | undefined): DistinctKids {
  const slot = derived(form, DISTINCT_KIDS, () => ({
    price: undefined as Float64Array | undefined,
    kids: undefined as DistinctKids | undefined,
  }));
  if (slot.kids === undefined || slot.price !== price) {
    slot.kids = distinctKids(form, price);
    slot.price = price;
  }
  return slot.kids;
}
