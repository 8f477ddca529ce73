import { TRUE } from '../consistency/mdd.js';
import { prepareForm } from '../consistency/prepared.js';
import { memoHolds } from '../consistency/segment-cache.js';
import { type SegmentedMins, segmentedMinPair } from '../consistency/segment-weights.js';
import type { CompiledModel } from '../model.js';
import { PRICE_BOUNDS_WORK } from './price-bounds.js';
import { priceTerms } from './price-terms.js';

/**
 * The price bounds' walks, run before availability (docs/adr/0236). Over a diagram, the
 * walks (consistency/pair-pass.ts) reach every node that availability's top-down pass
 * marks, and give each value the least weight of a valid path through it with the other
 * answers kept ("the answers minus itself"): finite exactly where the value is supported.
 * The backward walk also counts each reached node's paths, as availability's count pass
 * does. So when a click asks for price bounds, availability takes its supported values and
 * its counts from the walks and makes no pass of its own, where it made two before the
 * walks made theirs.
 */
export interface BoundWalks {
  /** segmentedMinPair's result on the least and the negated greatest weights. */
  readonly passes: readonly [SegmentedMins, SegmentedMins];
  /** Per value (flat): 1 when it has a valid completion with the other answers. */
  readonly supported: Uint8Array;
  /** Per segment: its paths under the answers (consistency/pair-pass.ts). */
  readonly counts: Array<number | bigint>;
}

/**
 * The walks under `fixed`, the user's answers, which must have a valid completion.
 * Undefined where price bounds take another way (no diagram, pricing without weights or
 * with every weight 0), where availability's results are kept from an earlier evaluation
 * of the same answers (segment-cache.ts), or past the work budget: availability then
 * makes its own pass.
 */
export function boundsFirst(
  model: CompiledModel,
  fixed: Int32Array,
  work = PRICE_BOUNDS_WORK,
): BoundWalks | undefined {
  const form = model.consistency;
  if (!form.compiled || form.root <= TRUE) return undefined;
  const { segments, memo } = prepareForm(form);
  if (memoHolds(form, segments, fixed, memo)) return undefined;
  const terms = priceTerms(model);
  if (terms.weights === undefined || terms.flat) return undefined;
  const { lo, negatedHi } = terms.weights;
  const counts = new Array<number | bigint>(segments.fromLayer.length);
  const passes = segmentedMinPair(form, [lo, negatedHi], fixed, work, undefined, counts);
  if (passes === undefined) return undefined;
  const least = passes[0].through;
  const supported = new Uint8Array(least.length);
  for (let at = 0; at < least.length; at++) if (least[at] !== Infinity) supported[at] = 1;
  return { passes, supported, counts };
}
