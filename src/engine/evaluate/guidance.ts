import type { CompiledModel } from '../model.js';
import type {
  CompactLineQuestion,
  LineQuestion,
  PriceBounds as ValueBounds,
  PriceBoundsStatus,
  PriceRange,
} from '../types.js';
import type { BoundWalks } from './bounds-first.js';
import { type PriceBounds, priceBounds } from './price-bounds.js';
import type { EvaluationState } from './state.js';
import { allowedValues } from './value-availability.js';

/** The line's guidance members (docs/model-format.md "Guided configuration"). */
export interface LineGuidance {
  price_range: PriceRange | null;
  price_bounds: PriceBoundsStatus;
}

/**
 * Adds the guidance to the line's questions (either view) and returns the line's own
 * members: `allowed` on finite integer questions, price bounds per available option
 * (`price_from`/`price_to` in the full view, `option_prices` in the compact one) and per
 * boolean value (`value_prices`). `fixed`: the user's answers as restrictions; `walked`:
 * the bounds' walks when they ran before availability (bounds-first.ts).
 */
export function addGuidance(
  model: CompiledModel,
  state: EvaluationState,
  fixed: Int32Array,
  questions: ReadonlyArray<LineQuestion | CompactLineQuestion>,
  compact: boolean,
  withPrices: boolean,
  work?: number,
  walked?: BoundWalks,
): LineGuidance {
  for (const question of model.questions) {
    const allowed = allowedValues(model, state, question);
    if (allowed !== undefined) questions[question.index].allowed = allowed;
  }
  if (!withPrices)
    return { price_range: null, price_bounds: { exact: false, reason: 'not asked' } };
  const bounds = priceBounds(model, fixed, state.valueSupport, work, walked?.passes);
  if (bounds.from !== undefined) attachPrices(model, state, bounds, questions, compact);
  return { price_range: bounds.range, price_bounds: bounds.status };
}

function attachPrices(
  model: CompiledModel,
  state: EvaluationState,
  bounds: PriceBounds,
  questions: ReadonlyArray<LineQuestion | CompactLineQuestion>,
  compact: boolean,
): void {
  const form = model.consistency;
  const from = bounds.from as Float64Array;
  const to = bounds.to as Float64Array;
  const support = state.valueSupport;
  const at = (flat: number): ValueBounds | undefined =>
    from[flat] === Infinity || support?.[flat] !== 1
      ? undefined
      : { from: bounds.format(from[flat]), to: bounds.format(to[flat]) };
  for (const question of model.questions) {
    const first = form.firstLayer[question.index];
    if (first < 0) continue;
    const line = questions[question.index];
    // Integers: up to 1,000 values a question would repeat in every line; `allowed` and
    // the line's range guide them.
    if (question.type === 'integer') continue;
    if (question.type === 'boolean') {
      const prices: Record<string, ValueBounds> = {};
      for (let v = 1; v < form.domain[first]; v++) {
        const value = at(form.valueBase[first] + v);
        if (value !== undefined) prices[String(v === 2)] = value;
      }
      line.value_prices = prices;
      continue;
    }
    const multi = question.type === 'multi_choice';
    const flatOf = (o: number): number =>
      multi ? form.valueBase[first + o] + 1 : form.valueBase[first] + o + 1;
    if (compact) {
      const prices: Record<string, ValueBounds> = {};
      question.options.forEach((option, o) => {
        if (state.unavailableBecause[question.index]?.[o] !== undefined) return;
        const value = at(flatOf(o));
        if (value !== undefined) prices[option.key] = value;
      });
      if (Object.keys(prices).length > 0) (line as CompactLineQuestion).option_prices = prices;
      continue;
    }
    const options = (line as LineQuestion).options ?? [];
    options.forEach((option, o) => {
      if (!option.available) return;
      const value = at(flatOf(o));
      if (value === undefined) return;
      option.price_from = value.from;
      option.price_to = value.to;
    });
  }
}
