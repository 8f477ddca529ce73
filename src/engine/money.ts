import { Decimal } from 'decimal.js';

/**
 * Exact decimal arithmetic for money and quantities. A private clone so that the
 * engine's precision never depends on (or changes) the global Decimal configuration.
 */
export const Money = Decimal.clone({ precision: 60, toExpNeg: -60, toExpPos: 60 });
export type Money = InstanceType<typeof Money>;

export type RoundingMode = 'half_up' | 'half_even';

export const ZERO = new Money(0);

/** A decimal string: optional sign, digits, optional fraction (`"12.50"`, `"-10"`). */
export const DECIMAL_PATTERN = /^[-+]?\d{1,30}(\.\d{1,30})?$/;

const SHORT_DECIMAL = /^-?\d+(\.\d{1,6})?$/;

/** Digits kept from a CEL double before it enters a price or a quantity. */
export const CEL_DOUBLE_DECIMALS = 6;

export function roundingConstant(mode: RoundingMode): Decimal.Rounding {
  return mode === 'half_even' ? Decimal.ROUND_HALF_EVEN : Decimal.ROUND_HALF_UP;
}

export function round(value: Money, scale: number, mode: RoundingMode): Money {
  return value.toDecimalPlaces(scale, roundingConstant(mode));
}

/** `"85.00"`-style text with exactly `scale` decimals. */
export function formatMoney(value: Money, scale: number, mode: RoundingMode): string {
  return value.toFixed(scale, roundingConstant(mode));
}

/**
 * A CEL number as an exact decimal: ints are exact, doubles are rounded to
 * CEL_DOUBLE_DECIMALS first. Returns undefined for NaN and infinities.
 */
export function celNumberToMoney(value: number | bigint, mode: RoundingMode): Money | undefined {
  if (typeof value === 'bigint') return new Money(value.toString());
  if (!Number.isFinite(value)) return undefined;
  // decimal.js reads a number through its shortest decimal text as well; reading that
  // text once and skipping the rounding when it has at most 6 decimals is the same value.
  const text = String(value);
  if (SHORT_DECIMAL.test(text)) return new Money(text);
  return new Money(text).toDecimalPlaces(CEL_DOUBLE_DECIMALS, roundingConstant(mode));
}

/** Plain text of an exact quantity without exponent (`"4.4"`, `"2"`). */
export function formatQuantity(value: Money): string {
  return value.toFixed();
}
