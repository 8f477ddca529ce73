import type { ConsistencyForm } from './form.js';
import { FALSE, TRUE } from './mdd.js';
import { segmentsOf } from './prepared.js';
import { isConsistent } from './query.js';
import { type LayeredDiagram, layeredMins, type MinForm } from './weighted.js';

/**
 * The nearest valid configuration over a layered diagram (docs/model-format.md "Guided
 * configuration"): a path that keeps the forced restrictions and differs from the fewest
 * targets (the user's answers as diagram values), a shortest path with weight 1 on every
 * edge whose value differs from its layer's target. Ties: keep the targets of earlier
 * layers in `order` (the model's question order), then the least `price`.
 */
export interface NearestQuery {
  /** Per layer: the value the answers give it (a change costs 1), or -1 (no cost). */
  readonly target: Int32Array;
  /** Per layer: a forced value, or -1 free. */
  readonly fixed: Int32Array;
  /** Per value (flat): the last tie-break, the least weight (minor units), if any. */
  readonly price: Float64Array | undefined;
  /** The layers with a target, earliest question first: kept first among equal changes. */
  readonly order: readonly number[];
  /** At most this many pass pairs (one per tie that keeping an earlier answer breaks). */
  readonly maxPasses: number;
}

export interface Nearest {
  /** A value per layer (undefined: the forced restrictions have no valid completion). */
  readonly path: Int32Array | undefined;
  /** Targets the path differs from (the least there is). */
  readonly changes: number;
  /** false when the pass budget ran out before every tie was broken (still minimal). */
  readonly tiesBroken: boolean;
  /** Edges examined. */
  readonly examined: number;
}

/** Above this a composite weight (changes × scale + price) could leave exact doubles. */
const SAFE = 2 ** 52;

export function nearestPath(diagram: LayeredDiagram, query: NearestQuery): Nearest {
  return nearestOver(layeredMins(diagram), query);
}

/**
 * The nearest path over any form with (min, +) passes: one pass on composite weights,
 * then, per tie an earlier answer can break, the answer fixed and one pass more.
 */
export function nearestOver<P extends { readonly best: number; readonly examined: number }>(
  mins: MinForm<P>,
  query: NearestQuery,
): Nearest {
  const { domain, valueBase } = mins;
  const layers = domain.length;
  const { target } = query;
  // Composite weights: a change weighs more than every price difference together, so
  // the least composite weight has the fewest changes, and among those the least price.
  let spread = 0;
  const floor = new Float64Array(layers);
  if (query.price !== undefined) {
    for (let layer = 0; layer < layers; layer++) {
      let low = Infinity;
      let high = -Infinity;
      for (let at = valueBase[layer]; at < valueBase[layer + 1]; at++) {
        low = Math.min(low, query.price[at]);
        high = Math.max(high, query.price[at]);
      }
      floor[layer] = low;
      spread += high - low;
    }
  }
  const priced = query.price !== undefined && (spread + 1) * (layers + 1) < SAFE;
  const scale = priced ? spread + 1 : 1;
  const weight = new Float64Array(valueBase[layers]);
  for (let layer = 0; layer < layers; layer++) {
    for (let v = 0, at = valueBase[layer]; v < domain[layer]; v++, at++) {
      const change = target[layer] >= 0 && v !== target[layer] ? scale : 0;
      weight[at] = change + (priced ? (query.price as Float64Array)[at] - floor[layer] : 0);
    }
  }
  const fixed = query.fixed.slice();
  let pass = mins.pass(weight, fixed);
  let examined = pass.examined;
  if (pass.best === Infinity) return { path: undefined, changes: 0, tiesBroken: true, examined };
  const primary = (total: number): number => Math.floor(total / scale);
  const changes = primary(pass.best);
  let tiesBroken = true;
  let passes = 1;
  let through: Float64Array | undefined;
  for (const layer of query.order) {
    if (changes === 0) break;
    if (fixed[layer] >= 0) continue;
    through ??= mins.through(weight, fixed, pass);
    const kept = target[layer];
    const base = valueBase[layer];
    if (primary(through[base + kept]) !== changes) continue; // every nearest path changes it
    let changedBest = Infinity;
    for (let v = 0; v < domain[layer]; v++)
      if (v !== kept) changedBest = Math.min(changedBest, through[base + v]);
    if (primary(changedBest) !== changes) continue; // every nearest path keeps it
    if (passes >= query.maxPasses) {
      tiesBroken = false;
      break;
    }
    fixed[layer] = kept;
    pass = mins.pass(weight, fixed);
    examined += pass.examined;
    passes++;
    through = undefined;
  }
  return { path: mins.witness(weight, fixed, pass), changes, tiesBroken, examined };
}

/**
 * `nearestPath` segment by segment (segments.ts): a segment whose restrictions (targets
 * and forced values) already have a path needs no change; only the others are searched,
 * each as a diagram of its own (a copy of its nodes, its end node as TRUE). The changes
 * of independent segments add up, and so do their ties. On the returned path only the
 * layers with a target or a forced value are meaningful.
 */
export function nearestBySegment(form: ConsistencyForm, query: NearestQuery): Nearest {
  const { domain, valueBase, root } = form;
  const layers = domain.length;
  const path = new Int32Array(layers);
  const restricted = new Int32Array(layers);
  for (let layer = 0; layer < layers; layer++) {
    restricted[layer] = query.fixed[layer] >= 0 ? query.fixed[layer] : query.target[layer];
    path[layer] = Math.max(0, restricted[layer]);
  }
  if (root === FALSE) return { path: undefined, changes: 0, tiesBroken: true, examined: 0 };
  if (root === TRUE) return { path, changes: 0, tiesBroken: true, examined: 0 };
  const segments = segmentsOf(form);
  let changes = 0;
  let examined = 0;
  let tiesBroken = true;
  for (let s = 0; s < segments.fromLayer.length; s++) {
    if (isConsistent(form, restricted, s)) continue;
    const from = segments.fromLayer[s];
    const to = segments.toLayer[s];
    const sub = segmentDiagram(form, s);
    const first = valueBase[from];
    const found = nearestPath(sub, {
      target: query.target.subarray(from, to),
      fixed: query.fixed.subarray(from, to),
      price: query.price?.subarray(first, valueBase[to]),
      order: query.order
        .filter((layer) => layer >= from && layer < to)
        .map((layer) => layer - from),
      maxPasses: query.maxPasses,
    });
    examined += found.examined;
    if (found.path === undefined) return { path: undefined, changes: 0, tiesBroken, examined };
    path.set(found.path, from);
    changes += found.changes;
    tiesBroken &&= found.tiesBroken;
  }
  return { path, changes, tiesBroken, examined };
}

/** Segment s as a diagram of its own: its layers, its nodes (ids from 2), its end node TRUE. */
function segmentDiagram(form: ConsistencyForm, s: number): LayeredDiagram {
  const { domain, valueBase, nodeLayer, kidStart, kids } = form;
  const segments = segmentsOf(form);
  const from = segments.fromLayer[s];
  const to = segments.toLayer[s];
  const start = segments.startNode[s];
  const end = segments.endNode[s];
  const last = end === TRUE ? nodeLayer.length : end;
  const count = last - start + 2;
  const subLayer = new Int32Array(count).fill(-1);
  const subStart = new Int32Array(count);
  let edges = 0;
  for (let id = start; id < last; id++) edges += domain[nodeLayer[id]];
  const subKids = new Int32Array(edges);
  let at = 0;
  for (let id = start; id < last; id++) {
    const layer = nodeLayer[id];
    subLayer[id - start + 2] = layer - from;
    subStart[id - start + 2] = at;
    for (let v = 0, k = kidStart[id]; v < domain[layer]; v++, k++) {
      const child = kids[k];
      subKids[at++] = child === FALSE ? FALSE : child === end ? TRUE : child - start + 2;
    }
  }
  const base = valueBase[from];
  return {
    domain: domain.subarray(from, to),
    valueBase: valueBase.subarray(from, to + 1).map((value) => value - base),
    root: 2,
    nodeLayer: subLayer,
    kidStart: subStart,
    kids: subKids,
  };
}
