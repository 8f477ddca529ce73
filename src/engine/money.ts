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

/**
 * A money amount that is already rounded to `scale`, as an integer number of
 * 10^-scale units ("12.50" at scale 2 → 1250), or NaN when that integer is not a safe
 * integer. Sums of safe integers that stay safe are exact, so `MinorSum` can add
 * thousands of option prices and BOM totals without allocating a Decimal per addend.
 */
export function minorUnits(value: Money, scale: number): number {
  const scaled = value.times(powerOfTen(scale));
  return scaled.isInteger() && scaled.abs().lte(Number.MAX_SAFE_INTEGER) ? scaled.toNumber() : NaN;
}

const POWERS_OF_TEN: Money[] = [];

function powerOfTen(scale: number): Money {
  return (POWERS_OF_TEN[scale] ??= new Money(10).pow(scale));
}

/** minorUnits of a text with exactly `scale` decimals (`formatMoney` output), without allocating. */
export function minorUnitsOfText(text: string): number {
  let minor = 0;
  let digits = 0;
  const negative = text.charCodeAt(0) === 45; // '-'
  for (let i = negative ? 1 : 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 46) continue; // '.'
    minor = minor * 10 + (code - 48);
    digits++;
  }
  if (digits > 15) return NaN;
  return negative ? -minor : minor;
}

/**
 * An exact sum of amounts rounded to one scale: integer minor units while every
 * addend and partial sum is a safe integer, decimal.js from the first one that is not.
 */
export class MinorSum {
  private minor = 0;
  private exact: Money | undefined;

  constructor(private readonly scale: number) {}

  /**
   * `minor` is `minorUnits(value, scale)` (NaN when unknown or unsafe); `value` may be its
   * exact text, read only if the sum leaves safe integers.
   */
  add(minor: number, value: Money | string): void {
    if (this.exact === undefined) {
      const sum = this.minor + minor;
      if (Number.isSafeInteger(sum)) {
        this.minor = sum;
        return;
      }
      this.exact = this.fromMinor();
    }
    this.exact = this.exact.plus(typeof value === 'string' ? new Money(value) : value);
  }

  get total(): Money {
    return this.exact ?? this.fromMinor();
  }

  private fromMinor(): Money {
    return this.minor === 0 ? ZERO : new Money(this.minor).dividedBy(powerOfTen(this.scale));
  }
}

/**
 * The largest magnitude a computed quantity, price, line total or adjustment may have
 * (10^18, far above any real order): beyond it an amount is "out of range" and the line
 * invalid (docs/model-format.md "Answers": fail closed), instead of a 300-digit price.
 */
const MAX_AMOUNT = new Decimal('1e18');

export function withinAmountRange(amount: Money): boolean {
  return amount.abs().lessThan(MAX_AMOUNT);
}

export function outOfRange(what: string): string {
  return `${what} is out of range (its magnitude must stay under 10^18)`;
}
