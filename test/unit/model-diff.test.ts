import { describe, expect, it } from 'vitest';
import { diffModels } from '../../src/models/versions/model-diff.js';

const base = () => ({
  general: { name: 'Window', code: 'W' },
  questions: [
    { key: 'frame', type: 'choice', label: 'Frame', options: [{ key: 'pvc', label: 'PVC' }] },
    { key: 'width', type: 'integer', label: 'Width', min: 400 },
  ],
  rules: [{ key: 'combo', allowed: { columns: ['frame'], rows: [['pvc']] } }],
  bom_items: [
    {
      key: 'kit',
      sku: 'K',
      quantity: 1,
      children: [{ key: 'handle', sku: 'H', unit_price: '18.00' }],
    },
  ],
  pricing: { base_price: '150.00' },
  translation: { nl: { 'questions.frame.label': 'Kozijn' } },
});

describe('diffModels', () => {
  it('finds no change in a reordering of keyed lists', () => {
    const after = base();
    after.questions.reverse();
    expect(diffModels(base(), after, 100)).toEqual({ changes: [], truncated: false });
  });

  it('names every change by path and kind: BOM children, prices, translations, questions', () => {
    const after = base() as any;
    after.bom_items[0].children[0].unit_price = '19.00';
    after.bom_items[0].children.push({ key: 'hinge', sku: 'G' });
    after.pricing.base_price = '160.00';
    after.translation.nl['questions.frame.label'] = 'Raam';
    after.translation.de = { 'general.name': 'Fenster' };
    after.questions[1].min = 500;
    after.questions.push({ key: 'glazing', type: 'choice', label: 'Glazing', options: [] });
    after.rules[0].allowed.rows = [];
    const { changes } = diffModels(base(), after, 100);
    expect(changes.map((c) => [c.change, c.kind, c.path])).toEqual([
      ['changed', 'question', 'questions.width.min'],
      ['added', 'question', 'questions.glazing'],
      ['removed', 'table_row', 'rules.combo.allowed.rows[0]'],
      ['changed', 'price', 'bom_items.kit.children.handle.unit_price'],
      ['added', 'bom_item', 'bom_items.kit.children.hinge'],
      ['changed', 'price', 'pricing.base_price'],
      ['changed', 'translation', 'translation.nl.questions.frame.label'],
      ['added', 'translation', 'translation.de'],
    ]);
    expect(changes[5]).toMatchObject({ from: '150.00', to: '160.00' });
  });

  it('stops at the limit and says so', () => {
    const after = base() as any;
    after.general = { name: 'Other', code: 'X', description: 'new' };
    const result = diffModels(base(), after, 2);
    expect(result.changes).toHaveLength(2);
    expect(result.truncated).toBe(true);
  });
});
