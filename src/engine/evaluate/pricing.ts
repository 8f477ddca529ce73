import { conditionOr, UNKNOWN } from '../cel/expression.js';
import type { CompiledModel, LanguageTexts } from '../model.js';
import {
  celNumberToMoney,
  formatMoney,
  MinorSum,
  type Money,
  outOfRange,
  round,
  withinAmountRange,
} from '../money.js';
import type { LineAdjustment, LinePricing } from '../types.js';
import type { EvaluationState } from './state.js';

const HUNDRED = 100;

/**
 * Step 7: subtotal = base_price + options_total + bom_total; total = subtotal + the
 * adjustments that apply. Every amount that enters a sum is first rounded to the
 * scale, so the displayed amounts always add up exactly.
 */
export function evaluatePricing(
  model: CompiledModel,
  state: EvaluationState,
  bomTotal: Money,
  texts: LanguageTexts,
  adjustmentSlots: number[],
): LinePricing {
  const { scale, mode } = model.pricing;
  const basePrice = round(model.pricing.basePrice, scale, mode);
  const optionsTotal = optionsSum(model, state);
  const subtotal = basePrice.plus(optionsTotal).plus(bomTotal);
  let total = subtotal;
  const adjustments: LineAdjustment[] = [];
  for (const adjustment of model.pricing.adjustments) {
    if (!conditionOr(adjustment.when, state.context, false)) continue;
    let amount: Money | undefined;
    if (adjustment.amount !== undefined) amount = adjustment.amount;
    else if (adjustment.percent !== undefined)
      amount = subtotal.times(adjustment.percent).dividedBy(HUNDRED);
    else if (adjustment.expr !== undefined) {
      const value = adjustment.expr.number(state.context);
      amount = value === UNKNOWN ? undefined : celNumberToMoney(value, mode);
      // Fail closed: an adjustment that applies but cannot be computed invalidates the line.
      if (amount === undefined) {
        state.error(
          'adjustment_unknown',
          `adjustment ${adjustment.key} applies but cannot be computed`,
          `pricing.adjustments.${adjustment.key}`,
        );
        continue;
      }
    }
    if (amount !== undefined && !withinAmountRange(amount)) {
      state.error(
        'amount_out_of_range',
        outOfRange(`adjustment ${adjustment.key}`),
        `pricing.adjustments.${adjustment.key}`,
      );
      continue;
    }
    if (amount === undefined) continue;
    const rounded = round(amount, scale, mode);
    total = total.plus(rounded);
    adjustmentSlots.push(adjustment.labelSlot);
    adjustments.push({
      key: adjustment.key,
      label: texts.texts[adjustment.labelSlot],
      amount: formatMoney(rounded, scale, mode),
    });
  }
  return {
    currency: model.general.currency,
    base_price: formatMoney(basePrice, scale, mode),
    options_total: formatMoney(optionsTotal, scale, mode),
    bom_total: formatMoney(bomTotal, scale, mode),
    adjustments,
    subtotal: formatMoney(subtotal, scale, mode),
    total: formatMoney(total, scale, mode),
  };
}

/** Prices of the selected options of visible questions (hidden questions have no value). */
function optionsSum(model: CompiledModel, state: EvaluationState): Money {
  const sum = new MinorSum(model.pricing.scale);
  const { optionBase, optionPriceMinor, optionPrices } = model;
  const values = state.values;
  for (const question of model.questions) {
    const value = values[question.index];
    if (value === null || question.options.length === 0) continue;
    const base = optionBase[question.index];
    const prices = optionPrices[question.index];
    if (typeof value === 'string') {
      const o = question.optionIndex.get(value);
      const price = o === undefined ? undefined : prices[o];
      if (price !== undefined) sum.add(optionPriceMinor[base + (o as number)], price);
      continue;
    }
    for (const key of value as string[]) {
      const o = question.optionIndex.get(key);
      const price = o === undefined ? undefined : prices[o];
      if (price !== undefined) sum.add(optionPriceMinor[base + (o as number)], price);
    }
  }
  return sum.total;
}
