import type {
  LineBomItem,
  LineOption,
  LineQuestion,
  LineRule,
  LineTrigger,
} from '../engine/index.js';

/** `?view=` of POST /v1/carts, POST /v1/carts/preview and GET /v1/carts/{cart_id}. */
export const LINE_VIEWS = ['full', 'compact'] as const;
export type LineView = (typeof LINE_VIEWS)[number];

/** An option of the compact view: only unavailable ones are listed, with their reasons. */
export interface CompactLineOption {
  key: string;
  unavailable_because: string[];
  conflicts_with?: string[];
}

/** A question of the compact view: what the answers made of it, nothing the model says. */
export interface CompactLineQuestion {
  key: string;
  values: unknown[];
  source: LineQuestion['source'];
  visible: boolean;
  required: boolean;
  /** Only when something was dropped or left out: the exceptions a client must show. */
  discarded?: unknown[];
  suppressed?: string[];
  /** Choice questions: the unavailable options ([] when every option is available). */
  options?: CompactLineOption[];
  /** Boolean and finite integer questions, as in the full view (already only the unavailable). */
  unavailable_values?: Array<boolean | number>;
}

/** A BOM item of the compact view: `children` only when there are some. */
export type CompactLineBomItem = Omit<LineBomItem, 'children'> & {
  children?: CompactLineBomItem[];
};

/** The members the compact view replaces; every other member of the line stays as it is. */
interface Replaced {
  questions: LineQuestion[];
  rules: LineRule[];
  triggers: LineTrigger[];
  bom_items: LineBomItem[];
}

export type CompactLine<T extends Replaced> = Omit<T, keyof Replaced> & {
  questions: CompactLineQuestion[];
  rules: LineRule[];
  triggers: LineTrigger[];
  bom_items: CompactLineBomItem[];
};

/**
 * MODEL_FORMAT.md "The cart line", `?view=compact`: the line without what the model
 * already says (labels, option prices, messages of passed rules): per question `key,
 * values, source, visible, required` and the unavailable options with their reasons;
 * failed or pending rules only; fired triggers only; BOM items without empty
 * `children`. The consistency members stay where they say something: `consistency`
 * whole, `conflicts_with` on the unavailable options, `unavailable_values` as in the
 * full view, `suppressed` (and `discarded`) on a question only when not empty. Other
 * members (general, pricing, ...) are kept.
 */
export function compactLine<T extends Replaced>(line: T): CompactLine<T> {
  return {
    ...line,
    questions: line.questions.map(compactQuestion),
    rules: line.rules.filter((rule) => rule.status === 'failed' || rule.status === 'pending'),
    triggers: line.triggers.filter((trigger) => trigger.fired),
    bom_items: line.bom_items.map(compactBomItem),
  };
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
  return compact;
}

function unavailableOptions(options: LineOption[]): CompactLineOption[] {
  const unavailable: CompactLineOption[] = [];
  for (const option of options) {
    if (option.available) continue;
    const compact: CompactLineOption = {
      key: option.key,
      unavailable_because: option.unavailable_because,
    };
    if (option.conflicts_with !== undefined) compact.conflicts_with = option.conflicts_with;
    unavailable.push(compact);
  }
  return unavailable;
}

function compactBomItem(item: LineBomItem): CompactLineBomItem {
  const { children, ...rest } = item;
  return children.length > 0 ? { ...rest, children: children.map(compactBomItem) } : rest;
}

/** The line in the asked view (`full` is the line itself). */
export function lineInView<T extends Replaced>(line: T, view: LineView): T | CompactLine<T> {
  return view === 'compact' ? compactLine(line) : line;
}
