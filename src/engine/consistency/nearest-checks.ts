import type { ConsistencyForm } from './form.js';
import { explainConflict } from './explain.js';
import { TRUE } from './mdd.js';
import { type Nearest, nearestBySegment, type NearestQuery } from './nearest.js';
import { searchedNearest } from './nearest-by-search.js';
import { segmentsOf } from './prepared.js';
import { isConsistent } from './query.js';
import { type Work, withinBudget } from './work.js';

/** Work (edges examined) of the bounded resolution: its checks, and the passes it may run. */
export const RESOLUTION_WORK = 10_000_000;

/**
 * The nearest configuration within a work budget: the search and bounded passes of
 * nearest-by-search.ts; past the budget (a diagram larger than any compiled so far), by
 * completion checks before passes:
 * - a lower bound: disjoint minimal conflicts among the targets (QuickXplain, explain.ts,
 *   each found without the targets of those before): at least one change each;
 * - the targets kept greedily in `order` (each kept when the kept ones still have a
 *   path): the lexicographically first kept set, an upper bound;
 * - equal bounds: that set is nearest and keeps the earliest answers; each released
 *   target then takes its cheapest value (by `price`) that keeps a path.
 * Otherwise the passes (`nearestBySegment`) when the segments they would read fit the
 * budget, else the greedy set with `exact: false` (minimality not proven).
 */
export function boundedNearest(
  form: ConsistencyForm,
  query: NearestQuery,
  budget = RESOLUTION_WORK,
): (Nearest & { exact: boolean }) | undefined {
  const searched = withinBudget(() => searchedNearest(form, query, { left: budget }));
  if (searched !== undefined) return { ...searched, exact: true };
  const work: Work = { left: budget };
  const quick = withinBudget(() => quickNearest(form, query, work));
  if (quick !== undefined && quick.exact) return quick;
  if (passWork(form, query) <= Math.max(0, work.left)) {
    const exact = nearestBySegment(form, query);
    return { ...exact, exact: true };
  }
  // Out of budget before the bounds met: the greedy set, unproven (its checks unbounded:
  // each is one partial search).
  return quick ?? quickNearest(form, query, { left: Infinity });
}

function quickNearest(
  form: ConsistencyForm,
  query: NearestQuery,
  work: Work,
): (Nearest & { exact: boolean }) | undefined {
  const layers = form.domain.length;
  const background = Int32Array.from(query.fixed);
  if (!isConsistent(form, background, -1, work)) return undefined;
  const units = query.order.map((layer) => ({ layers: [layer], values: [query.target[layer]] }));
  let lower = 0;
  let remaining = units.map((_, i) => i);
  for (;;) {
    const found = explainConflict(
      form,
      remaining.map((i) => units[i]),
      background,
      { work },
    );
    if (found === undefined || found.length === 0) break;
    lower++;
    const inConflict = new Set(found.map((i) => remaining[i]));
    remaining = remaining.filter((i) => !inConflict.has(i));
  }
  const restricted = Int32Array.from(background);
  const released: number[] = [];
  for (const layer of query.order) {
    restricted[layer] = query.target[layer];
    if (!isConsistent(form, restricted, -1, work)) {
      restricted[layer] = -1;
      released.push(layer);
    }
  }
  for (const layer of released) {
    const base = form.valueBase[layer];
    const kept = query.target[layer];
    const values = Array.from({ length: form.domain[layer] }, (_, v) => v)
      .filter((v) => v !== kept)
      .sort((a, b) => (query.price?.[base + a] ?? 0) - (query.price?.[base + b] ?? 0) || a - b);
    for (const value of values) {
      restricted[layer] = value;
      if (isConsistent(form, restricted, -1, work)) break;
      restricted[layer] = -1;
    }
  }
  const path = new Int32Array(layers);
  for (let layer = 0; layer < layers; layer++) path[layer] = Math.max(0, restricted[layer]);
  return {
    path,
    changes: released.length,
    tiesBroken: true,
    examined: 0,
    exact: released.length === lower,
  };
}

/** Edges the passes of `nearestBySegment` would read: three per edge of each conflicting segment. */
function passWork(form: ConsistencyForm, query: NearestQuery): number {
  if (form.root <= TRUE) return 0;
  const segments = segmentsOf(form);
  const { kidStart, kids, nodeLayer } = form;
  let edges = 0;
  for (let s = 0; s < segments.fromLayer.length; s++) {
    const from = segments.fromLayer[s];
    const to = segments.toLayer[s];
    if (!query.order.some((layer) => layer >= from && layer < to)) continue;
    const end = segments.endNode[s];
    const last = end === TRUE ? nodeLayer.length : end;
    edges +=
      (last < nodeLayer.length ? kidStart[last] : kids.length) - kidStart[segments.startNode[s]];
  }
  return 3 * edges;
}
