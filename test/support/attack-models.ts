/**
 * Issue #7's `length = 1e308` model: with that answer, `frame`'s quantity and `glass`'s
 * price overflow to Infinity and `seal`'s quantity is finite but out of range; `screw` is
 * fixed. Shared by the engine test and the attack replayed through the server.
 */
export const OVERFLOW_SECTIONS = {
  questions: [{ key: 'length', type: 'number', label: 'Length' }],
  bom_items: [
    { key: 'frame', sku: 'F', description: 'Frame', quantity: 'length * 2.0', unit_price: '3.00' },
    { key: 'glass', sku: 'G', description: 'Glass', quantity: '1', price_expr: 'length * length' },
    {
      key: 'seal',
      sku: 'S',
      description: 'Seal',
      quantity: 'length / 1000.0',
      unit_price: '1.00',
    },
    { key: 'screw', sku: 'W', description: 'Screw', quantity: '4', unit_price: '0.10' },
  ],
};

/** The errors a line of that model has for `length = 1e308`, as [code, path]. */
export const OVERFLOW_ERRORS = [
  ['bom_quantity_unknown', 'bom_items.frame'],
  ['bom_price_unknown', 'bom_items.glass'],
  ['amount_out_of_range', 'bom_items.seal'],
];
