import { Expression } from '../cel/expression.js';
import type { CompiledBomItem, CompiledPricing, CompiledQuestion } from '../model-core.js';
import {
  formatMoney,
  formatQuantity,
  minorUnits,
  minorUnitsOfText,
  type Money,
  round,
  ZERO,
} from '../money.js';

/** unit_price text: the pricing scale, or more decimals when the price has them. */
export function unitPriceText(price: Money, scale: number): string {
  return price.decimalPlaces() > scale ? price.toFixed() : price.toFixed(scale);
}

/**
 * Everything about BOM prices that does not depend on the answers, computed once:
 * price texts, and for items with a literal quantity and price the whole line (as a
 * top-level item; children of items whose quantity varies are still computed).
 */
export function priceBom(
  items: readonly CompiledBomItem[],
  pricing: CompiledPricing,
): CompiledBomItem[] {
  const { scale, mode } = pricing;
  return items.map((item) => {
    const price = item.unitPrice ?? (item.priceExpr === undefined ? ZERO : undefined);
    const quantity = item.quantity instanceof Expression ? undefined : item.quantity;
    const total =
      price !== undefined && quantity !== undefined
        ? round(quantity.times(price), scale, mode)
        : undefined;
    return {
      ...item,
      children: priceBom(item.children, pricing),
      unitPriceText: price === undefined ? '' : unitPriceText(price, scale),
      fixedLine:
        total === undefined || quantity === undefined
          ? undefined
          : {
              quantityText: formatQuantity(quantity),
              total,
              totalText: formatMoney(total, scale, mode),
              totalMinor: minorUnitsOfText(formatMoney(total, scale, mode)),
            },
    };
  });
}

/**
 * Option prices rounded and formatted once, not per evaluation. Identical prices share
 * one Decimal and one text, and questions with identical price lists share the lists;
 * `optionPriceMinor` holds every option's rounded price in minor units, flat (question
 * q's options start at `optionBase[q]`; 0 for no price, NaN when not a safe integer).
 */
export function optionPriceTables(
  questions: readonly CompiledQuestion[],
  { scale, mode }: CompiledPricing,
) {
  const moneyByText = new Map<string, Money>();
  const textsByKey = new Map<string, readonly string[]>();
  const pricesByKey = new Map<string, ReadonlyArray<Money | undefined>>();
  const zeroText = formatMoney(ZERO, scale, mode);
  const optionBase = new Int32Array(questions.length);
  let count = 0;
  for (const question of questions) {
    optionBase[question.index] = count;
    count += question.options.length;
  }
  const optionPriceMinor = new Float64Array(count);
  const optionPrices: Array<ReadonlyArray<Money | undefined>> = [];
  const optionPriceTexts: Array<readonly string[]> = [];
  for (const question of questions) {
    const prices: Array<Money | undefined> = [];
    const texts: string[] = [];
    question.options.forEach((option, o) => {
      if (option.price === undefined) {
        prices.push(undefined);
        texts.push(zeroText);
        return;
      }
      const rounded = round(option.price, scale, mode);
      const text = formatMoney(rounded, scale, mode);
      let shared = moneyByText.get(text);
      if (shared === undefined) moneyByText.set(text, (shared = rounded));
      prices.push(shared);
      texts.push(shared === rounded ? text : formatMoney(shared, scale, mode));
      optionPriceMinor[optionBase[question.index] + o] = minorUnits(shared, scale);
    });
    const key = texts.map((text, o) => (prices[o] === undefined ? '-' : text)).join('\u0000');
    optionPriceTexts.push(intern(textsByKey, key, texts));
    optionPrices.push(intern(pricesByKey, key, prices));
  }
  return { optionPrices, optionPriceTexts, optionBase, optionPriceMinor };
}

function intern<T>(shared: Map<string, T>, key: string, value: T): T {
  const known = shared.get(key);
  if (known !== undefined) return known;
  shared.set(key, value);
  return value;
}
