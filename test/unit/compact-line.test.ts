import { describe, expect, it } from 'vitest';
import { lineInView } from '../../src/carts/compact-line.js';
import { type LineBomItem, type LineQuestion, compactLine } from '../../src/engine/work.js';

const bom = (key: string, children: LineBomItem[] = []): LineBomItem => ({
  key,
  sku: key.toUpperCase(),
  description: key,
  quantity: '1',
  unit: null,
  unit_price: '1.00',
  total_price: '1.00',
  children,
});

const question = (over: Partial<LineQuestion>): LineQuestion => ({
  key: 'q',
  type: 'choice',
  label: 'Q',
  visible: true,
  required: true,
  values: [],
  source: 'none',
  discarded: [],
  suppressed: [],
  ...over,
});

const option = (key: string, available: boolean, because: string[] = []) => ({
  key,
  label: key,
  price: '0.00',
  available,
  unavailable_because: because,
  conflicts_with: available ? [] : ['other'],
  selected: false,
});

const line = {
  id: null,
  valid: false,
  general: { model_id: 1, name: 'M', currency: 'EUR', default_language: 'en' },
  questions: [
    question({
      key: 'frame',
      values: ['pvc'],
      source: 'user',
      options: [option('pvc', true), option('wood', false, ['frame_colors'])],
    }),
    question({
      key: 'width',
      type: 'integer',
      values: [1200],
      source: 'default',
      unavailable_values: [1300],
    }),
    question({
      key: 'engraving',
      type: 'text',
      visible: false,
      required: false,
      discarded: ['hi'],
      suppressed: ['default'],
    }),
    question({ key: 'color', options: [option('white', true)] }),
  ],
  rules: [
    { key: 'a', status: 'passed' as const, severity: 'error' as const, message: 'A' },
    { key: 'b', status: 'failed' as const, severity: 'error' as const, message: 'B' },
    { key: 'c', status: 'pending' as const, severity: 'warning' as const, message: 'C' },
    { key: 'd', status: 'skipped' as const, severity: 'error' as const, message: 'D' },
  ],
  triggers: [
    { key: 't1', fired: true, set: { glazing: ['triple'] }, message: 'T1' },
    { key: 't2', fired: false, set: {} },
  ],
  bom_items: [bom('kit', [bom('handle'), bom('hinges', [bom('screw')])]), bom('glass')],
  pricing: { total: '1.00' },
};

describe('compactLine (docs/model-format.md "The cart line", ?view=compact)', () => {
  const compact = compactLine(line);

  it('keeps per question key, values, source, visible, required and the unavailable options', () => {
    expect(compact.questions).toEqual([
      {
        key: 'frame',
        values: ['pvc'],
        source: 'user',
        visible: true,
        required: true,
        options: [
          {
            key: 'wood',
            available: false,
            unavailable_because: ['frame_colors'],
            conflicts_with: ['other'],
          },
        ],
      },
      {
        key: 'width',
        values: [1200],
        source: 'default',
        visible: true,
        required: true,
        unavailable_values: [1300],
      },
      {
        key: 'engraving',
        values: [],
        source: 'none',
        visible: false,
        required: false,
        discarded: ['hi'],
        suppressed: ['default'],
      },
      { key: 'color', values: [], source: 'none', visible: true, required: true, options: [] },
    ]);
  });

  it('keeps only failed or pending rules and fired triggers', () => {
    expect(compact.rules.map((rule) => rule.key)).toEqual(['b', 'c']);
    expect(compact.triggers).toEqual([line.triggers[0]]);
  });

  it('drops empty children at every depth and keeps the rest of the item', () => {
    const { children: _, ...glass } = bom('glass');
    const { children: __, ...handle } = bom('handle');
    const { children: ___, ...screw } = bom('screw');
    const { children: ____, ...hinges } = bom('hinges');
    const { children: _____, ...kit } = bom('kit');
    expect(compact.bom_items).toEqual([
      { ...kit, children: [handle, { ...hinges, children: [screw] }] },
      glass,
    ]);
  });

  it('leaves every other member as it is, and the input untouched', () => {
    expect(compact.general).toBe(line.general);
    expect(compact.pricing).toBe(line.pricing);
    expect(compact.valid).toBe(false);
    expect(compact.id).toBeNull();
    expect(line.questions[0]!.options).toHaveLength(2);
    expect(line.bom_items[1]!.children).toEqual([]);
  });

  it('reads lines stored before the consistency work (no suppressed, no conflicts_with)', () => {
    const old = {
      ...line,
      questions: [
        {
          ...question({ key: 'frame', options: [] }),
          suppressed: undefined as unknown as string[],
          options: [{ ...option('wood', false, ['r']), conflicts_with: undefined as never }],
        },
      ],
    };
    expect(compactLine(old).questions[0]).toEqual({
      key: 'frame',
      values: [],
      source: 'none',
      visible: true,
      required: true,
      options: [{ key: 'wood', available: false, unavailable_because: ['r'] }],
    });
  });

  it('full is the line itself', () => {
    expect(lineInView(line, 'full')).toBe(line);
    expect(lineInView(line, 'compact')).toEqual(compact);
  });
});
