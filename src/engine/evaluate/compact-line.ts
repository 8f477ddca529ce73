import type {
  CartLine,
  CompactLineBomItem,
  CompactLineOption,
  CompactLineQuestion,
  LineBomItem,
  LineOption,
  LineQuestion,
  LineRule,
  LineTrigger,
  PriceBounds,
} from '../types.js';

/** The members the compact view replaces; every other member of the line stays as it is. */
export interface CompactableLine {
  questions: LineQuestion[];
  rules: LineRule[];
  triggers: LineTrigger[];
  bom_items: LineBomItem[];
}

/** The cart line in the compact view (what `view: 'compact'` evaluates to). */
export type CompactCartLine = CompactLine<CartLine>;

export type CompactLine<T extends CompactableLine> = Omit<T, keyof CompactableLine> & {
  questions: CompactLineQuestion[];
  rules: LineRule[];
  triggers: LineTrigger[];
  bom_items: CompactLineBomItem[];
};

/**
 * A full line trimmed to the compact view: for lines stored whole (cart rows from before
 * lines were stored compactly), and the reference the direct build of the compact view
 * (compact-questions.ts, `view: 'compact'`) is tested against. docs/model-format.md "The cart
 * line", `?view=compact`: the line without what the model
 * already says (labels, option prices, messages of passed rules): per question `key,
 * values, source, visible, required` and the unavailable options with their reasons;
 * failed or pending rules only; fired triggers only; BOM items without empty
 * `children`. The consistency members stay where they say something: `consistency`
 * whole, `conflicts_with` on the unavailable options, `unavailable_values` as in the
 * full view, `suppressed` (and `discarded`) on a question only when not empty. Other
 * members (general, pricing, ...) are kept.
 */
export function compactLine<T extends CompactableLine>(line: T): CompactLine<T> {
  return {
    ...line,
    questions: line.questions.map(compactQuestion),
    rules: line.rules.filter(keptInCompact),
    triggers: line.triggers.filter(firedTrigger),
    bom_items: line.bom_items.map(compactBomItem),
  };
}

/** The rules the compact view keeps: failed or pending ones. */
export function keptInCompact(rule: LineRule): boolean {
  return rule.status === 'failed' || rule.status === 'pending';
}

/** The triggers the compact view keeps: fired ones. */
export function firedTrigger(trigger: LineTrigger): boolean {
  return trigger.fired;
}

function compactQuestion(question: LineQuestion): CompactLineQuestion {
  const compact: CompactLineQuestion = {
    key: question.key,
    values: question.values,
    source: question.source,
    visible: question.visible,
    required: question.required,
  };
  // Rows stored whole before the consistency work have no `suppressed`.
  if (question.discarded?.length) compact.discarded = question.discarded;
  if (question.suppressed?.length) compact.suppressed = question.suppressed;
  if (question.options) compact.options = unavailableOptions(question.options);
  if (question.unavailable_values) compact.unavailable_values = question.unavailable_values;
  if (question.allowed) compact.allowed = question.allowed;
  if (question.value_prices) compact.value_prices = question.value_prices;
  const prices = question.options === undefined ? undefined : optionPrices(question.options);
  if (prices !== undefined) compact.option_prices = prices;
  return compact;
}

/** The available options' price bounds by key (undefined when none has them). */
function optionPrices(options: LineOption[]): Record<string, PriceBounds> | undefined {
  let prices: Record<string, PriceBounds> | undefined;
  for (const option of options)
    if (option.price_from !== undefined && option.price_to !== undefined)
      (prices ??= {})[option.key] = { from: option.price_from, to: option.price_to };
  return prices;
}

function unavailableOptions(options: LineOption[]): CompactLineOption[] {
  const unavailable: CompactLineOption[] = [];
  for (const option of options) {
    if (option.available) continue;
    const compact: CompactLineOption = {
      key: option.key,
      available: false,
      unavailable_because: option.unavailable_because,
    };
    if (option.conflicts_with !== undefined) compact.conflicts_with = option.conflicts_with;
    if (option.explained === false) compact.explained = false;
    unavailable.push(compact);
  }
  return unavailable;
}

function compactBomItem(item: LineBomItem): CompactLineBomItem {
  const { children, ...rest } = item;
  return children.length > 0 ? { ...rest, children: children.map(compactBomItem) } : rest;
}
