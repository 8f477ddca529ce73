import { describe, expect, it } from 'vitest';
import { compileOk, evaluate, model, question, rule, dims } from '../helpers.js';

describe('unknown at evaluation (an expression that fails)', () => {
  const compiled = compileOk(
    model({
      questions: [
        ...dims,
        { key: 'shown', type: 'text', label: 'S', visible_if: 'width > 1000' },
        {
          key: 'pick',
          type: 'choice',
          label: 'P',
          options: [
            { key: 'a', label: 'A', available_if: 'width > 1000' },
            { key: 'b', label: 'B', available_if: 'width < 1000' },
          ],
        },
        { key: 'must', type: 'text', label: 'M', required: 'width > 1000' },
      ],
      variables: [
        { key: 'area', expr: 'width * height' },
        { key: 'is_pvc', expr: "frame == 'pvc'" },
      ],
      rules: [
        { key: 'when_unknown', when: 'width > 1000', assert: 'true', message: 'm' },
        { key: 'assert_unknown', assert: 'height < 2000', message: 'm' },
        { key: 'skipped', when: 'glass == true', assert: 'false', message: 'm' },
      ],
      triggers: [{ key: 't', when: 'width > 1000', set: { note: 'wide' } }],
      bom_items: [
        { key: 'b', sku: 'B', description: 'B', when: 'width > 1000', unit_price: '1.00' },
      ],
      pricing: { adjustments: [{ key: 'adj', label: 'A', when: 'width > 1000', amount: '5.00' }] },
      images: [{ key: 'i', src: 'a.svg', when: 'width > 1000' }],
    }),
  );
  const result = evaluate(compiled, {});

  it('visible_if unknown → hidden', () => expect(question(result, 'shown').visible).toBe(false));
  it('available_if unknown → available', () => {
    expect(question(result, 'pick').options?.every((o) => o.available)).toBe(true);
  });
  it('required unknown → not required', () => {
    expect(question(result, 'must').required).toBe(false);
    expect(result.errors).toEqual([]);
  });
  it('rule when unknown → pending', () =>
    expect(rule(result, 'when_unknown').status).toBe('pending'));
  it('rule assert unknown → pending, not violated', () => {
    expect(rule(result, 'assert_unknown').status).toBe('pending');
    expect(result.valid).toBe(true);
  });
  it('rule when false → skipped', () => expect(rule(result, 'skipped').status).toBe('skipped'));
  it('variable unknown → null; equality with null is simply false', () => {
    expect(result.line.variables).toEqual({ area: null, is_pvc: false });
  });
  it('trigger when unknown → not fired', () => expect(result.line.triggers[0].fired).toBe(false));
  it('BOM when unknown → not included', () => expect(result.line.bom_items).toEqual([]));
  it('adjustment when unknown → not applied', () =>
    expect(result.line.pricing.adjustments).toEqual([]));
  it('image when unknown → not included', () => expect(result.line.images).toEqual([]));
  it('all of them flip once the value is known', () => {
    const known = evaluate(compiled, { width: 1500, height: 1000, must: 'x' });
    expect(question(known, 'shown').visible).toBe(true);
    expect(rule(known, 'when_unknown').status).toBe('passed');
    expect(rule(known, 'assert_unknown').status).toBe('passed');
    expect(known.line.triggers[0].fired).toBe(true);
    expect(known.line.bom_items.map((b) => b.key)).toEqual(['b']);
    expect(known.line.images.map((i) => i.key)).toEqual(['i']);
    expect(question(known, 'pick').options?.map((o) => o.available)).toEqual([true, false]);
    expect(known.line.variables.area).toBe(1500000);
  });
});
