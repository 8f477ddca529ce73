// The guided configuration in words (guidance.ts computes it): answer changes, an option's
// price bounds, an integer question's admissible values, a line moved to a newer version.
import { html, nothing, type TemplateResult } from 'lit';
import type { Line, LineOption, LineQuestion } from './api.js';
import type { AnswerChange, VersionMove } from './guidance.js';
import type { Translate } from './i18n/index.js';

/** A value as the buyer reads it: an option's label, Yes/No, or the number. */
function valueText(question: LineQuestion | undefined, value: unknown, t: Translate): string {
  const option = question?.options?.find((o) => o.key === value);
  if (option) return t('change.value', { value: option.label });
  if (typeof value === 'boolean') return t(value ? 'question.yes' : 'question.no');
  // An option the version no longer has: its key.
  return typeof value === 'string' ? t('change.value', { value }) : String(value);
}

/** One change in words: "change Size from “Small” to “Large”" (or "clear Size", "set Size to …"). */
function changeText(change: AnswerChange, questions: readonly LineQuestion[], t: Translate) {
  const question = questions.find((q) => q.key === change.question);
  const label = question?.label || change.question;
  const list = (values: unknown[]) => values.map((v) => valueText(question, v, t)).join(', ');
  if (change.to.length === 0) return t('change.clear', { label, values: list(change.from) });
  if (change.from.length === 0) return t('change.set', { label, values: list(change.to) });
  return t('change.change', { label, from: list(change.from), to: list(change.to) });
}

/** The changes in words, joined. */
export function changesText(
  changes: readonly AnswerChange[],
  questions: readonly LineQuestion[],
  t: Translate,
): string {
  return changes.map((change) => changeText(change, questions, t)).join('; ');
}

/**
 * The total an available option leads to: "from EUR 160.00" (the lowest total of a valid
 * configuration that picks it), with "to …" when the highest differs.
 */
export function optionPrice(
  option: LineOption,
  currency: string,
  t: Translate,
): TemplateResult | typeof nothing {
  if (!option.available || option.price_from === undefined) return nothing;
  const params = { currency, from: option.price_from, to: option.price_to ?? '' };
  const ranged = option.price_to !== undefined && option.price_to !== option.price_from;
  return html`<span class="price-from"
    >${t(ranged ? 'guided.fromTo' : 'guided.from', params)}</span
  >`;
}

/** An integer question's admissible values given the other answers: "… 2–4, 6." */
export function allowedText(question: LineQuestion, t: Translate): string {
  const allowed = question.allowed;
  if (allowed === undefined) return '';
  if (allowed.length === 0) return ` ${t('guided.allowedNone')}`;
  const ranges = allowed.map(([min, max]) => (min === max ? `${min}` : `${min}–${max}`));
  return ` ${t('guided.allowed', { ranges: ranges.join(', ') })}`;
}

/** The line's price range, when it has one: "Complete configurations: EUR 120.00 – 160.00". */
export function priceRangeView(line: Line, t: Translate): TemplateResult | typeof nothing {
  const range = line.price_range;
  if (!range) return nothing;
  const text = range.min === range.max ? `${range.min}` : `${range.min} – ${range.max}`;
  const estimated = line.price_bounds?.exact === false ? ` ${t('guided.estimated')}` : '';
  return html`<p class="price-range" data-testid="price-range">
    ${t('guided.range', { currency: line.pricing.currency, range: text })}${estimated}
  </p>`;
}

/** A line opened on its model's newer version: the changes saving there makes. */
export function versionMoveView(
  move: VersionMove,
  questions: readonly LineQuestion[],
  t: Translate,
): TemplateResult {
  const what =
    move.changes.length === 0
      ? t('move.none')
      : t('move.changes', { changes: changesText(move.changes, questions, t) });
  return html`<div class="offer version-move" role="status" data-testid="version-move">
    <p>${t('move.notice', { from: move.from, to: move.to })} ${what}</p>
  </div>`;
}
