import { derived } from '../derived.js';
import type { ConsistencyForm } from './form.js';
import { FALSE, TRUE } from './mdd.js';
import type { Nearest, NearestQuery } from './nearest.js';
import {
  leastPriceToTrue,
  newSearchScratch,
  type SearchScratch,
  searchSpan,
} from './nearest-search.js';
import { prepareForm } from './prepared.js';
import { isConsistent } from './query.js';
import type { Work } from './work.js';

/**
 * The nearest valid configuration over a compiled form by best-first search
 * (nearest-search.ts), segment by segment (segments.ts): a segment whose restrictions
 * (targets and forced values) have a path keeps its answers (one completion check, which
 * stops at the first path); each other one is searched from its start node to its end
 * node. Segments are independent, so their least keys add up to the least key of the
 * whole: the fewest changes, the earliest answers kept, the least price. Exact, ties all
 * broken; OutOfWork (work.ts) when `work` runs out. On the returned path only the layers
 * with a target or a forced value are meaningful.
 */
export function searchedNearest(form: ConsistencyForm, query: NearestQuery, work?: Work): Nearest {
  const { domain, root } = form;
  const layers = domain.length;
  const path = new Int32Array(layers);
  const restricted = new Int32Array(layers);
  const rank = new Int32Array(layers).fill(-1);
  query.order.forEach((layer, i) => (rank[layer] = i));
  // A forced value that differs from its layer's answer is a change every path makes.
  let changes = 0;
  for (let layer = 0; layer < layers; layer++) {
    const { fixed, target } = query;
    restricted[layer] = fixed[layer] >= 0 ? fixed[layer] : target[layer];
    path[layer] = Math.max(0, restricted[layer]);
    if (fixed[layer] >= 0 && target[layer] >= 0 && fixed[layer] !== target[layer]) changes++;
  }
  const none = { path: undefined, changes: 0, tiesBroken: true, examined: 0 };
  if (root === FALSE) return none;
  if (root === TRUE) return { path, changes, tiesBroken: true, examined: 0 };
  const { segments } = prepareForm(form);
  const scratch = searchScratch(form);
  const search = {
    target: query.target,
    fixed: query.fixed,
    rank,
    price: query.price,
    priceBelow: query.price === undefined ? undefined : priceBelow(form, query.price),
  };
  const before = work?.left ?? 0;
  for (let s = 0; s < segments.fromLayer.length; s++) {
    const fromLayer = segments.fromLayer[s];
    const toLayer = segments.toLayer[s];
    let open = true;
    for (let layer = fromLayer; layer < toLayer && open; layer++) open = restricted[layer] < 0;
    if (open || isConsistent(form, restricted, s, work)) continue;
    const span = { start: segments.startNode[s], end: segments.endNode[s], fromLayer, toLayer };
    const found = searchSpan(form, search, span, path, scratch, work);
    if (found === undefined) return none;
    changes += found.changes;
  }
  const examined = work === undefined ? 0 : before - work.left;
  return { path, changes, tiesBroken: true, examined };
}

const SCRATCH = Symbol('nearest search scratch');
const PRICE_BELOW = Symbol('least price below each node');

function searchScratch(form: ConsistencyForm): SearchScratch {
  return derived(form, SCRATCH, () => newSearchScratch(prepareForm(form).visit));
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
