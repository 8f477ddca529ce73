import { derived } from '../derived.js';
import type { ConsistencyForm } from './form.js';
import { FALSE, TRUE } from './mdd.js';
import { segmentsOf } from './prepared.js';
import { liveValues } from './query.js';

/**
 * The (min, +) queries of weighted.ts segment by segment (segments.ts): every valid path
 * goes through each segment's start and end node, so the least weight is the sum of each
 * segment's least weight (and of the free layers above the root), and a value's least
 * weight is its segment's plus every other segment's. A segment's result depends only on
 * its own layers' restrictions, so it is kept per weights and restrictions
 * (`SEGMENT_ENTRIES`): consecutive clicks change one answer and recompute one segment.
 */
export interface SegmentedMins {
  /** The least weight of a path that keeps the restrictions (Infinity: none). */
  readonly best: number;
  /** Per value (flat): the least weight through it, its own layer's restriction left out. */
  readonly through: Float64Array;
}

/** Results kept per segment and weights (most recent first out when full). */
const SEGMENT_ENTRIES = 32;
/** At most this many bytes of kept results per weights of a form. */
const MEMO_BYTES = 4 * 1024 * 1024;

interface SegmentResult {
  readonly best: number;
  /** Per value of the segment's layers (from its first value): least weight start → end through it. */
  readonly values: Float64Array;
}

interface Scratch {
  readonly form: ConsistencyForm;
  readonly down: Float64Array;
  readonly up: Float64Array;
  readonly memo: Array<Map<string, SegmentResult>>;
  readonly entries: number;
}

const SCRATCH = Symbol('segment weights');

/** The weights' scratch and kept results for `form` (weights are made for one form). */
function scratchOf(form: ConsistencyForm, weight: Float64Array): Scratch {
  return derived(weight, SCRATCH, () => {
    const count = form.nodeLayer.length;
    const values = form.valueBase[form.domain.length];
    return {
      form,
      down: new Float64Array(count),
      up: new Float64Array(count),
      memo: [],
      entries: Math.max(1, Math.min(SEGMENT_ENTRIES, Math.floor(MEMO_BYTES / (8 * values + 64)))),
    };
  });
}

export function segmentedMins(
  form: ConsistencyForm,
  weight: Float64Array,
  fixed: Int32Array,
): SegmentedMins {
  const { domain, valueBase, root, nodeLayer } = form;
  const layers = domain.length;
  const through = new Float64Array(valueBase[layers]).fill(Infinity);
  if (root === FALSE) return { best: Infinity, through };
  const free = new Float64Array(layers);
  for (let layer = 0; layer < layers; layer++) {
    const f = fixed[layer];
    let least = Infinity;
    for (let v = f >= 0 ? f : 0, hi = f >= 0 ? f + 1 : domain[layer]; v < hi; v++)
      least = Math.min(least, weight[valueBase[layer] + v]);
    free[layer] = least;
  }
  const top = root === TRUE ? layers : nodeLayer[root];
  let above = 0;
  for (let layer = 0; layer < top; layer++) above += free[layer];
  const results: SegmentResult[] = [];
  if (root !== TRUE) {
    const scratch = scratchOf(form, weight);
    const segments = segmentsOf(form);
    for (let s = 0; s < segments.fromLayer.length; s++)
      results.push(segmentResult(scratch, weight, fixed, free, s));
  }
  let finite = above;
  let infinite = 0;
  for (const result of results)
    if (result.best === Infinity) infinite++;
    else finite += result.best;
  const best = infinite > 0 ? Infinity : finite;
  if (infinite > 1) return { best, through };
  if (infinite === 0)
    for (let layer = 0; layer < top; layer++)
      for (let at = valueBase[layer]; at < valueBase[layer + 1]; at++)
        through[at] = best - free[layer] + weight[at];
  if (root === TRUE) return { best, through };
  const segments = segmentsOf(form);
  results.forEach((result, s) => {
    if (infinite === 1 && result.best !== Infinity) return;
    const others = infinite === 1 ? finite : finite - result.best;
    const from = valueBase[segments.fromLayer[s]];
    const { values } = result;
    for (let i = 0; i < values.length; i++) through[from + i] = values[i] + others;
  });
  return { best, through };
}

function segmentResult(
  scratch: Scratch,
  weight: Float64Array,
  fixed: Int32Array,
  free: Float64Array,
  s: number,
): SegmentResult {
  const form = scratch.form;
  const segments = segmentsOf(form);
  const from = segments.fromLayer[s];
  const to = segments.toLayer[s];
  const key = fixed.subarray(from, to).join(',');
  const memo = (scratch.memo[s] ??= new Map());
  const known = memo.get(key);
  if (known !== undefined) return known;
  const result = computeSegment(scratch, weight, fixed, free, s);
  if (memo.size >= scratch.entries) memo.delete(memo.keys().next().value as string);
  memo.set(key, result);
  return result;
}

/** Forward and backward passes inside segment s, then each value's least weight through it. */
function computeSegment(
  { form, down, up }: Scratch,
  weight: Float64Array,
  fixed: Int32Array,
  free: Float64Array,
  s: number,
): SegmentResult {
  const { domain, valueBase, nodeLayer, kidStart, kids } = form;
  const segments = segmentsOf(form);
  const from = segments.fromLayer[s];
  const to = segments.toLayer[s];
  const start = segments.startNode[s];
  const end = segments.endNode[s];
  const last = end === TRUE ? nodeLayer.length : end;
  // Prefix sums of the free weights over the segment's layers (skipped layers).
  const before = new Float64Array(to - from + 1);
  for (let layer = from; layer < to; layer++)
    before[layer - from + 1] = before[layer - from] + free[layer];
  const layerOf = (child: number): number => (child === end ? to : nodeLayer[child]);
  down.fill(Infinity, start, last);
  down[start] = 0;
  for (let id = start; id < last; id++) {
    const above = down[id];
    if (above === Infinity) continue;
    const layer = nodeLayer[id];
    const f = fixed[layer];
    const first = kidStart[id];
    const base = valueBase[layer];
    const after = before[layer + 1 - from];
    for (let v = f >= 0 ? f : 0, hi = f >= 0 ? f + 1 : domain[layer]; v < hi; v++) {
      const child = kids[first + v];
      if (child === FALSE || child === end) continue;
      const total = above + weight[base + v] + before[nodeLayer[child] - from] - after;
      if (total < down[child]) down[child] = total;
    }
  }
  for (let id = last - 1; id >= start; id--) {
    const layer = nodeLayer[id];
    const f = fixed[layer];
    const first = kidStart[id];
    const base = valueBase[layer];
    const after = before[layer + 1 - from];
    let least = Infinity;
    for (let v = f >= 0 ? f : 0, hi = f >= 0 ? f + 1 : domain[layer]; v < hi; v++) {
      const child = kids[first + v];
      if (child === FALSE) continue;
      const below = child === end ? 0 : up[child];
      if (below === Infinity) continue;
      const total = weight[base + v] + before[layerOf(child) - from] - after + below;
      if (total < least) least = total;
    }
    up[id] = least;
  }
  const best = up[start];
  const offset = valueBase[from];
  const values = new Float64Array(valueBase[to] - offset).fill(Infinity);
  const around = new Float64Array(to - from).fill(Infinity);
  for (let id = start; id < last; id++) {
    const above = down[id];
    if (above === Infinity) continue;
    const layer = nodeLayer[id];
    const first = kidStart[id];
    const base = valueBase[layer];
    const after = before[layer + 1 - from];
    const allowed = fixed[layer];
    for (let v = 0; v < domain[layer]; v++) {
      const child = kids[first + v];
      if (child === FALSE) continue;
      const below = child === end ? 0 : up[child];
      if (below === Infinity) continue;
      const next = layerOf(child);
      const total = above + weight[base + v] + before[next - from] - after + below;
      if (total < values[base + v - offset]) values[base + v - offset] = total;
      if (next === layer + 1 || (allowed >= 0 && v !== allowed)) continue;
      for (let skipped = layer + 1; skipped < next; skipped++) {
        const without = total - free[skipped];
        if (without < around[skipped - from]) around[skipped - from] = without;
      }
    }
  }
  for (let layer = from; layer < to; layer++) {
    const rest = around[layer - from];
    if (rest === Infinity) continue;
    for (let at = valueBase[layer]; at < valueBase[layer + 1]; at++)
      if (rest + weight[at] < values[at - offset]) values[at - offset] = rest + weight[at];
  }
  return { best, values };
}

/**
 * Edge visits `segmentedMins` would make now: three per edge of each segment whose result
 * for these restrictions is not kept. Lets a caller stay within a work budget.
 */
export function segmentedWork(
  form: ConsistencyForm,
  weight: Float64Array,
  fixed: Int32Array,
): number {
  if (form.root <= TRUE) return 0;
  const scratch = scratchOf(form, weight);
  const segments = segmentsOf(form);
  const { kidStart, kids, nodeLayer } = form;
  let work = 0;
  for (let s = 0; s < segments.fromLayer.length; s++) {
    const key = fixed.subarray(segments.fromLayer[s], segments.toLayer[s]).join(',');
    if (scratch.memo[s]?.has(key) === true) continue;
    const end = segments.endNode[s];
    const last = end === TRUE ? nodeLayer.length : end;
    work +=
      3 *
      ((last < nodeLayer.length ? kidStart[last] : kids.length) - kidStart[segments.startNode[s]]);
  }
  return work;
}

/**
 * Sound bounds without passes (past the work budget). Every valid completion of the answers
 * takes, on each layer, its restricted value or a value `support` marks (one with a valid
 * completion with the other answers), so the least weight is at least the sum of each
 * layer's least such weight. A value's completions may use other values on the free layers:
 * any live one (a value of some valid configuration), so its bound sums those.
 */
export function boxMins(
  form: ConsistencyForm,
  weight: Float64Array,
  fixed: Int32Array,
  support: Uint8Array,
): SegmentedMins {
  const { domain, valueBase } = form;
  const layers = domain.length;
  const live = liveValues(form);
  const through = new Float64Array(valueBase[layers]).fill(Infinity);
  const least = new Float64Array(layers);
  let best = 0;
  let loose = 0;
  for (let layer = 0; layer < layers; layer++) {
    let low = Infinity;
    let lowLive = Infinity;
    for (let v = 0, at = valueBase[layer]; v < domain[layer]; v++, at++) {
      const own = fixed[layer] >= 0 ? v === fixed[layer] : undefined;
      if ((own ?? support[at] === 1) && weight[at] < low) low = weight[at];
      if ((own ?? live[at] === 1) && weight[at] < lowLive) lowLive = weight[at];
    }
    least[layer] = lowLive;
    best += low;
    loose += lowLive;
  }
  for (let layer = 0; layer < layers; layer++)
    for (let at = valueBase[layer]; at < valueBase[layer + 1]; at++)
      if (support[at] === 1) through[at] = loose - least[layer] + weight[at];
  return { best, through };
}
