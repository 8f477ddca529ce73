/**
 * docs/model-format.md rule-by-rule coverage (part 2): `bom_items` and `pricing`. Every
 * expected amount is worked out by hand in the comment beside it.
 */
import { describe, expect, it } from 'vitest';
import { compileOk, evaluate, model } from '../helpers.js';

type Mode = 'half_up' | 'half_even';
const item = (key: string, extra: Record<string, unknown> = {}) => ({
  key,
  sku: key.toUpperCase(),
  description: key,
  ...extra,
});
const priced = (pricing: Record<string, unknown>, sections: Record<string, unknown> = {}) =>
  evaluate(compileOk(model({ pricing, ...sections })), {}).line.pricing;

describe('rounding at exact ties, per mode (adjustments and base price)', () => {
  const at = (mode: Mode, base: string, ...amounts: string[]) =>
    priced({
      base_price: base,
      rounding: { mode },
      adjustments: amounts.map((amount, i) => ({ key: `a${i}`, label: 'A', amount })),
    });

  it('half_up: 2.345 → 2.35, 2.355 → 2.36, -2.345 → -2.35, -2.355 → -2.36', () => {
    const p = at('half_up', '2.345', '2.355', '-2.345', '-2.355');
    expect(p.base_price).toBe('2.35');
    expect(p.adjustments.map((a) => a.amount)).toEqual(['2.36', '-2.35', '-2.36']);
    // 2.35 + 2.36 - 2.35 - 2.36 = 0.00
    expect([p.subtotal, p.total]).toEqual(['2.35', '0.00']);
  });

  it('half_even: 2.345 → 2.34, 2.355 → 2.36, -2.345 → -2.34, -2.355 → -2.36', () => {
    const p = at('half_even', '2.345', '2.355', '-2.345', '-2.355');
    expect(p.base_price).toBe('2.34');
    expect(p.adjustments.map((a) => a.amount)).toEqual(['2.36', '-2.34', '-2.36']);
    // 2.34 + 2.36 - 2.34 - 2.36 = 0.00
    expect([p.subtotal, p.total]).toEqual(['2.34', '0.00']);
  });

  it('scale 0: 2.5 → 3 / 2, 3.5 → 4 / 4, -2.5 → -3 / -2', () => {
    const up = priced({
      rounding: { scale: 0, mode: 'half_up' },
      adjustments: ['2.5', '3.5', '-2.5'].map((amount, i) => ({
        key: `a${i}`,
        label: 'A',
        amount,
      })),
    });
    expect(up.adjustments.map((a) => a.amount)).toEqual(['3', '4', '-3']);
    expect(up.total).toBe('4'); // 3 + 4 - 3
    const even = priced({
      rounding: { scale: 0, mode: 'half_even' },
      adjustments: ['2.5', '3.5', '-2.5'].map((amount, i) => ({
        key: `a${i}`,
        label: 'A',
        amount,
      })),
    });
    expect(even.adjustments.map((a) => a.amount)).toEqual(['2', '4', '-2']);
    expect(even.total).toBe('4'); // 2 + 4 - 2
  });

  it('scale 3: 1.0005 → 1.001 / 1.000, 1.0015 → 1.002 / 1.002', () => {
    const up = priced({
      base_price: '1.0005',
      rounding: { scale: 3, mode: 'half_up' },
      adjustments: [{ key: 'a', label: 'A', amount: '1.0015' }],
    });
    expect([up.base_price, up.adjustments[0].amount, up.total]).toEqual([
      '1.001',
      '1.002',
      '2.003',
    ]);
    const even = priced({
      base_price: '1.0005',
      rounding: { scale: 3, mode: 'half_even' },
      adjustments: [{ key: 'a', label: 'A', amount: '1.0015' }],
    });
    expect([even.base_price, even.adjustments[0].amount, even.total]).toEqual([
      '1.000',
      '1.002',
      '2.002',
    ]);
  });
});

describe('CEL doubles are rounded to 6 decimals before they enter a price', () => {
  const line = (mode: Mode) =>
    evaluate(
      compileOk(
        model({
          bom_items: [
            // 0.1 + 0.2 = 0.30000000000000004 → 0.3 → unit_price "0.30"; 3 × 0.30 = 0.90
            item('sum', { quantity: 3, price_expr: '0.1 + 0.2' }),
            // 2.675 is 2.67499999999999982236431605997495353221893310546875 in binary;
            // its 6-decimal value is exactly 2.675 → half_up 2.68, half_even 2.68
            item('tie', { price_expr: '2.675' }),
          ],
          pricing: {
            rounding: { mode },
            adjustments: [
              // 1.0049999996 → 6 decimals: 1.005000 → half_up 1.01, half_even 1.00
              // (rounding the double straight to 2 decimals would give 1.00 in both modes)
              { key: 'x', label: 'X', expr: '1.0049999996' },
              // 0.0000004 → 0.000000 → 0.00 (a tiny negative must not print as "-0.00")
              { key: 'tiny', label: 'T', expr: '-0.0000004' },
            ],
          },
        }),
      ),
      {},
    ).line;

  it('half_up', () => {
    const result = line('half_up');
    const [sum, tie] = result.bom_items;
    expect([sum.quantity, sum.unit_price, sum.total_price]).toEqual(['3', '0.30', '0.90']);
    expect([tie.unit_price, tie.total_price]).toEqual(['2.675', '2.68']);
    expect(result.pricing.adjustments.map((a) => a.amount)).toEqual(['1.01', '0.00']);
    // bom 0.90 + 2.68 = 3.58; total 3.58 + 1.01 + 0.00 = 4.59
    expect([result.pricing.bom_total, result.pricing.total]).toEqual(['3.58', '4.59']);
  });

  it('half_even', () => {
    const result = line('half_even');
    expect(result.bom_items.map((b) => b.total_price)).toEqual(['0.90', '2.68']);
    expect(result.pricing.adjustments.map((a) => a.amount)).toEqual(['1.00', '0.00']);
    // 3.58 + 1.00 = 4.58
    expect(result.pricing.total).toBe('4.58');
  });
});

describe('BOM lines', () => {
  it('rounds each line total before summing: 3 × 0.005 → 0.01 each (0.03), or 0.00 each', () => {
    const items = [1, 2, 3].map((i) => item(`b${i}`, { unit_price: '0.005' }));
    expect(priced({ rounding: { mode: 'half_up' } }, { bom_items: items }).bom_total).toBe('0.03');
    expect(priced({ rounding: { mode: 'half_even' } }, { bom_items: items }).bom_total).toBe(
      '0.00',
    );
  });

  it('negative unit prices round away from zero (half_up) or to even', () => {
    const items = [item('credit', { unit_price: '-1.005' })];
    expect(priced({ rounding: { mode: 'half_up' } }, { bom_items: items }).bom_total).toBe('-1.01');
    expect(priced({ rounding: { mode: 'half_even' } }, { bom_items: items }).bom_total).toBe(
      '-1.00',
    );
  });

  it('multiplies quantities down three levels; children only with their parent', () => {
    const compiled = compileOk(
      model({
        questions: [
          { key: 'w', type: 'integer', label: 'W' },
          { key: 'on', type: 'boolean', label: 'On', default: true },
        ],
        bom_items: [
          item('top', {
            quantity: 'w',
            unit_price: '10.00',
            children: [
              item('mid', {
                quantity: 1.5,
                unit_price: '0.333',
                children: [
                  item('leaf', { quantity: 'w * 2', unit_price: '0.125' }),
                  item('gated', { when: '!on', unit_price: '1.00' }),
                ],
              }),
            ],
          }),
          item('fixed', {
            quantity: 3,
            unit: 'm',
            children: [item('per', { quantity: 2, unit_price: '0.50' })],
          }),
          item('gone', {
            when: '!on',
            unit_price: '5.00',
            children: [item('orphan', { unit_price: '7.00' })],
          }),
        ],
      }),
    );
    const result = evaluate(compiled, { w: 2 });
    const [top, fixed] = result.line.bom_items;
    const mid = top.children[0];
    const leaf = mid.children[0];
    // top: 2 × 10.00 = 20.00
    expect([top.quantity, top.total_price]).toEqual(['2', '20.00']);
    // mid: 1.5 × 2 = 3; 3 × 0.333 = 0.999 → 1.00
    expect([mid.quantity, mid.unit_price, mid.total_price]).toEqual(['3', '0.333', '1.00']);
    // leaf: (2 × 2) × 3 = 12; 12 × 0.125 = 1.5 → 1.50
    expect([leaf.quantity, leaf.total_price]).toEqual(['12', '1.50']);
    expect(mid.children.map((c) => c.key)).toEqual(['leaf']);
    // fixed: 3 m without a price costs 0; per: 2 × 3 = 6 × 0.50 = 3.00
    expect(fixed).toMatchObject({
      quantity: '3',
      unit: 'm',
      unit_price: '0.00',
      total_price: '0.00',
    });
    expect([fixed.children[0].quantity, fixed.children[0].total_price]).toEqual(['6', '3.00']);
    expect(result.line.bom_items.map((b) => b.key)).toEqual(['top', 'fixed']);
    // 20.00 + 1.00 + 1.50 + 0.00 + 3.00 = 25.50
    expect(result.line.pricing.bom_total).toBe('25.50');
    // the parent out → its children out, even though theirs have no `when`
    const off = evaluate(compiled, { w: 2, on: false });
    expect(off.line.bom_items.find((b) => b.key === 'gone')?.children.map((c) => c.key)).toEqual([
      'orphan',
    ]);
    // gated: 1 × 3 = 3 × 1.00; gone 5.00; orphan 7.00 → 25.50 + 3.00 + 5.00 + 7.00 = 40.50
    expect(off.line.pricing.bom_total).toBe('40.50');
  });

  it('a unit is null when absent and quantity defaults to 1', () => {
    const [line] = evaluate(
      compileOk(model({ bom_items: [item('a', { unit_price: '2.50' })] })),
      {},
    ).line.bom_items;
    expect(line).toEqual({
      key: 'a',
      sku: 'A',
      description: 'a',
      quantity: '1',
      unit: null,
      unit_price: '2.50',
      total_price: '2.50',
      children: [],
    });
  });
});

describe('pricing totals', () => {
  it('every percent applies to the subtotal before adjustments, not to a running total', () => {
    const compiled = compileOk(
      model({
        questions: [
          {
            key: 'c',
            type: 'choice',
            label: 'C',
            options: [{ key: 'o', label: 'O', price: '30.00' }],
          },
        ],
        bom_items: [item('b', { quantity: 2, unit_price: '10.00' })],
        pricing: {
          base_price: '50',
          adjustments: [
            { key: 'fee', label: 'Fee', amount: '50.00' },
            { key: 'up', label: 'Up', percent: '10' },
            { key: 'down', label: 'Down', percent: '-20' },
            { key: 'third', label: 'Third', percent: '33.333' },
          ],
        },
      }),
    );
    const p = evaluate(compiled, { c: 'o' }).line.pricing;
    // subtotal = 50.00 + 30.00 + 20.00 = 100.00
    expect([p.base_price, p.options_total, p.bom_total, p.subtotal]).toEqual([
      '50.00',
      '30.00',
      '20.00',
      '100.00',
    ]);
    // 10 % of 100.00 = 10.00; -20 % = -20.00; 33.333 % = 33.333 → 33.33
    expect(p.adjustments.map((a) => a.amount)).toEqual(['50.00', '10.00', '-20.00', '33.33']);
    // 100.00 + 50.00 + 10.00 - 20.00 + 33.33 = 173.33
    expect(p.total).toBe('173.33');
  });
});
