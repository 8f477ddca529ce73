import { describe, expect, it } from 'vitest';
import { compileOk, evaluate, model } from '../helpers.js';

const item = (key: string, extra: Record<string, unknown> = {}) => ({
  key,
  sku: key.toUpperCase(),
  description: key,
  ...extra,
});

describe('BOM', () => {
  const compiled = compileOk(
    model({
      questions: [
        { key: 'w', type: 'integer', label: 'W' },
        { key: 'on', type: 'boolean', label: 'On', default: true },
      ],
      bom_items: [
        item('frame', {
          quantity: 2,
          unit: 'pcs',
          unit_price: '10.00',
          children: [
            item('bar', {
              quantity: 3,
              unit_price: '1.50',
              children: [item('screw', { quantity: 4, unit_price: '0.05' })],
            }),
          ],
        }),
        item('off', {
          when: '!on',
          unit_price: '99.00',
          children: [item('off_child', { unit_price: '1.00' })],
        }),
        item('third', { quantity: '1.0 / 3.0', unit_price: '3.00' }),
        item('sum', { quantity: '0.1 + 0.2', unit_price: '10.00' }),
        item('priced', { price_expr: 'w / 7.0' }),
        item('free', { quantity: 'w' }),
      ],
    }),
  );

  it('multi-level: children only with their parent, quantities multiplied by the parent line', () => {
    // frame 2*10.00 = 20.00; bar 2*3 = 6 * 1.50 = 9.00; screw 6*4 = 24 * 0.05 = 1.20
    const result = evaluate(compiled, { w: 10 });
    const frame = result.line.bom_items[0];
    expect([frame.quantity, frame.total_price]).toEqual(['2', '20.00']);
    expect([frame.children[0].quantity, frame.children[0].total_price]).toEqual(['6', '9.00']);
    const screw = frame.children[0].children[0];
    expect([screw.key, screw.quantity, screw.unit_price, screw.total_price]).toEqual([
      'screw',
      '24',
      '0.05',
      '1.20',
    ]);
    expect(result.line.bom_items.map((b) => b.key)).not.toContain('off');
    const on = evaluate(compiled, { w: 10, on: false });
    expect(on.line.bom_items.find((b) => b.key === 'off')?.children.map((c) => c.key)).toEqual([
      'off_child',
    ]);
  });

  it('CEL doubles enter quantities and prices rounded to 6 decimals', () => {
    const result = evaluate(compiled, { w: 10 });
    const byKey = Object.fromEntries(result.line.bom_items.map((b) => [b.key, b]));
    // 1/3 → 0.333333; 0.333333 * 3.00 = 0.999999 → 1.00
    expect([byKey.third.quantity, byKey.third.total_price]).toEqual(['0.333333', '1.00']);
    // 0.1 + 0.2 = 0.30000000000000004 → 0.3; 0.3 * 10.00 = 3.00
    expect([byKey.sum.quantity, byKey.sum.total_price]).toEqual(['0.3', '3.00']);
    // 10 / 7 = 1.428571428… → unit price 1.428571 (more decimals than the scale are kept), total 1.43
    expect([byKey.priced.unit_price, byKey.priced.total_price]).toEqual(['1.428571', '1.43']);
    // no price → 0
    expect([byKey.free.quantity, byKey.free.unit_price, byKey.free.total_price]).toEqual([
      '10',
      '0.00',
      '0.00',
    ]);
    // 20.00 + 9.00 + 1.20 + 1.00 + 3.00 + 1.43 + 0.00 = 35.63
    expect(result.line.pricing.bom_total).toBe('35.63');
  });

  // Was: warnings, the item left out and the price counted 0 (a cheaper valid line).
  // Issue #7: fail closed, the configuration is invalid with each item's path.
  it('an unknown quantity or price makes the configuration invalid with the item path', () => {
    const result = evaluate(compiled, {});
    expect(result.valid).toBe(false);
    expect(result.line.bom_items.map((b) => b.key)).not.toContain('free');
    expect(result.line.bom_items.map((b) => b.key)).not.toContain('priced');
    expect(result.errors.map((e) => [e.code, e.path])).toEqual([
      ['bom_price_unknown', 'bom_items.priced'],
      ['bom_quantity_unknown', 'bom_items.free'],
    ]);
    expect(result.warnings.map((w) => w.code)).not.toContain('bom_price_unknown');
  });
});

describe('pricing', () => {
  const pricingModel = (rounding: Record<string, unknown>, adjustments: unknown[] = []) =>
    compileOk(
      model({
        questions: [
          {
            key: 'color',
            type: 'choice',
            label: 'C',
            options: [
              { key: 'red', label: 'R', price: '0.125' },
              { key: 'blue', label: 'B', price: '2' },
            ],
          },
          {
            key: 'extras',
            type: 'multi_choice',
            label: 'E',
            options: [
              { key: 'x', label: 'X', price: '1.10' },
              { key: 'y', label: 'Y', price: '2.20' },
            ],
          },
          { key: 'show', type: 'boolean', label: 'S', default: true },
          {
            key: 'hidden_extra',
            type: 'choice',
            label: 'H',
            visible_if: 'show',
            options: [{ key: 'z', label: 'Z', price: '100.00' }],
          },
        ],
        bom_items: [item('a', { unit_price: '0.125' }), item('b', { unit_price: '0.135' })],
        pricing: { base_price: '10', rounding, adjustments },
      }),
    );

  it('half_up vs half_even on each rounded amount; money has exactly `scale` decimals', () => {
    // half_up: bom 0.13 + 0.14 = 0.27; option red 0.125 → 0.13; base 10.00 → subtotal 10.40
    const up = evaluate(pricingModel({ scale: 2, mode: 'half_up' }), { color: 'red' });
    expect(up.line.pricing).toMatchObject({
      base_price: '10.00',
      options_total: '0.13',
      bom_total: '0.27',
      total: '10.40',
    });
    // half_even: 0.125 → 0.12, 0.135 → 0.14: bom 0.26; option 0.12 → subtotal 10.38
    const even = evaluate(pricingModel({ scale: 2, mode: 'half_even' }), { color: 'red' });
    expect(even.line.pricing).toMatchObject({
      options_total: '0.12',
      bom_total: '0.26',
      total: '10.38',
    });
    expect(even.line.questions[0].options?.map((o) => o.price)).toEqual(['0.12', '2.00']);
  });

  it('scale 0 and scale 3', () => {
    const zero = evaluate(pricingModel({ scale: 0 }), { color: 'blue' });
    // bom 0 + 0 = 0; blue 2; base 10 → 12
    expect(zero.line.pricing).toMatchObject({
      base_price: '10',
      options_total: '2',
      bom_total: '0',
      total: '12',
    });
    const three = evaluate(pricingModel({ scale: 3 }), { color: 'red' });
    expect(three.line.pricing).toMatchObject({
      options_total: '0.125',
      bom_total: '0.260',
      total: '10.385',
    });
  });

  it('options_total counts the selected options of visible questions only', () => {
    const compiled = pricingModel({});
    // blue 2.00 + x 1.10 + y 2.20 + z 100.00 = 105.30
    expect(
      evaluate(compiled, { color: 'blue', extras: ['x', 'y'], hidden_extra: 'z' }).line.pricing
        .options_total,
    ).toBe('105.30');
    // hidden: z is discarded and not priced → 5.30
    const hidden = evaluate(compiled, {
      color: 'blue',
      extras: ['x', 'y'],
      hidden_extra: 'z',
      show: false,
    });
    expect(hidden.line.pricing.options_total).toBe('5.30');
  });

  it('adjustments: amount, percent of the subtotal before adjustments, expression, when', () => {
    const compiled = pricingModel({ mode: 'half_up' }, [
      { key: 'fee', label: 'Fee', amount: '2.50' },
      { key: 'discount', label: 'Discount', percent: '-12.5' },
      { key: 'by_expr', label: 'Per extra', expr: 'extras == null ? 0.0 : size(extras) * 0.333' },
      { key: 'never', label: 'Never', when: 'false', amount: '1000' },
      { key: 'unknown', label: 'Unknown', expr: 'size(extras) * 1' },
    ]);
    // subtotal: base 10.00 + blue 2.00 + bom 0.27 = 12.27
    // discount: -12.5 % of 12.27 = -1.53375 → -1.53; by_expr: 0 extras → 0.00; unknown: extras null → not applied
    const result = evaluate(compiled, { color: 'blue' });
    expect(result.line.pricing.subtotal).toBe('12.27');
    expect(result.line.pricing.adjustments).toEqual([
      { key: 'fee', label: 'Fee', amount: '2.50' },
      { key: 'discount', label: 'Discount', amount: '-1.53' },
      { key: 'by_expr', label: 'Per extra', amount: '0.00' },
    ]);
    // 12.27 + 2.50 - 1.53 + 0.00 = 13.24
    expect(result.line.pricing.total).toBe('13.24');
    // Was a warning `adjustment_unknown` on a valid line; issue #7: fail closed.
    expect(result.valid).toBe(false);
    expect(result.errors.map((e) => [e.code, e.path])).toEqual([
      ['adjustment_unknown', 'pricing.adjustments.unknown'],
    ]);
    // two extras: by_expr 2*0.333 = 0.666 → 0.67; unknown 2 → 2.00
    // subtotal 12.27 + 3.30 = 15.57; discount -1.946… → -1.95; total 15.57 + 2.50 - 1.95 + 0.67 + 2.00 = 18.79
    const two = evaluate(compiled, { color: 'blue', extras: ['x', 'y'] });
    expect(two.line.pricing.adjustments.map((a) => a.amount)).toEqual([
      '2.50',
      '-1.95',
      '0.67',
      '2.00',
    ]);
    expect(two.line.pricing.total).toBe('18.79');
  });

  it('uses the model currency', () => {
    const compiled = compileOk({ general: { name: 'X', currency: 'CHF' } });
    expect(evaluate(compiled, {}).line.pricing).toEqual({
      currency: 'CHF',
      base_price: '0.00',
      options_total: '0.00',
      bom_total: '0.00',
      adjustments: [],
      subtotal: '0.00',
      total: '0.00',
    });
  });
});
