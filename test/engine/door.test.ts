import { describe, expect, it } from 'vitest';
import { compileOk, doorDocument, evaluate, question, rule } from './helpers.js';

/* The door zip (model.yaml + fragments/hardware.yaml merged), priced by hand. */
describe('door (zip source with a fragment)', () => {
  const door = compileOk(doorDocument());

  it('keeps the import record and the fragment questions', () => {
    const result = evaluate(door, { leaf_width: 900 });
    expect(result.line.imports).toEqual([{ path: 'fragments/hardware.yaml' }]);
    expect(result.line.questions.map((q) => q.key)).toEqual([
      'leaf_width',
      'glass_panel',
      'hinge_count',
      'handle',
    ]);
  });

  it('900 mm with every default', () => {
    // options: lever 0.00; BOM: leaf 1*420.00 + hinges (default 2)*9.00 = 438.00 (no glass)
    // subtotal = total = 200.00 + 0.00 + 438.00 = 638.00
    const result = evaluate(door, { leaf_width: 900 });
    expect(result.valid).toBe(true);
    expect(result.line.pricing).toMatchObject({
      base_price: '200.00',
      options_total: '0.00',
      bom_total: '438.00',
      subtotal: '638.00',
      total: '638.00',
      adjustments: [],
    });
    expect(question(result, 'hinge_count')).toMatchObject({ values: [2], source: 'default' });
    expect(question(result, 'glass_panel')).toMatchObject({ values: [false], source: 'default' });
    expect(rule(result, 'wide_needs_three_hinges').status).toBe('skipped');
    expect(result.line.images).toEqual([
      { key: 'door', url: '/v1/models/7/assets/images/door.svg', layer: 0, alt: 'Door' },
    ]);
  });

  it('1100 mm with glass, a pull bar and three hinges', () => {
    // options: pull 65.00; BOM: leaf 420.00 + glass 95.00 + hinges 3*9.00 = 27.00 → 542.00
    // subtotal = total = 200.00 + 65.00 + 542.00 = 807.00
    const result = evaluate(door, {
      leaf_width: 1100,
      glass_panel: true,
      handle: 'pull',
      hinge_count: 3,
    });
    expect(result.valid).toBe(true);
    expect(result.line.pricing.total).toBe('807.00');
    expect(result.line.bom_items.map((b) => [b.key, b.quantity, b.total_price])).toEqual([
      ['leaf', '1', '420.00'],
      ['glass', '1', '95.00'],
      ['hinges', '3', '27.00'],
    ]);
    expect(rule(result, 'wide_needs_three_hinges').status).toBe('passed');
    expect(result.line.images.map((i) => i.url)).toEqual([
      '/v1/models/7/assets/images/door.svg',
      '/v1/models/7/assets/images/glass-panel.svg',
    ]);
  });

  it('a wide leaf: the default two hinges is suppressed; two hinges answered fail the rule', () => {
    // Issue #6 changed this on purpose: a default that leaves no valid completion is
    // soft (docs/model-format.md "Consistency"), so it is left out instead of failing the rule.
    const result = evaluate(door, { leaf_width: 1100 });
    // No rule failure; the hinges' BOM quantity is then unknown (fail-closed, issue #7).
    expect(result.errors.map((e) => e.code)).toEqual(['bom_quantity_unknown']);
    expect(question(result, 'hinge_count')).toMatchObject({
      values: [],
      source: 'none',
      suppressed: ['default'],
    });
    expect(rule(result, 'wide_needs_three_hinges').status).toBe('pending');
    // hinge_count takes 3 or 4 with a wide leaf (unanswered counts too): 3 × 2 × 3 choices
    expect(result.line.consistency).toEqual({ exact: true, configurations: '18' });

    const answered = evaluate(door, { leaf_width: 1100, hinge_count: 2 });
    expect(answered.valid).toBe(false);
    // Issue #32: one cause, on each answer's path, naming both answers and the rule (whose
    // failure is not reported again; the line's rule still says failed).
    const conflict = {
      code: 'conflict',
      message:
        'the answers leaf_width = 1100, hinge_count = 2 have no valid completion together ' +
        '(wide_needs_three_hinges: Leaves wider than 1000 mm need three hinges); change one of them',
      answers: [
        { question: 'leaf_width', values: [1100] },
        { question: 'hinge_count', values: [2] },
      ],
      rules: ['wide_needs_three_hinges'],
    };
    expect(answered.errors).toEqual([
      { ...conflict, path: 'questions.leaf_width' },
      { ...conflict, path: 'questions.hinge_count' },
    ]);
    expect(rule(answered, 'wide_needs_three_hinges').status).toBe('failed');
    // still priced: 200 + 420 + 2*9 = 638.00
    expect(answered.line.pricing.total).toBe('638.00');
  });

  it('checks the step from min (700 + multiples of 5)', () => {
    expect(evaluate(door, { leaf_width: 905 }).valid).toBe(true);
    const result = evaluate(door, { leaf_width: 903 });
    expect(result.errors.map((e) => [e.code, e.path])).toEqual([
      ['off_step', 'questions.leaf_width.values[0]'],
    ]);
  });

  it('uses the fragment translation and a custom asset URL', () => {
    const result = evaluate(
      door,
      { leaf_width: 900 },
      { languageCode: 'nl', assetUrl: (path) => `https://cdn.example.com/door/${path}` },
    );
    expect(question(result, 'handle').label).toBe('Kruk');
    expect(question(result, 'leaf_width').label).toBe('Leaf width');
    expect(result.line.translation).toMatchObject({ language: 'nl', fallback_used: true });
    expect(result.line.images[0].url).toBe('https://cdn.example.com/door/images/door.svg');
  });
});
