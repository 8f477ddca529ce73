import { derived } from '../derived.js';
import type { ConsistencyForm } from './form.js';
import { FALSE, TRUE } from './mdd.js';
import { segmentsOf } from './prepared.js';
import { type PairResult, pairPass } from './pair-pass.js';
import { newPairScratch, type PairScratch, pairScratchBytes } from './pair-scratch.js';
import { liveValues } from './query.js';
import { segmentSpan } from './segments.js';

/**
 * The (min, +) queries of weighted.ts segment by segment (segments.ts), for a pair of
 * weights at once (pair-pass.ts): every valid path goes through each segment's start and
 * end node, so the least weight is the sum of each segment's least weight (and of the free
 * layers above the root), and a value's least weight is its segment's plus every other
 * segment's. A segment's result depends only on its own layers' restrictions, so it is
 * kept per weights and restrictions (`SEGMENT_ENTRIES`): consecutive clicks change one
 * answer and recompute one segment.
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

interface Scratch {
  readonly form: ConsistencyForm;
  /** The weights paired with the ones this scratch hangs on. */
  readonly second: Float64Array;
  /** Made by the first pass. */
  pass: PairScratch | undefined;
  readonly memo: Array<Map<string, PairResult>>;
  readonly entries: number;
}

const SCRATCH = Symbol('segment weights');

/** How many results each segment keeps per weights of `form`. */
function entriesOf(form: ConsistencyForm): number {
  const values = form.valueBase[form.domain.length];
  return Math.max(1, Math.min(SEGMENT_ENTRIES, Math.floor(MEMO_BYTES / (16 * values + 64))));
}

/** The scratch and kept results of a weight pair on `form` (weights are made for one form). */
function scratchOf(form: ConsistencyForm, [a, b]: WeightPair): Scratch {
  const build = (): Scratch => ({
    form,
    second: b,
    pass: undefined,
    memo: [],
    entries: entriesOf(form),
  });
  const kept = derived(a, SCRATCH, build);
  // Another pairing of the same weights (not made by price bounds): correct, not kept.
  return kept.form === form && kept.second === b ? kept : build();
}

export type WeightPair = readonly [Float64Array, Float64Array];

/**
 * The most the price bounds of a model can hold on its form while in use: the weights
 * (least, greatest and negated greatest, price-terms.ts), the pass's node-sized scratch
 * (pair-pass.ts) and, per segment, the kept results: their two per-value arrays, the result
 * and the Map entry, and the key (a value or -1 per layer and a comma). Typed arrays and
 * objects at their V8 layout cost, as heap-estimate.ts counts them. Counted up front in the
 * compiled-model cache's bytes: the cache sizes an entry once, when it keeps it.
 */
export function priceBoundsBytes(form: ConsistencyForm): number {
  if (!form.compiled || form.root <= TRUE) return 0;
  const { domain, valueBase } = form;
  const layers = domain.length;
  const array = (bytes: number): number => 96 + bytes;
  const weights = 3 * array(8 * valueBase[layers]);
  const scratch = pairScratchBytes(form, array);
  const segments = segmentsOf(form);
  let kept = 0;
  for (let s = 0; s < segments.fromLayer.length; s++) {
    const from = segments.fromLayer[s];
    const to = segments.toLayer[s];
    let key = 24;
    for (let layer = from; layer < to; layer++)
      key += Math.max(2, String(domain[layer] - 1).length) + 1;
    const values = 2 * array(8 * (valueBase[to] - valueBase[from]));
    kept += 64 + entriesOf(form) * (values + 112 + 48 + key);
  }
  return weights + scratch + kept;
}

/** Per layer the least weight its restriction allows (what a skipping edge adds). */
function freeWeights(form: ConsistencyForm, weight: Float64Array, fixed: Int32Array): Float64Array {
  const { domain, valueBase } = form;
  const free = new Float64Array(domain.length);
  for (let layer = 0; layer < domain.length; layer++) {
    const f = fixed[layer];
    let least = Infinity;
    for (let v = f >= 0 ? f : 0, hi = f >= 0 ? f + 1 : domain[layer]; v < hi; v++)
      least = Math.min(least, weight[valueBase[layer] + v]);
    free[layer] = least;
  }
  return free;
}

/**
 * `segmentedMins` of both weights of the pair, in one set of passes per segment. Undefined
 * when the walks of the segments to recompute would read more than `budget` edges, and
 * always under a negative budget (no passes at all). `support`: the supported values under
 * `fixed` (query.ts `supports`), which lets the walks leave out what no completion takes.
 * `counts`, when given: filled with each segment's paths under `fixed` (PairResult.count).
 */
export function segmentedMinPair(
  form: ConsistencyForm,
  weights: WeightPair,
  fixed: Int32Array,
  budget = Infinity,
  support?: Uint8Array,
  counts?: Array<number | bigint>,
): [SegmentedMins, SegmentedMins] | undefined {
  if (budget < 0) return undefined;
  const free = [
    freeWeights(form, weights[0], fixed),
    freeWeights(form, weights[1], fixed),
  ] as const;
  const results: PairResult[] = [];
  if (form.root > TRUE) {
    const scratch = scratchOf(form, weights);
    const segments = segmentsOf(form);
    let left = budget;
    for (let s = 0; s < segments.fromLayer.length; s++) {
      const result = segmentResult(
        scratch,
        weights,
        free,
        fixed,
        s,
        left,
        support,
        counts !== undefined,
      );
      if (result === undefined) return undefined;
      results.push(result.result);
      if (counts !== undefined) counts[s] = result.result.count as number | bigint;
      left -= result.work;
    }
  }
  const bests = (first: boolean): number[] => results.map((r) => (first ? r.bestA : r.bestB));
  const values = (first: boolean): Float64Array[] =>
    results.map((r) => (first ? r.valuesA : r.valuesB));
  return [
    assemble(form, weights[0], free[0], bests(true), values(true)),
    assemble(form, weights[1], free[1], bests(false), values(false)),
  ];
}

/** The whole diagram's least weights from the segments' (and the free layers above the root). */
function assemble(
  form: ConsistencyForm,
  weight: Float64Array,
  free: Float64Array,
  bests: readonly number[],
  values: readonly Float64Array[],
): SegmentedMins {
  const { domain, valueBase, root, nodeLayer } = form;
  const layers = domain.length;
  const through = new Float64Array(valueBase[layers]).fill(Infinity);
  if (root === FALSE) return { best: Infinity, through };
  const top = root === TRUE ? layers : nodeLayer[root];
  let finite = 0;
  for (let layer = 0; layer < top; layer++) finite += free[layer];
  let infinite = 0;
  for (const best of bests)
    if (best === Infinity) infinite++;
    else finite += best;
  const best = infinite > 0 ? Infinity : finite;
  if (infinite > 1) return { best, through };
  if (infinite === 0)
    for (let layer = 0; layer < top; layer++)
      for (let at = valueBase[layer]; at < valueBase[layer + 1]; at++)
        through[at] = best - free[layer] + weight[at];
  if (root === TRUE) return { best, through };
  const segments = segmentsOf(form);
  bests.forEach((own, s) => {
    if (infinite === 1 && own !== Infinity) return;
    const others = infinite === 1 ? finite : finite - own;
    const from = valueBase[segments.fromLayer[s]];
    const kept = values[s];
    for (let i = 0; i < kept.length; i++) through[from + i] = kept[i] + others;
  });
  return { best, through };
}

/**
 * Segment `s`'s result (kept, or walked now within `budget`) and the edges it read now;
 * with its count when `counted` (a kept result without one is walked again).
 */
function segmentResult(
  scratch: Scratch,
  weights: WeightPair,
  free: readonly [Float64Array, Float64Array],
  fixed: Int32Array,
  s: number,
  budget: number,
  support: Uint8Array | undefined,
  counted: boolean,
): { result: PairResult; work: number } | undefined {
  const form = scratch.form;
  const segments = segmentsOf(form);
  const from = segments.fromLayer[s];
  const to = segments.toLayer[s];
  const key = fixed.subarray(from, to).join(',');
  const memo = (scratch.memo[s] ??= new Map());
  const known = memo.get(key);
  if (known !== undefined && (!counted || known.count !== undefined))
    return { result: known, work: 0 };
  const pass = (scratch.pass ??= newPairScratch(form));
  const own = support !== undefined && ownSupport(form, support, from) ? support : undefined;
  const span = segmentSpan(segments, s);
  const result = pairPass(form, span, weights, free, fixed, pass, own, budget, counted);
  if (result === undefined) return undefined;
  memo.delete(key);
  if (memo.size >= scratch.entries) memo.delete(memo.keys().next().value as string);
  memo.set(key, result);
  return { result, work: result.work };
}

/**
 * Whether `support` holds the segment's own supported values: `supports` zeroes every
 * segment but the one whose restrictions have no completion, and a segment's result is
 * kept by its own restrictions alone, so a zeroed segment is passed over without support.
 */
function ownSupport(form: ConsistencyForm, support: Uint8Array, from: number): boolean {
  for (let at = form.valueBase[from]; at < form.valueBase[from + 1]; at++)
    if (support[at] === 1) return true;
  return false;
}

/**
 * Sound bounds without passes (past the work budget). Every valid completion of the answers
 * takes, on each layer, its restricted value or a value `support` marks (one with a valid
 * completion with the other answers), so the least weight is at least the sum of each
 * layer's least such weight. A value's completions may use other values on the free layers:
 * any live one (a value of some valid configuration), so its bound sums those (`live`:
 * the diagram's unless given, as a form past the diagram's budget has none).
 */
export function boxMins(
  form: ConsistencyForm,
  weight: Float64Array,
  fixed: Int32Array,
  support: Uint8Array,
  live = liveValues(form),
): SegmentedMins {
  const { domain, valueBase } = form;
  const layers = domain.length;
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
