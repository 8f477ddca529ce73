import { Expression } from '../cel/expression.js';
import type { CompiledBomItem } from '../model-core.js';
import { Money } from '../money.js';
import type { Validation } from './context.js';
import { childPath, type JsonRecord, SECTION_KEY_PATTERN } from './reader.js';

const BOM_KEYS = new Set([
  'key',
  'sku',
  'description',
  'when',
  'quantity',
  'unit',
  'unit_price',
  'price_expr',
  'children',
]);
const ONE = new Money(1);

/** BOM items over every level of `children`, counted without recursion (for the limit). */
export function countBomItems(
  value: unknown,
  maxDepth: number,
): { count: number; tooDeep: boolean } {
  let count = 0;
  let tooDeep = false;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [list, depth] = stack.pop() as [unknown, number];
    if (!Array.isArray(list)) continue;
    if (depth > maxDepth) tooDeep = true;
    count += list.length;
    for (const item of list) {
      if (item !== null && typeof item === 'object' && 'children' in item) {
        stack.push([(item as JsonRecord).children, depth + 1]);
      }
    }
  }
  return { count, tooDeep };
}

/** `bom_items`; keys are unique over all levels so that translation paths stay unambiguous. */
export function validateBom(v: Validation, value: unknown): CompiledBomItem[] {
  return readItems(v, v.optionalList(value, 'bom_items'), 'bom_items', new Set());
}

function readItems(
  v: Validation,
  list: readonly unknown[],
  path: string,
  seen: Set<string>,
): CompiledBomItem[] {
  const items: CompiledBomItem[] = [];
  for (const [record, itemPath] of v.records(list, path)) {
    const item = readItem(v, record, itemPath, seen);
    if (item !== undefined) items.push(item);
  }
  return items;
}

function readItem(
  v: Validation,
  record: JsonRecord,
  path: string,
  seen: Set<string>,
): CompiledBomItem | undefined {
  v.allowKeys(record, BOM_KEYS, path);
  const key = v.key(record, path, SECTION_KEY_PATTERN, 'BOM item');
  // Checked before the children so that a duplicate is reported where it is written.
  const unique = key !== undefined && v.unique(seen, key, path, 'BOM item');
  const sku = v.text(record, 'sku', path, true);
  const description = v.text(record, 'description', path, true);
  const when = v.expr(record, 'when', path);
  const quantity = readQuantity(v, record, path);
  const unit = v.text(record, 'unit', path);
  const unitPrice = v.decimal(record, 'unit_price', path);
  const priceExpr = v.expr(record, 'price_expr', path);
  if (unitPrice !== undefined && priceExpr !== undefined) {
    v.fail(
      'invalid_value',
      'give either unit_price or price_expr, not both',
      childPath(path, 'price_expr'),
    );
  }
  const childrenPath = childPath(path, 'children');
  const children =
    record.children === undefined
      ? []
      : readItems(v, v.list(record.children, childrenPath) ?? [], childrenPath, seen);
  if (key === undefined || !unique || sku === undefined || quantity === undefined) return undefined;
  return {
    key,
    sku,
    descriptionSlot: v.texts.add(`bom_items.${key}.description`, description ?? key, false),
    when,
    quantity,
    unit,
    unitPrice,
    priceExpr,
    children,
    unitPriceText: '',
    fixedLine: undefined,
  };
}

function readQuantity(
  v: Validation,
  record: JsonRecord,
  path: string,
): Money | Expression | undefined {
  const value = record.quantity;
  const at = childPath(path, 'quantity');
  if (value === undefined || value === null) return ONE;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0)
      return v.fail('invalid_value', 'quantity must not be negative', at);
    return new Money(value);
  }
  if (typeof value === 'string') return v.exprText(value, at);
  return v.fail('invalid_type', 'quantity must be a number or a CEL expression', at);
}
