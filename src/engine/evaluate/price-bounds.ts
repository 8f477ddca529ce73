import { circuitMinPair, circuitPairWork, weightedCircuit } from '../consistency/dnnf-guided.js';
import type { ConsistencyForm } from '../consistency/form.js';
import { prepareForm } from '../consistency/prepared.js';
import { isConsistent } from '../consistency/query.js';
import { boxMins, type SegmentedMins, segmentedMinPair } from '../consistency/segment-weights.js';

/**
 * Edges the price bounds of one evaluation may read. Over the diagram the walks count the
 * edges they read as they go (consistency/pair-pass.ts: live edges of the nodes a result
 * reads, docs/adr/0214) and stop past it; over the decision-DNNF, two per edge, counted
 * before the passes. Enough for every click on the 268-question car (its walks read at most
 * about 2.2 million: nothing answered, every node reached). Past it the bounds are sound
 * but not exact (docs/adr/0140).
 */
export const PRICE_BOUNDS_WORK = 4_000_000;
import type { CompiledModel } from '../model.js';
import { Money, round } from '../money.js';
import type { PriceBoundsStatus, PriceRange } from '../types.js';
import { monotonePercents, type PriceTerms, priceTerms } from './price-terms.js';

/** Price bounds of one evaluation, totals in minor units (docs/model-format.md "Guided configuration"). */
export interface PriceBounds {
  readonly range: PriceRange | null;
  readonly status: PriceBoundsStatus;
  /** Per diagram value (flat): the least / greatest total through it (±Infinity: none). */
  readonly from: Float64Array | undefined;
  readonly to: Float64Array | undefined;
  /** Formats a total in minor units as `pricing.total` does. */
  readonly format: (minor: number) => string;
}

/**
 * The lowest and highest `pricing.total` over the valid completions of the answers
 * (`fixed`, the user's answers as diagram restrictions), for the line and per value: (min, +)
 * passes over the diagram on the least and the negated greatest weights together
 * (consistency/segment-weights.ts), or past the diagram's budget over the decision-DNNF
 * (consistency/dnnf-guided.ts), then the percent adjustments on the subtotal's extremes.
 * `walked`: the diagram's passes, when they ran before availability (bounds-first.ts).
 */
export function priceBounds(
  model: CompiledModel,
  fixed: Int32Array,
  support: Uint8Array | undefined,
  work = PRICE_BOUNDS_WORK,
  walked?: readonly [SegmentedMins, SegmentedMins],
): PriceBounds {
  const form = model.consistency;
  const { scale } = model.pricing;
  const unit = new Money(10).pow(scale);
  const format = (minor: number): string => minorText(minor, scale);
  const none = (reason: string): PriceBounds => ({
    range: null,
    status: { exact: false, reason },
    from: undefined,
    to: undefined,
    format,
  });
  const circuit = form.compiled ? undefined : weightedCircuit(form);
  if (!form.compiled && circuit === undefined)
    return none('past the compile budget: no diagram to bound prices over');
  const terms = priceTerms(model);
  if (terms.weights === undefined) return none(terms.reason ?? 'pricing cannot be bounded');
  const { lo, negatedHi } = terms.weights;
  if (terms.flat) return flatBounds(model, terms, fixed, support, format);
  // Past the work budget (a diagram far larger than what one click reads): sound bounds
  // from the supported values alone, said so.
  const pair = [lo, negatedHi] as const;
  const passes =
    walked ??
    (circuit === undefined
      ? segmentedMinPair(form, pair, fixed, work, support)
      : circuitPairWork(circuit) <= work
        ? circuitMinPair(circuit, pair, fixed)
        : undefined);
  const boxed = passes === undefined;
  if (boxed && support === undefined) return none('past the price bounds work budget');
  // Values with a valid configuration when nothing is answered (what a free layer may take).
  const live = circuit === undefined ? undefined : prepareForm(form).dnnf?.base;
  const [least, greatest] = passes ?? [
    boxMins(form, lo, fixed, support as Uint8Array, live),
    boxMins(form, negatedHi, fixed, support as Uint8Array, live),
  ];
  const total = totals(terms, unit, model.pricing);
  let range: PriceRange | null = null;
  if (least.best !== Infinity) {
    const [min, max] = total(least.best + terms.constantLo, -greatest.best + terms.constantHi);
    range = { min: format(min), max: format(max) };
  }
  const from = least.through;
  const to = greatest.through;
  const plain = terms.percents.length === 0;
  const { constantLo, constantHi, amountLo, amountHi } = terms;
  for (let i = 0; i < from.length; i++) {
    if (from[i] === Infinity) {
      to[i] = -Infinity;
      continue;
    }
    if (plain) {
      from[i] += constantLo + amountLo;
      to[i] = -to[i] + constantHi + amountHi;
    } else [from[i], to[i]] = total(from[i] + constantLo, -to[i] + constantHi);
  }
  const exact = !boxed && terms.exact && form.exact && monotonePercents(terms.percents);
  const reason = exact
    ? undefined
    : [
        boxed ? `past the price bounds work budget (${work} edges read)` : undefined,
        terms.reason,
        form.exact ? undefined : `the diagram is not exact (${form.reason ?? ''})`,
      ]
        .filter((part) => part !== undefined)
        .join('; ') || 'pricing does not decompose over the finite part';
  return {
    range,
    status: exact ? { exact } : { exact, reason },
    from,
    to,
    format,
  };
}

/**
 * Every weight 0 (no option prices, no conditional terms): every completion has the same
 * subtotal, so a completion check replaces the passes; a value's bounds are the same
 * wherever it has a completion (`support`).
 */
function flatBounds(
  model: CompiledModel,
  terms: PriceTerms,
  fixed: Int32Array,
  support: Uint8Array | undefined,
  format: (minor: number) => string,
): PriceBounds {
  const form = model.consistency;
  const unit = new Money(10).pow(model.pricing.scale);
  const [min, max] = totals(terms, unit, model.pricing)(terms.constantLo, terms.constantHi);
  const values = form.valueBase[form.domain.length];
  const from = new Float64Array(values).fill(Infinity);
  const to = new Float64Array(values).fill(-Infinity);
  if (support !== undefined)
    for (let i = 0; i < values; i++)
      if (support[i] === 1) {
        from[i] = min;
        to[i] = max;
      }
  const exact = terms.exact && form.exact && monotonePercents(terms.percents);
  return {
    range: completable(form, fixed) ? { min: format(min), max: format(max) } : null,
    status: exact
      ? { exact }
      : { exact, reason: terms.reason ?? `the diagram is not exact (${form.reason ?? ''})` },
    from,
    to,
    format,
  };
}

/** Whether the answers have a valid completion (over the diagram, or the decision-DNNF). */
function completable(form: ConsistencyForm, fixed: Int32Array): boolean {
  const { dnnf } = prepareForm(form);
  return form.compiled || dnnf === undefined ? isConsistent(form, fixed) : dnnf.consistent(fixed);
}

/** An integer of minor units as a decimal text with `scale` decimals (exact below 2^53). */
export function minorText(minor: number, scale: number): string {
  const digits = Math.abs(minor)
    .toFixed(0)
    .padStart(scale + 1, '0');
  const sign = minor < 0 ? '-' : '';
  return scale === 0
    ? `${sign}${digits}`
    : `${sign}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/**
 * The total's bounds from the subtotal's bounds: with monotone percents (price-terms.ts)
 * the totals of the extreme subtotals; otherwise each percent's amount is monotone in the
 * subtotal (either way), so its extremes over the interval are at its ends (and 0 when it
 * is conditional): a sound bound of every total.
 */
function totals(
  terms: PriceTerms,
  unit: Money,
  { scale, mode }: CompiledModel['pricing'],
): (low: number, high: number) => [number, number] {
  const amount = (subtotal: number, percent: Money): number =>
    round(new Money(subtotal).dividedBy(unit).times(percent).dividedBy(100), scale, mode)
      .times(unit)
      .toNumber();
  const monotone = monotonePercents(terms.percents);
  return (low, high) => {
    let least = low + terms.amountLo;
    let greatest = high + terms.amountHi;
    for (const { percent, conditional } of terms.percents) {
      if (monotone) {
        least += amount(low, percent);
        greatest += amount(high, percent);
        continue;
      }
      const ends = [amount(low, percent), amount(high, percent)];
      if (conditional) ends.push(0);
      least += Math.min(...ends);
      greatest += Math.max(...ends);
    }
    return [least, greatest];
  };
}
