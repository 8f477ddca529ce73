import { describe, expect, it } from 'vitest';
import { exactLineTotal, type LineTotal } from '../../src/engine/line-total.js';
import {
  celNumberToMoney,
  formatMoney,
  formatQuantity,
  minorUnitsOfText,
  Money,
  round,
  type RoundingMode,
} from '../../src/engine/money.js';
import { prng } from '../support/prng.js';

/** The decimal.js path of evaluate/bom.ts for a top-level line. */
function reference(quantity: number, priceText: string, scale: number, mode: RoundingMode) {
  const exactQuantity = celNumberToMoney(quantity, mode) as Money;
  const total = round(exactQuantity.times(new Money(priceText)), scale, mode);
  const totalText = formatMoney(total, scale, mode);
  return {
    quantityText: formatQuantity(exactQuantity),
    totalText,
    minor: minorUnitsOfText(totalText),
  };
}

const fastOf = (quantity: number, price: string, scale: number, mode: RoundingMode) => {
  const out: LineTotal = { quantityText: '', totalText: '', minor: 0 };
  return exactLineTotal(quantity, price, scale, mode, out) ? out : undefined;
};

describe('exactLineTotal (BOM lines without decimal.js)', () => {
  it('gives the decimal.js texts for 20,000 random lines, both rounding modes', () => {
    const random = prng(7);
    const pick = (n: number) => Math.floor(random() * n);
    let fast = 0;
    for (let i = 0; i < 20_000; i++) {
      // Quantities as models compute them: integers, q / 10^k, products of doubles.
      const kind = pick(4);
      const quantity =
        kind === 0
          ? pick(100_000)
          : kind === 1
            ? pick(1_000_000) / 10 ** pick(9)
            : kind === 2
              ? (pick(5_000) / 100) * (pick(300) / 10)
              : random() * 10 ** pick(12);
      const decimals = pick(6);
      const units = String(pick(10 ** (1 + pick(8))));
      const price =
        decimals === 0
          ? units
          : `${units.slice(0, -decimals) || '0'}.${units.slice(-decimals).padStart(decimals, '0')}`;
      const scale = pick(5);
      const mode: RoundingMode = pick(2) === 0 ? 'half_up' : 'half_even';
      const got = fastOf(quantity, price, scale, mode);
      if (got === undefined) continue;
      fast++;
      expect(got, `${quantity} × ${price} at ${scale}, ${mode}`).toEqual(
        reference(quantity, price, scale, mode),
      );
    }
    // The fast path is the common case, not a rarity.
    expect(fast).toBeGreaterThan(10_000);
  });

  it('rounds halves as the pricing mode says', () => {
    expect(fastOf(1, '0.125', 2, 'half_up')?.totalText).toBe('0.13');
    expect(fastOf(1, '0.125', 2, 'half_even')?.totalText).toBe('0.12');
    expect(fastOf(1, '0.135', 2, 'half_even')?.totalText).toBe('0.14');
    expect(fastOf(0.5, '1', 0, 'half_even')?.totalText).toBe('0');
    expect(fastOf(1.5, '1', 0, 'half_even')).toMatchObject({ totalText: '2', minor: 2 });
    expect(fastOf(0.07, '4.25', 2, 'half_up')).toEqual({
      quantityText: '0.07',
      totalText: '0.30',
      minor: 30,
    });
  });

  it('leaves to decimal.js what it cannot do exactly in safe integers', () => {
    expect(fastOf(-1, '1.00', 2, 'half_up')).toBeUndefined();
    expect(fastOf(-0, '1.00', 2, 'half_up')).toBeUndefined();
    expect(fastOf(Number.NaN, '1.00', 2, 'half_up')).toBeUndefined();
    expect(fastOf(1 / 3, '1.00', 2, 'half_up')).toBeUndefined(); // > 6 decimals
    expect(fastOf(1e-7, '1.00', 2, 'half_up')).toBeUndefined(); // exponent text
    expect(fastOf(2, '-1.00', 2, 'half_up')).toBeUndefined();
    expect(fastOf(1e15, '1000.00', 2, 'half_up')).toBeUndefined(); // past 2^52
  });
});
