import type { RoundingMode } from './money.js';

/**
 * A BOM line's quantity and total without decimal.js, for the usual case: a CEL double
 * quantity with at most 6 decimals (`q / 100.0`) times a literal, non-negative unit price.
 * Both are read from their exact decimal texts as integers (`"4.25"` → 425 and 2
 * decimals), multiplied, and rounded to the pricing scale by integer division, all in
 * safe integers; anything else (more digits, a negative or exponent text, a product past
 * 2^52) answers false and the caller takes decimal.js. Same texts as the decimal.js path:
 * `test/engine/line-total.test.ts` compares them on random inputs, both rounding modes.
 */
export interface LineTotal {
  quantityText: string;
  totalText: string;
  /** The total in minor units (10^-scale), a safe integer. */
  minor: number;
}

const PLAIN_QUANTITY = /^\d+(\.\d{1,6})?$/;
const PLAIN_PRICE = /^\d+(\.\d+)?$/;
/** Products stay below this, so that they and twice a remainder are exact doubles. */
const PRODUCT_LIMIT = 2 ** 52;
const MAX_DIGITS = 15;
/** Totals of more digits go the long way (money.ts `minorUnitsOfText` gives NaN for them). */
const MINOR_LIMIT = 10 ** MAX_DIGITS;

/** Writes `quantity × price` into `out`; false when the fast path does not apply. */
export function exactLineTotal(
  quantity: number,
  priceText: string,
  scale: number,
  mode: RoundingMode,
  out: LineTotal,
): boolean {
  // Negative (an error elsewhere), NaN, infinities and -0 ("-0" in decimal.js) go the long way.
  if (!(quantity >= 0) || (quantity === 0 && 1 / quantity < 0)) return false;
  const quantityText = String(quantity);
  if (!PLAIN_QUANTITY.test(quantityText) || !PLAIN_PRICE.test(priceText)) return false;
  const q = scaledInteger(quantityText);
  const p = scaledInteger(priceText);
  if (q === undefined || p === undefined) return false;
  const product = q.units * p.units;
  if (product >= PRODUCT_LIMIT) return false;
  const decimals = q.decimals + p.decimals;
  let minor: number;
  if (decimals <= scale) {
    minor = product * 10 ** (scale - decimals);
  } else {
    if (decimals - scale > MAX_DIGITS) return false;
    const divisor = 10 ** (decimals - scale);
    const remainder = product % divisor;
    const down = (product - remainder) / divisor;
    const twice = 2 * remainder;
    const up = twice > divisor || (twice === divisor && (mode === 'half_up' || down % 2 === 1));
    minor = up ? down + 1 : down;
  }
  if (minor >= MINOR_LIMIT) return false;
  out.quantityText = quantityText;
  out.totalText = minorText(minor, scale);
  out.minor = minor;
  return true;
}

/** `"4.25"` → 425 and 2 decimals; undefined past MAX_DIGITS digits. */
function scaledInteger(text: string): { units: number; decimals: number } | undefined {
  const dot = text.indexOf('.');
  const digits = dot < 0 ? text : text.slice(0, dot) + text.slice(dot + 1);
  if (digits.length > MAX_DIGITS) return undefined;
  return { units: Number(digits), decimals: dot < 0 ? 0 : text.length - dot - 1 };
}

/** 1250 at scale 2 → `"12.50"`; 5 at scale 2 → `"0.05"`. */
function minorText(minor: number, scale: number): string {
  if (scale === 0) return String(minor);
  const digits = String(minor).padStart(scale + 1, '0');
  return `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}
