import { derived } from '../derived.js';
import { conditionOr, Expression, UNKNOWN } from '../cel/expression.js';
import { unitPriceText } from '../compile/prices.js';
import type { CompiledBomItem, CompiledPricing, LanguageTexts } from '../model.js';
import {
  celNumberToMoney,
  formatMoney,
  formatQuantity,
  MinorSum,
  minorUnitsOfText,
  outOfRange,
  withinAmountRange,
  Money,
  round,
  ZERO,
} from '../money.js';
import type { CompactLineBomItem, LineBomItem } from '../types.js';
import { empty } from './empty.js';
import { sharePart } from './shared-parts.js';
import { exactLineTotal, type LineTotal } from '../line-total.js';
import type { EvaluationState } from './state.js';

export interface BomResult {
  /** Full-view items (`LineBomItem`), or compact ones without empty `children`. */
  lines: CompactLineBomItem[];
  /** Sum of every included line's rounded total, all levels. */
  total: Money;
  /** Slots of the included items' descriptions (for translation.missing). */
  slots: number[];
}

const ONE = new Money(1);

/**
 * Step 6: the included BOM items. A child is included only if its parent is; its
 * quantity is per unit of the parent. Each line total is rounded to the pricing
 * scale; a CEL double enters quantities and prices rounded to 6 decimals. `compact`: the
 * compact view's items, with `children` only when some are included.
 */
export function evaluateBom(
  items: readonly CompiledBomItem[],
  state: EvaluationState,
  pricing: CompiledPricing,
  texts: LanguageTexts,
  compact = false,
  prepared = false,
): BomResult {
  const level: Level = {
    state,
    pricing,
    texts,
    compact,
    sum: new MinorSum(pricing.scale),
    shared: prepared ? sharedLinesOf(items, texts, compact) : undefined,
  };
  const slots: number[] = [];
  const lines: CompactLineBomItem[] = [];
  for (const line of evaluateLevel(items, ONE, level, slots, 0)) lines.push(line);
  return { lines, total: level.sum.total, slots };
}

/** What every level of one BOM evaluation shares. */
interface Level {
  state: EvaluationState;
  pricing: CompiledPricing;
  texts: LanguageTexts;
  compact: boolean;
  sum: MinorSum;
  /** Fixed top-level lines without children, by item index (shared-parts.ts), if shared. */
  shared: SharedLines | undefined;
}

/** Per language, the full view's and the compact view's shared lines (see Level). */
const SHARED_LINES = Symbol('shared BOM lines');
type SharedLines = Array<CompactLineBomItem | undefined>;

/** A model's texts belong to it alone, so they stand for its BOM items too. */
function sharedLinesOf(
  items: readonly CompiledBomItem[],
  texts: LanguageTexts,
  compact: boolean,
): SharedLines {
  const byView = derived(texts, SHARED_LINES, (): [full: SharedLines, compact: SharedLines] => [
    new Array(items.length),
    new Array(items.length),
  ]);
  return byView[compact ? 1 : 0];
}

/** `top`: the index of `items[0]` among the top-level items (undefined for children). */
function evaluateLevel(
  items: readonly CompiledBomItem[],
  parentQuantity: Money,
  level: Level,
  slots: number[],
  top?: number,
): CompactLineBomItem[] {
  const { state, compact } = level;
  const lines: CompactLineBomItem[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item.when !== undefined && !conditionOr(item.when, state.context, false)) continue;
    const line =
      parentQuantity === ONE && item.fixedLine !== undefined
        ? fixedLine(item, level, top === undefined ? -1 : top + i)
        : computedLine(item, parentQuantity, level);
    if (line === undefined) continue;
    // Read `priced` before the children overwrite it.
    const quantity = priced.quantity;
    level.sum.add(priced.minor, priced.total);
    slots.push(item.descriptionSlot);
    if (item.children.length > 0) {
      const children = evaluateLevel(item.children, quantity, level, slots);
      if (!compact || children.length > 0) line.children = children;
    }
    lines.push(line);
  }
  return lines;
}

/**
 * The quantity and total of the line just built (one object reused for every line
 * instead of a result object per line: it is read before the evaluation may pause).
 */
const priced: { quantity: Money; total: Money | string; minor: number } = {
  quantity: ONE,
  total: ZERO,
  /** `total` in minor units (NaN: add `total` exactly). */
  minor: 0,
};

/** `slot`: the item's index among the top-level ones (-1 for a child). */
function fixedLine(item: CompiledBomItem, level: Level, slot: number): CompactLineBomItem {
  const { texts, compact } = level;
  const fixed = item.fixedLine as NonNullable<CompiledBomItem['fixedLine']>;
  priced.quantity = item.quantity as Money;
  priced.total = fixed.total;
  priced.minor = fixed.totalMinor;
  // A top-level line without children is the same in every evaluation: shared.
  const shared = slot >= 0 && item.children.length === 0 ? level.shared : undefined;
  const known = shared?.[slot];
  if (known !== undefined) return known;
  const line = lineOf(
    item,
    texts,
    fixed.quantityText,
    item.unitPriceText,
    fixed.totalText,
    compact,
  );
  return shared === undefined ? line : (shared[slot] = sharePart(line));
}

function computedLine(
  item: CompiledBomItem,
  parentQuantity: Money,
  level: Level,
): CompactLineBomItem | undefined {
  const { state, pricing, texts, compact } = level;
  // A literal quantity is undefined here (fixed lines and children of varying parents).
  const value =
    item.quantity instanceof Expression ? item.quantity.number(state.context) : undefined;
  if (parentQuantity === ONE && fastLine(item, value, pricing)) {
    priced.minor = fast.minor;
    priced.total = fast.totalText;
    return lineOf(item, texts, fast.quantityText, item.unitPriceText, fast.totalText, compact);
  }
  const quantity = itemQuantity(item, value, state, pricing);
  if (quantity === undefined) return undefined;
  const lineQuantity = parentQuantity === ONE ? quantity : quantity.times(parentQuantity);
  const unitPrice = itemUnitPrice(item, state, pricing);
  if (unitPrice === undefined) return undefined;
  const total = unitPrice.isZero()
    ? ZERO
    : round(lineQuantity.times(unitPrice), pricing.scale, pricing.mode);
  if (!withinAmountRange(total)) {
    state.error(
      'amount_out_of_range',
      outOfRange(`the total of ${item.key}`),
      `bom_items.${item.key}`,
    );
    return undefined;
  }
  const priceText =
    item.unitPriceText !== '' ? item.unitPriceText : unitPriceText(unitPrice, pricing.scale);
  const totalText = formatMoney(total, pricing.scale, pricing.mode);
  priced.quantity = lineQuantity;
  priced.total = total;
  priced.minor = minorUnitsOfText(totalText);
  return lineOf(item, texts, formatQuantity(lineQuantity), priceText, totalText, compact);
}

/** The line total of the fast path (line-total.ts), reused like `priced`. */
const fast: LineTotal = { quantityText: '', totalText: '', minor: 0 };

/**
 * A top-level item without children, with a literal unit price and a double quantity
 * that line-total.ts multiplies exactly in integers: the line without decimal.js.
 */
function fastLine(
  item: CompiledBomItem,
  value: ReturnType<Expression['number']> | undefined,
  pricing: CompiledPricing,
): boolean {
  if (typeof value !== 'number' || item.children.length > 0) return false;
  if (item.unitPriceText === '' || item.priceExpr !== undefined) return false;
  return exactLineTotal(value, item.unitPriceText, pricing.scale, pricing.mode, fast);
}

/**
 * A full-view item has `children` ([] until some are included); a compact one has them
 * only then: `undefined` until then, which JSON leaves out (one object shape for both).
 */
function lineOf(
  item: CompiledBomItem,
  texts: LanguageTexts,
  quantity: string,
  unitPrice: string,
  total: string,
  compact: boolean,
): CompactLineBomItem {
  return {
    key: item.key,
    sku: item.sku,
    description: texts.texts[item.descriptionSlot],
    quantity,
    unit: item.unit ?? null,
    unit_price: unitPrice,
    total_price: total,
    children: compact ? undefined : empty<LineBomItem>(),
  };
}

/** `value`: the quantity expression's value (undefined for a literal quantity). */
function itemQuantity(
  item: CompiledBomItem,
  value: ReturnType<Expression['number']> | undefined,
  state: EvaluationState,
  pricing: CompiledPricing,
): Money | undefined {
  if (value === undefined) return item.quantity as Money;
  const quantity = value === UNKNOWN ? undefined : celNumberToMoney(value, pricing.mode);
  const at = `bom_items.${item.key}`;
  // Fail closed (docs/model-format.md "Answers"): a line is never cheaper because a price failed.
  if (quantity === undefined) {
    state.error('bom_quantity_unknown', `the quantity of ${item.key} cannot be computed`, at);
    return undefined;
  }
  if (quantity.isNegative() && !quantity.isZero()) {
    const message = `the quantity of ${item.key} is negative (${quantity.toString()})`;
    state.error('bom_quantity_negative', message, at);
    return undefined;
  }
  if (!withinAmountRange(quantity)) {
    state.error('amount_out_of_range', outOfRange(`the quantity of ${item.key}`), at);
    return undefined;
  }
  return quantity;
}

function itemUnitPrice(
  item: CompiledBomItem,
  state: EvaluationState,
  pricing: CompiledPricing,
): Money | undefined {
  if (item.unitPrice !== undefined) return item.unitPrice;
  if (item.priceExpr === undefined) return ZERO;
  const value = item.priceExpr.number(state.context);
  const price = value === UNKNOWN ? undefined : celNumberToMoney(value, pricing.mode);
  const at = `bom_items.${item.key}`;
  if (price === undefined) {
    state.error('bom_price_unknown', `the price of ${item.key} cannot be computed`, at);
    return undefined;
  }
  if (!withinAmountRange(price)) {
    state.error('amount_out_of_range', outOfRange(`the price of ${item.key}`), at);
    return undefined;
  }
  return price;
}
