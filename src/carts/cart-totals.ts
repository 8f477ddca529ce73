import { Money } from '../engine/index.js';

export interface CurrencyTotal {
  currency: string;
  total: string;
}

/** What a cart's lines add up to: one total per currency, and the single one if there is one. */
export interface CartTotals {
  /** The cart's currency: null when it is empty or (against the rule) holds several. */
  currency: string | null;
  /** Exact sum of the line totals; "0" for an empty cart, null when currencies are mixed. */
  total: string | null;
  totals: CurrencyTotal[];
}

interface PricedLine {
  total: string;
  currency: string;
}

/**
 * Sums line totals exactly (decimal.js, never floats). Each sum keeps the largest
 * number of decimals its lines were given with, so "12.50" + "3.25" is "15.75" and
 * "10.00" + "5.00" stays "15.00".
 */
export function cartTotals(lines: PricedLine[]): CartTotals {
  const sums = new Map<string, { sum: Money; scale: number }>();
  for (const line of lines) {
    const entry = sums.get(line.currency) ?? { sum: new Money(0), scale: 0 };
    entry.sum = entry.sum.plus(new Money(line.total));
    entry.scale = Math.max(entry.scale, decimalsOf(line.total));
    sums.set(line.currency, entry);
  }
  const totals = [...sums.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, { sum, scale }]) => ({ currency, total: sum.toFixed(scale) }));
  if (totals.length === 0) return { currency: null, total: '0', totals };
  if (totals.length === 1) return { ...totals[0], totals };
  return { currency: null, total: null, totals };
}

function decimalsOf(text: string): number {
  const point = text.indexOf('.');
  return point < 0 ? 0 : text.length - point - 1;
}
