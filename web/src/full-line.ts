// The configure page receives the compact view of each preview (docs/adr/0224) and renders
// the full line, made here from it and the model's description the page already holds:
// question types and labels, option labels and prices come from the description (the same
// for every line of a model version, in the same language); what the evaluation decided
// (values, visibility, availability and its reasons, price bounds, totals, messages of
// failed rules, BOM, images) comes from the compact line. The result equals the full
// view's line but for `rules` and `triggers`, which stay as the compact view has them (the
// failed and pending rules, the fired triggers): a passed or skipped rule's status is not
// in either, and the page reads other rules only for their messages (ruleMessage).
import type {
  BomItem,
  CompactBomItem,
  CompactLine,
  CompactQuestion,
  DescribedModel,
  DescribedQuestion,
  Line,
  LineOption,
  LineQuestion,
} from './api.js';

/** What the rebuild reads of a model's description (GET /v1/companies/{id}/models). */
export type LineDescription = Pick<DescribedModel, 'version_number' | 'questions' | 'rules'>;

/** The description is of another version than the line (a version uploaded meanwhile). */
export class OtherVersion extends Error {}

/** The full line the page renders, from a compact line and its version's description. */
export function fullLine(compact: CompactLine, described: LineDescription): Line {
  if (compact.version_number !== described.version_number) throw new OtherVersion();
  const byKey = new Map(described.questions.map((q) => [q.key, q]));
  const { questions, bom_items, ...rest } = compact;
  return {
    ...rest,
    view: 'full',
    questions: questions.map((q) => fullQuestion(q, byKey.get(q.key))),
    bom_items: bom_items.map(fullBomItem),
  };
}

function fullQuestion(q: CompactQuestion, d: DescribedQuestion | undefined): LineQuestion {
  if (d === undefined) throw new OtherVersion();
  const question: LineQuestion = {
    key: q.key,
    type: d.type,
    label: d.label,
    visible: q.visible,
    required: q.required,
    values: q.values,
    source: q.source,
    discarded: q.discarded ?? [],
    suppressed: q.suppressed ?? [],
  };
  if (q.options !== undefined) question.options = fullOptions(q, d);
  if (q.unavailable_values !== undefined) question.unavailable_values = q.unavailable_values;
  if (q.allowed !== undefined) question.allowed = q.allowed;
  if (q.value_prices !== undefined) question.value_prices = q.value_prices;
  return question;
}

/**
 * Every option of the description in its order; those the compact line lists are the
 * unavailable ones, with their reasons. Selected: in the question's values.
 */
function fullOptions(q: CompactQuestion, d: DescribedQuestion): LineOption[] {
  const unavailable = new Map((q.options ?? []).map((o) => [o.key, o]));
  return (d.options ?? []).map((o) => {
    const out = unavailable.get(o.key);
    const prices = q.option_prices?.[o.key];
    return {
      key: o.key,
      label: o.label,
      price: o.price,
      available: out === undefined,
      unavailable_because: out?.unavailable_because ?? [],
      conflicts_with: out?.conflicts_with ?? [],
      ...(out?.explained === false ? { explained: false as const } : {}),
      selected: q.values.includes(o.key),
      ...(prices ? { price_from: prices.from, price_to: prices.to } : {}),
    };
  });
}

function fullBomItem(item: CompactBomItem): BomItem {
  return { ...item, children: (item.children ?? []).map(fullBomItem) };
}

/**
 * A rule's message by key: the line's (a failed or pending rule), else the description's
 * (a rule with a message of its own); undefined for a rule without one and for a key that
 * names no rule (the page says "not offered in this combination" then).
 */
export function ruleMessage(
  line: Pick<Line, 'rules'>,
  described: Pick<LineDescription, 'rules'> | undefined,
  key: string,
): string | undefined {
  return (
    line.rules.find((r) => r.key === key)?.message ??
    described?.rules.find((r) => r.key === key)?.message
  );
}
