// The total and the actions, kept in view (docs/adr/0168): atop the sticky side panel on a
// wide element, a bar at the bottom of the screen on a narrow one, with the totals the
// complete configurations can reach and the cheapest completion. Its progress bar shows
// by CSS once an answer takes 150 ms (styles.ts).
import { html, nothing, type TemplateResult } from 'lit';
import type { Line, LineQuestion } from './api.js';
import type { PickOffer } from './guidance.js';
import { changesText, priceRangeView } from './guidance-text.js';
import type { Translate } from './i18n/index.js';
import { actionsView } from './line-edit.js';

export interface BarActions {
  editing: boolean;
  notice: string | undefined;
  add(): void;
  save(): void;
  cancel(): void;
  /** Fills the unanswered questions with a cheapest valid completion. */
  cheapest(): void;
}

export function barView(line: Line, t: Translate, on: BarActions): TemplateResult {
  const open = line.questions.some((q) => q.visible && q.values.length === 0);
  return html`<div class="bar">
    <div class="progress" role="progressbar" aria-label=${t('configurator.busy')}></div>
    <p class="bar-total">
      <span>${t('price.total')}</span>
      <strong data-testid="total">${line.pricing.currency} ${line.pricing.total}</strong>
    </p>
    ${priceRangeView(line, t)}
    <div class="actions">
      ${actionsView(line.valid, on.editing, t, on)}
      ${
        open
          ? html`<button type="button" class="cheapest" @click=${on.cheapest}>
              ${t('action.cheapest')}
            </button>`
          : nothing
      }
    </div>
    ${on.notice ? html`<p class="notice" role="status">${on.notice}</p>` : nothing}
  </div>`;
}

/**
 * The offer beside the question of an unavailable option the buyer picked: the nearest
 * valid configuration that has it ("Choose X: we will change Y to Z"), taken in one click,
 * or keep the answers.
 */
export function offerView(
  offer: PickOffer,
  questions: readonly LineQuestion[],
  t: Translate,
  on: { accept(): void; keep(): void },
): TemplateResult {
  const option = offer.option.label || offer.option.key;
  const changes = offer.changes;
  const what =
    changes === undefined
      ? `${t('offer.choose', { option })}: ${t('offer.finding')}`
      : changes.length === 0
        ? t('offer.alone', { option })
        : t('offer.pick', { option, changes: changesText(changes, questions, t) });
  const accept = changes && changes.length > 0 ? 'offer.chooseAndChange' : 'offer.choose';
  return html`<div class="offer" role="alert">
    <p>${what}</p>
    <button
      type="button"
      class="primary"
      ?disabled=${offer.answers === undefined}
      @click=${on.accept}
    >
      ${t(accept, { option })}
    </button>
    <button type="button" @click=${on.keep}>${t('offer.keep')}</button>
  </div>`;
}
