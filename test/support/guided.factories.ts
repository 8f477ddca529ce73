import { unique } from './factories.js';

/**
 * A small desk for the guided-configuration tests (docs/model-format.md "Guided
 * configuration"): 100.00 base; size s (0) / l (40.00); top oak (60.00), pine (20.00, small
 * desks only), glass (90.00, large desks only); 2–4 legs on a small desk, 4–6 on a large one.
 * Every price reads finite questions only, so the price bounds are exact.
 */
export function deskModel(code = unique('DESK'), currency = 'EUR'): Record<string, unknown> {
  return {
    general: { name: `Desk ${code}`, code, currency },
    questions: [
      {
        key: 'size',
        type: 'choice',
        label: 'Size',
        required: true,
        options: [
          { key: 's', label: 'Small' },
          { key: 'l', label: 'Large', price: '40.00' },
        ],
      },
      {
        key: 'top',
        type: 'choice',
        label: 'Top',
        required: true,
        options: [
          { key: 'oak', label: 'Oak', price: '60.00' },
          { key: 'pine', label: 'Pine', price: '20.00' },
          { key: 'glass', label: 'Glass', price: '90.00' },
        ],
      },
      { key: 'legs', type: 'integer', label: 'Legs', min: 2, max: 6 },
    ],
    rules: [
      {
        key: 'size_top',
        message: 'This top does not fit this size',
        allowed: {
          columns: ['size', 'top'],
          rows: [
            ['s', 'oak'],
            ['s', 'pine'],
            ['l', 'oak'],
            ['l', 'glass'],
          ],
        },
      },
      {
        key: 'size_legs',
        message: 'This many legs do not fit this size',
        allowed: {
          columns: ['size', 'legs'],
          rows: [
            ['s', 2],
            ['s', 3],
            ['s', 4],
            ['l', 4],
            ['l', 5],
            ['l', 6],
          ],
        },
      },
    ],
    pricing: { base_price: '100.00' },
  };
}

/**
 * Version 2 of the desk (same code): pine is gone, walnut (70.00, small desks) is new. A
 * small pine desk moves to the cheapest top left for it: oak.
 */
export function deskV2(model: Record<string, unknown>): Record<string, unknown> {
  const desk = structuredClone(model) as {
    questions: Array<{ key: string; options?: Array<Record<string, string>> }>;
    rules: Array<{ key: string; allowed?: { rows: unknown[][] } }>;
  };
  const top = desk.questions.find((q) => q.key === 'top')!;
  top.options = [
    ...top.options!.filter((option) => option.key !== 'pine'),
    { key: 'walnut', label: 'Walnut', price: '70.00' },
  ];
  const table = desk.rules.find((rule) => rule.key === 'size_top')!.allowed!;
  table.rows = table.rows.map((row) => (row[1] === 'pine' ? ['s', 'walnut'] : row));
  return desk as unknown as Record<string, unknown>;
}

/** The same model in another currency (a version that prices in USD). */
export function inCurrency(model: Record<string, unknown>, currency: string) {
  const general = model.general as Record<string, unknown>;
  return { ...model, general: { ...general, currency } };
}

/** `{key: {values: [v]}}` from `{key: v}`. */
export const answers = (values: Record<string, string | number>) =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, { values: [value] }]));
