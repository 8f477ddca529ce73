import type { CompiledAdjustment, CompiledPricing } from '../model-core.js';
import { type RoundingMode, ZERO } from '../money.js';
import type { Validation } from './context.js';
import { SECTION_KEY_PATTERN } from './reader.js';

const PRICING_KEYS = new Set(['base_price', 'adjustments', 'rounding']);
const ADJUSTMENT_KEYS = new Set(['key', 'label', 'when', 'amount', 'percent', 'expr']);
const ROUNDING_KEYS = new Set(['scale', 'mode']);
const MAX_SCALE = 10;

export function validatePricing(v: Validation, value: unknown): CompiledPricing {
  const pricing: CompiledPricing = { basePrice: ZERO, adjustments: [], scale: 2, mode: 'half_up' };
  if (value === undefined || value === null) return pricing;
  const record = v.record(value, 'pricing');
  if (record === undefined) return pricing;
  v.allowKeys(record, PRICING_KEYS, 'pricing');
  const { scale, mode } = readRounding(v, record.rounding);
  return {
    basePrice: v.decimal(record, 'base_price', 'pricing') ?? ZERO,
    adjustments: readAdjustments(v, record.adjustments),
    scale,
    mode,
  };
}

function readRounding(v: Validation, value: unknown): { scale: number; mode: RoundingMode } {
  const path = 'pricing.rounding';
  const rounding = { scale: 2, mode: 'half_up' as RoundingMode };
  if (value === undefined || value === null) return rounding;
  const record = v.record(value, path);
  if (record === undefined) return rounding;
  v.allowKeys(record, ROUNDING_KEYS, path);
  const scale = v.number(record, 'scale', path, true);
  if (scale !== undefined && (scale < 0 || scale > MAX_SCALE)) {
    v.fail('invalid_value', `scale must be between 0 and ${MAX_SCALE}`, `${path}.scale`);
  } else if (scale !== undefined) {
    rounding.scale = scale;
  }
  const mode = record.mode;
  if (mode === 'half_up' || mode === 'half_even') rounding.mode = mode;
  else if (mode !== undefined)
    v.fail('invalid_value', 'mode must be half_up or half_even', `${path}.mode`);
  return rounding;
}

function readAdjustments(v: Validation, value: unknown): CompiledAdjustment[] {
  const path = 'pricing.adjustments';
  const list = v.optionalList(value, path);
  const seen = new Set<string>();
  const adjustments: CompiledAdjustment[] = [];
  for (const [record, itemPath] of v.records(list, path)) {
    v.allowKeys(record, ADJUSTMENT_KEYS, itemPath);
    const key = v.key(record, itemPath, SECTION_KEY_PATTERN, 'adjustment');
    const label = v.text(record, 'label', itemPath, true);
    const when = v.expr(record, 'when', itemPath);
    const kinds = ['amount', 'percent', 'expr'].filter((kind) => record[kind] !== undefined);
    if (kinds.length !== 1) {
      v.fail('invalid_value', 'an adjustment has exactly one of amount, percent or expr', itemPath);
    }
    const amount = v.decimal(record, 'amount', itemPath);
    const percent = v.decimal(record, 'percent', itemPath);
    const expr = v.expr(record, 'expr', itemPath);
    if (key === undefined || !v.unique(seen, key, itemPath, 'adjustment')) continue;
    adjustments.push({
      key,
      labelSlot: v.texts.add(`pricing.adjustments.${key}.label`, label ?? key, false),
      when,
      amount,
      percent,
      expr,
    });
  }
  return adjustments;
}
