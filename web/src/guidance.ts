// Guided configuration in the configurator (docs/api.md "Guided configuration"): the
// nearest valid configuration for an unavailable pick, a line moved to its model's newer
// version, price bounds per option, a cheapest completion, admissible integer ranges.
import { html, nothing, type TemplateResult } from 'lit';
import type { Answers, Line, LineOption, LineQuestion, Schemas, Value } from './api.js';

export type AnswerChange = Schemas['AnswerChangeDto'];

/** The answers after the resolution's changes (a change to nothing drops the answer). */
export function answersAfter(answers: Answers, changes: readonly AnswerChange[]): Answers {
  const after: Answers = { ...answers };
  for (const change of changes) {
    if (change.to.length === 0) delete after[change.question];
    else after[change.question] = change.to as Value[];
  }
  return after;
}

/** The questions a cheapest completion filled, as answers. */
export function completedAnswers(answers: Answers, line: Line): Answers {
  const after: Answers = { ...answers };
  for (const q of line.questions)
    if (q.source === 'completion' && q.values.length > 0) after[q.key] = q.values as Value[];
  return after;
}

/** A value as the buyer reads it: an option's label, Yes/No, or the number. */
function valueText(question: LineQuestion | undefined, value: unknown): string {
  const option = question?.options?.find((o) => o.key === value);
  if (option) return `“${option.label}”`;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  // An option the version no longer has: its key.
  return typeof value === 'string' ? `“${value}”` : String(value);
}

/** One change in words: "Size from “Small” to “Large”" (or "clear Size", "set Size to …"). */
export function changeText(change: AnswerChange, questions: readonly LineQuestion[]): string {
  const question = questions.find((q) => q.key === change.question);
  const label = question?.label || change.question;
  const list = (values: unknown[]) => values.map((v) => valueText(question, v)).join(', ');
  if (change.to.length === 0) return `clear ${label} (${list(change.from)})`;
  if (change.from.length === 0) return `set ${label} to ${list(change.to)}`;
  return `change ${label} from ${list(change.from)} to ${list(change.to)}`;
}

/** The changes in words, or that there are none. */
export function changesText(
  changes: readonly AnswerChange[],
  questions: readonly LineQuestion[],
): string {
  if (changes.length === 0) return 'no other answer changes';
  return changes.map((change) => changeText(change, questions)).join('; ');
}

/**
 * The price an available option leads to: "from EUR 160.00" (the lowest total of a valid
 * configuration that picks it), with "to …" when the highest differs.
 */
export function optionPrice(option: LineOption, currency: string): TemplateResult | typeof nothing {
  if (!option.available || option.price_from === undefined) return nothing;
  const to =
    option.price_to !== undefined && option.price_to !== option.price_from
      ? ` to ${option.price_to}`
      : '';
  return html`<span class="price-from">from ${currency} ${option.price_from}${to}</span>`;
}

/** An integer question's admissible values given the other answers: "Possible: 2–4, 6". */
export function allowedText(question: LineQuestion): string {
  const allowed = question.allowed;
  if (allowed === undefined) return '';
  if (allowed.length === 0) return ' Possible: none with your other answers.';
  const ranges = allowed.map(([min, max]) => (min === max ? `${min}` : `${min}–${max}`));
  return ` Possible with your other answers: ${ranges.join(', ')}.`;
}

/** The line's price range, when it has one: "Complete configurations: EUR 120.00 – 160.00". */
export function priceRangeView(line: Line): TemplateResult | typeof nothing {
  const range = line.price_range;
  if (!range) return nothing;
  const text = range.min === range.max ? range.min : `${range.min} – ${range.max}`;
  return html`<p class="price-range" data-testid="price-range">
    Complete configurations: ${line.pricing.currency}
    ${text}${line.price_bounds?.exact === false ? ' (estimated)' : ''}
  </p>`;
}

/** An unavailable option the buyer picked, and the nearest valid configuration that has it. */
export interface PickOffer {
  question: LineQuestion;
  option: LineOption;
  /** The other answers it changes (undefined while the preview is on its way). */
  changes?: AnswerChange[];
  /** The answers with the pick and those changes. */
  answers?: Answers;
}

/** "Choose “Glass”: we will change Size from “Small” to “Large”", accepted in one click. */
export function pickOfferView(
  offer: PickOffer,
  questions: readonly LineQuestion[],
  on: { accept(): void; dismiss(): void },
): TemplateResult {
  const label = offer.option.label || offer.option.key;
  const changes = offer.changes;
  const what =
    changes === undefined
      ? 'finding the fewest changes…'
      : `we will ${changesText(changes, questions)}.`;
  return html`<div class="offer" role="alert">
    <p>Choose “${label}”: ${what}</p>
    <button
      type="button"
      class="primary"
      ?disabled=${offer.answers === undefined}
      @click=${on.accept}
    >
      Choose “${label}”${changes && changes.length > 0 ? ' and make these changes' : ''}
    </button>
    <button type="button" @click=${on.dismiss}>Keep my answers</button>
  </div>`;
}

/** A stored line whose model moved on: what opening it on the newer version changes. */
export interface VersionMove {
  from: number;
  to: number;
  changes: AnswerChange[];
}

export function versionMoveView(
  move: VersionMove,
  questions: readonly LineQuestion[],
): TemplateResult {
  return html`<div class="offer version-move" role="status" data-testid="version-move">
    <p>
      This line was configured on version ${move.from}; the model is now on version ${move.to}.
      Saving moves it there:
      ${
        move.changes.length === 0
          ? 'its answers stay as they are.'
          : html`we will ${changesText(move.changes, questions)}.`
      }
    </p>
  </div>`;
}

/** A preview with guidance members, with the configurator's current answers (or `answers`). */
export type GuidedPreview = (
  guided: Pick<Schemas['PreviewConfigurationDto'], 'resolve' | 'complete'>,
  answers?: Answers,
) => Promise<Line>;

/** The offer for an unavailable option: the nearest valid configuration that picks it. */
export async function pickOffer(
  preview: GuidedPreview,
  answers: Answers,
  question: LineQuestion,
  option: LineOption,
): Promise<PickOffer> {
  const resolved = await preview({ resolve: { question: question.key, value: option.key } });
  const all = resolved.resolution?.changes ?? [];
  const after = answersAfter(answers, all);
  const current = (after[question.key] ?? question.values).map(String);
  after[question.key] =
    question.type === 'multi_choice' ? [...new Set([...current, option.key])] : [option.key];
  const changes = all.filter((change) => change.question !== question.key);
  return { question, option, changes, answers: after };
}

/**
 * A stored line opened on its model's newer version: its answers carried over as saving
 * with `version_number: "latest"` carries them (docs/adr/0145): the nearest valid
 * configuration, then the questions the version requires and it leaves open answered from
 * a cheapest completion.
 */
export async function carriedOver(
  preview: GuidedPreview,
  answers: Answers,
  from: number,
  to: number,
): Promise<{ answers: Answers; moved: VersionMove }> {
  const carried = await preview({ resolve: true });
  const resolved = carried.resolution?.changes ?? [];
  let after = answersAfter(answers, resolved);
  const open = carried.questions.filter((q) => q.visible && q.required && q.values.length === 0);
  const filled = new Map<string, Value[]>();
  if (open.length > 0) {
    const cheapest = await preview({ complete: 'cheapest' }, after);
    for (const q of cheapest.questions)
      if (open.some((o) => o.key === q.key) && q.values.length > 0)
        filled.set(q.key, q.values as Value[]);
    after = { ...after, ...Object.fromEntries(filled) };
  }
  const changes = resolved.filter((change) => !filled.has(change.question));
  for (const [question, to] of filled) {
    const before = resolved.find((change) => change.question === question)?.from ?? [];
    changes.push({ question, from: before, to });
  }
  return { answers: after, moved: { from, to, changes } };
}

/** The answers with the unanswered questions filled by a cheapest valid completion. */
export async function cheapestAnswers(preview: GuidedPreview, answers: Answers): Promise<Answers> {
  return completedAnswers(answers, await preview({ complete: 'cheapest' }));
}

/** "Complete with the cheapest choices", while a visible question is unanswered. */
export function cheapestButton(line: Line, complete: () => void): TemplateResult | typeof nothing {
  if (!line.questions.some((q) => q.visible && q.values.length === 0)) return nothing;
  return html`<button type="button" class="cheapest" @click=${complete}>
    Complete with the cheapest choices
  </button>`;
}
