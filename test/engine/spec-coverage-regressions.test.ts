/**
 * Two deviations from docs/model-format.md / docs/ENGINE.md found while checking the spec
 * rule by rule, now fixed; these tests keep them fixed.
 */
import { describe, expect, it } from 'vitest';
import { compileOk, evaluate, model, question } from './helpers.js';

describe('fixed engine deviations', () => {
  // docs/model-format.md "triggers": a firing trigger replaces a default, also with `[]`
  // (a multi_choice set to nothing): it was skipped as "no value" and the default stayed.
  it('a firing trigger that sets a multi_choice to [] replaces its default', () => {
    const compiled = compileOk(
      model({
        questions: [
          { key: 'n', type: 'integer', label: 'N' },
          {
            key: 'e',
            type: 'multi_choice',
            label: 'E',
            default: ['x'],
            options: [{ key: 'x', label: 'x', price: '5.00' }],
          },
        ],
        triggers: [{ key: 'clear', when: 'n > 2', set: { e: [] } }],
      }),
    );
    const result = evaluate(compiled, { n: 3 });
    expect(result.line.triggers[0].fired).toBe(true);
    expect(question(result, 'e').values).toEqual([]);
    // the default option is not priced once the trigger cleared it
    expect(result.line.pricing.options_total).toBe('0.00');
  });

  // A BOM quantity is never negative: a computed one that comes out negative lowered the
  // price; now the item is left out and the line is invalid (`bom_quantity_negative`).
  it('a CEL quantity that evaluates negative never yields a negative BOM line', () => {
    const compiled = compileOk(
      model({
        questions: [{ key: 'n', type: 'integer', label: 'N' }],
        bom_items: [
          { key: 'neg', sku: 'S', description: 'd', quantity: 'n - 10', unit_price: '1.00' },
        ],
      }),
    );
    const result = evaluate(compiled, { n: 2 });
    for (const line of result.line.bom_items) expect(line.quantity.startsWith('-')).toBe(false);
    expect(result.line.pricing.bom_total.startsWith('-')).toBe(false);
    expect(result.valid).toBe(false);
    expect(result.errors.map((e) => [e.code, e.path])).toEqual([
      ['bom_quantity_negative', 'bom_items.neg'],
    ]);
  });
});
