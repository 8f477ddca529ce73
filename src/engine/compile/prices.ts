import { Expression } from '../cel/expression.js';
import type { CompiledBomItem, CompiledPricing, CompiledQuestion } from '../model.js';
import { formatMoney, formatQuantity, type Money, round, ZERO } from '../money.js';

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
            },
    };
  });
}

/** Option prices rounded and formatted once, not per evaluation. */
export function optionPriceTables(
  questions: readonly CompiledQuestion[],
  { scale, mode }: CompiledPricing,
) {
  const optionPrices = questions.map((question) =>
    question.options.map((option) =>
      option.price === undefined ? undefined : round(option.price, scale, mode),
    ),
  );
  const optionPriceTexts = optionPrices.map((prices) =>
    prices.map((price) => formatMoney(price ?? ZERO, scale, mode)),
  );
  return { optionPrices, optionPriceTexts };
}
