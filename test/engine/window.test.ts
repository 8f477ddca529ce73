import { describe, expect, it } from 'vitest';
import { compileOk, errorPaths, evaluate, question, rule, windowDocument } from './helpers.js';

/*
 * The window example priced by hand. BOM lines are quantity × unit price rounded to
 * 2 decimals; trade_discount is -10 % of the subtotal (before adjustments).
 */
describe('window.yaml', () => {
  const window = compileOk(windowDocument());

  it('1200 x 1000, pvc (default), white', () => {
    // area = 1200*1000/1e6 = 1.2 m², perimeter = 2*(1200+1000)/1000 = 4.4 m, not large
    // options: pvc 0 + white 0 + double 0 = 0.00
    // BOM: pvc profile 4.4*12.50 = 55.00; double glass 1.2*38.00 = 45.60;
    //      hardware kit 0.00 > handle 1*18.00 = 18.00, hinges 2*6.50 = 13.00  → 131.60
    // subtotal 150.00 + 0.00 + 131.60 = 281.60; discount -28.16; total 253.44
    const result = evaluate(window, { width: 1200, height: 1000, color: 'white' });
    expect(result.valid).toBe(true);
    expect(result.errors).toEqual([]);
    expect(result.line.pricing).toEqual({
      currency: 'EUR',
      base_price: '150.00',
      options_total: '0.00',
      bom_total: '131.60',
      adjustments: [{ key: 'trade_discount', label: 'Trade discount', amount: '-28.16' }],
      subtotal: '281.60',
      total: '253.44',
    });
    expect(result.line.variables).toEqual({ area_m2: 1.2, perimeter_m: 4.4, large: false });
    expect(question(result, 'frame')).toMatchObject({ values: ['pvc'], source: 'default' });
    expect(question(result, 'glazing')).toMatchObject({ values: ['double'], source: 'default' });
    expect(result.line.bom_items.map((b) => [b.key, b.quantity, b.total_price])).toEqual([
      ['profile_pvc', '4.4', '55.00'],
      ['glass_double', '1.2', '45.60'],
      ['hardware_kit', '1', '0.00'],
    ]);
    expect(
      result.line.bom_items[2].children.map((b) => [
        b.key,
        b.quantity,
        b.unit_price,
        b.total_price,
      ]),
    ).toEqual([
      ['handle', '1', '18.00', '18.00'],
      ['hinges', '2', '6.50', '13.00'],
    ]);
    expect(result.line.rules.map((r) => [r.key, r.status])).toEqual([
      ['max_pvc_width', 'passed'],
      ['frame_colors', 'passed'],
      ['heavy_glass', 'skipped'],
    ]);
    expect(result.line.images.map((i) => i.key)).toEqual(['outline']);
  });

  it('a large aluminium window fires the trigger and the large-size surcharge', () => {
    // area = 2000*1600/1e6 = 3.2 (> 2 → large → glazing triple by trigger), perimeter = 7.2
    // options: alu 85.00 + anthracite 40.00 + screen 45.00 + lock 30.00 = 200.00
    // BOM: alu profile 7.2*21.00 = 151.20; triple glass 3.2*55.00 = 176.00;
    //      handle (triple and area > 3 → 2) 2*18.00 = 36.00; hinges 13.00 → 376.20
    // subtotal 150.00 + 200.00 + 376.20 = 726.20
    // adjustments: large_size +75.00; trade_discount -10 % of 726.20 = -72.62
    // total 726.20 + 75.00 - 72.62 = 728.58
    const result = evaluate(window, {
      width: 2000,
      height: 1600,
      frame: 'alu',
      color: 'anthracite',
      extras: ['screen', 'lock'],
    });
    expect(result.valid).toBe(true);
    expect(result.line.pricing.options_total).toBe('200.00');
    expect(result.line.pricing.bom_total).toBe('376.20');
    expect(result.line.pricing.subtotal).toBe('726.20');
    expect(result.line.pricing.adjustments.map((a) => [a.key, a.amount])).toEqual([
      ['large_size', '75.00'],
      ['trade_discount', '-72.62'],
    ]);
    expect(result.line.pricing.total).toBe('728.58');
    expect(question(result, 'glazing')).toMatchObject({ values: ['triple'], source: 'trigger' });
    expect(result.line.triggers).toEqual([
      {
        key: 'triple_for_large',
        fired: true,
        set: { glazing: 'triple' },
        message: 'Large windows get triple glazing',
      },
    ]);
    // heavy_glass is a warning: it fails (3.2 > 3.0) without making the line invalid.
    expect(rule(result, 'heavy_glass').status).toBe('failed');
    expect(result.warnings).toEqual([
      {
        code: 'rule_failed',
        message: 'Triple glazing above 3 m² needs a second handle',
        path: 'rules.heavy_glass',
      },
    ]);
    expect(result.line.images.map((i) => [i.key, i.layer])).toEqual([
      ['outline', 0],
      ['frame_alu', 1],
    ]);
  });

  it('the trigger never overrides the glazing the user chose', () => {
    const result = evaluate(window, {
      width: 2000,
      height: 1600,
      frame: 'alu',
      color: 'white',
      glazing: 'double',
    });
    expect(question(result, 'glazing')).toMatchObject({ values: ['double'], source: 'user' });
    expect(result.line.triggers[0]).toMatchObject({ fired: true, set: {} });
    // double glass 3.2*38.00 = 121.60 instead of triple
    expect(result.line.bom_items.find((b) => b.key === 'glass_double')?.total_price).toBe('121.60');
  });

  it('wood with an engraving (visible only for wood)', () => {
    // area = 1500*1200/1e6 = 1.8 (not large), perimeter = 2*(2700)/1000 = 5.4
    // options: wood 120.00 + oak 60.00 + vent 15.00 = 195.00
    // BOM: wood profile 5.4*26.00 = 140.40; double glass 1.8*38.00 = 68.40; handle 18.00; hinges 13.00 → 239.80
    // subtotal 150.00 + 195.00 + 239.80 = 584.80; discount -58.48; total 526.32
    const result = evaluate(window, {
      width: 1500,
      height: 1200,
      frame: 'wood',
      color: 'oak',
      extras: ['vent'],
      engraving: 'Smith family',
    });
    expect(result.valid).toBe(true);
    expect(question(result, 'engraving')).toMatchObject({
      visible: true,
      values: ['Smith family'],
      source: 'user',
    });
    expect(result.line.pricing).toMatchObject({
      options_total: '195.00',
      bom_total: '239.80',
      subtotal: '584.80',
      total: '526.32',
    });
    // the lock's available_if (frame != 'wood') is false: unavailable, naming the option itself
    const lock = question(result, 'extras').options?.find((o) => o.key === 'lock');
    expect(lock).toMatchObject({
      available: false,
      unavailable_because: ['lock'],
      selected: false,
    });
  });

  it('an engraving on a pvc window is discarded, not priced, not an error', () => {
    const result = evaluate(window, {
      width: 1200,
      height: 1000,
      color: 'white',
      engraving: 'Hello',
    });
    expect(result.valid).toBe(true);
    expect(question(result, 'engraving')).toMatchObject({
      visible: false,
      values: [],
      discarded: ['Hello'],
      source: 'none',
    });
  });

  it('an invalid configuration lists every problem with its path', () => {
    // pvc is the default; 1900 mm breaks max_pvc_width; oak is not made for pvc.
    const result = evaluate(window, {
      width: 1900,
      height: 1000,
      color: 'oak',
      extras: ['screen', 'lock', 'vent'],
    });
    expect(result.valid).toBe(false);
    expect(errorPaths(result).sort()).toEqual([
      'questions.color.values[0]', // oak: unavailable (frame_colors)
      'questions.extras', // three extras, max_selected 2
      'questions.frame', // the default pvc is unavailable with oak
      'rules.frame_colors',
      'rules.max_pvc_width',
    ]);
    expect(rule(result, 'max_pvc_width')).toMatchObject({
      status: 'failed',
      message: 'PVC frames are at most 1800 mm wide',
    });
    const oak = question(result, 'color').options?.find((o) => o.key === 'oak');
    expect(oak).toMatchObject({
      available: false,
      unavailable_because: ['frame_colors'],
      selected: true,
    });
    // the line is still priced: 150 + (oak 60 + screen 45 + lock 30 + vent 15) + BOM
    expect(result.line.pricing.options_total).toBe('150.00');
  });

  it('reports missing required answers and out-of-range, off-step numbers', () => {
    const result = evaluate(window, { width: 2405, height: 395 });
    expect(result.valid).toBe(false);
    expect(result.errors.map((e) => [e.code, e.path])).toEqual([
      ['out_of_range', 'questions.width.values[0]'],
      ['off_step', 'questions.width.values[0]'],
      ['out_of_range', 'questions.height.values[0]'],
      ['off_step', 'questions.height.values[0]'],
      ['required', 'questions.color'],
      ['rule_failed', 'rules.max_pvc_width'], // pvc (default) and 2405 > 1800
    ]);
  });

  it('translates into Dutch and reports what fell back', () => {
    const result = evaluate(
      window,
      { width: 1200, height: 1000, color: 'white' },
      { languageCode: 'nl' },
    );
    expect(result.line.general.name).toBe('Draairaam');
    expect(question(result, 'width').label).toBe('Breedte');
    expect(question(result, 'frame').options?.map((o) => o.label)).toEqual([
      'PVC',
      'Aluminium',
      'Hout',
    ]);
    expect(result.line.pricing.adjustments[0].label).toBe('Handelskorting');
    expect(result.line.translation.language).toBe('nl');
    expect(result.line.translation.fallback_used).toBe(true);
    expect(result.line.translation.missing).toContain('questions.glazing.label');
    expect(result.line.translation.missing).toContain('bom_items.profile_pvc.description');
    expect(result.line.translation.missing).not.toContain('questions.width.label');
    // not included in this line → not missing from it
    expect(result.line.translation.missing).not.toContain('bom_items.profile_alu.description');
  });
});
