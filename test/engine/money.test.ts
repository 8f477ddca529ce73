import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/engine/work.js';
import { celNumberToMoney, formatMoney, Money, round } from '../../src/engine/money.js';
import { compileOk, model } from './helpers.js';

describe('money helpers', () => {
  it('rounds CEL doubles to 6 decimals, exactly, with the model mode', () => {
    const text = (value: number | bigint, mode: 'half_up' | 'half_even' = 'half_up') =>
      celNumberToMoney(value, mode)?.toFixed();
    expect(text(0.1 + 0.2)).toBe('0.3');
    expect(text(1 / 3)).toBe('0.333333');
    expect(text(2 / 3)).toBe('0.666667');
    expect(text(1.0000005)).toBe('1.000001');
    expect(text(1.0000005, 'half_even')).toBe('1');
    expect(text(2.5e-7)).toBe('0');
    expect(text(-1.25)).toBe('-1.25');
    expect(text(1e21)).toBe('1000000000000000000000');
    expect(text(12345678901234567890n)).toBe('12345678901234567890');
    expect(celNumberToMoney(Number.NaN, 'half_up')).toBeUndefined();
    expect(celNumberToMoney(Number.POSITIVE_INFINITY, 'half_up')).toBeUndefined();
  });

  it('half_up rounds ties away from zero, half_even to the even digit', () => {
    const r = (value: string, mode: 'half_up' | 'half_even') =>
      formatMoney(round(new Money(value), 2, mode), 2, mode);
    expect([r('2.345', 'half_up'), r('2.355', 'half_up'), r('-2.345', 'half_up')]).toEqual([
      '2.35',
      '2.36',
      '-2.35',
    ]);
    expect([r('2.345', 'half_even'), r('2.355', 'half_even'), r('-2.345', 'half_even')]).toEqual([
      '2.34',
      '2.36',
      '-2.34',
    ]);
  });

  it('never sums binary floats: 0.1 + 0.2 priced three times is exactly 0.90', () => {
    const compiled = compileOk(
      model({
        bom_items: [1, 2, 3].map((i) => ({
          key: `b${i}`,
          sku: 'S',
          description: 'D',
          quantity: '0.1 + 0.2',
          unit_price: '1.00',
        })),
      }),
    );
    const line = evaluate(compiled, {
      modelId: 1,
      versionNumber: 1,
      questions: {},
    }).line;
    expect(line.pricing.bom_total).toBe('0.90');
  });
});

describe('fingerprint canonical form', () => {
  const compiled = compileOk(model());
  const fp = (questions: unknown) =>
    evaluate(compiled, { modelId: 1, versionNumber: 1, questions }).line.cache.fingerprint;

  it('ignores key order at every level and escapes unusual text', () => {
    expect(fp({ 'a"b': { values: ['x"y'], z: { q: 1, p: 2 } } })).toBe(
      fp({ 'a"b': { z: { p: 2, q: 1 }, values: ['x"y'] } }),
    );
    expect(fp({ 'a"b': { values: ['x"y'] } })).not.toBe(fp({ 'a"b': { values: ['x\\"y'] } }));
    expect(fp({ a: { values: ['1'] } })).not.toBe(fp({ a: { values: [1] } }));
    expect(fp({ b: { values: [1] }, 10: { values: [] }, 9: { values: [] } })).toBe(
      fp({ 9: { values: [] }, b: { values: [1] }, 10: { values: [] } }),
    );
    // a `__proto__` member (possible in parsed JSON) is an ordinary key, not dropped
    expect(fp(JSON.parse('{"__proto__": {"values": ["x"]}}'))).not.toBe(fp({}));
  });
});
