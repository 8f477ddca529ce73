// The total and the action, kept in view (docs/adr/0168): atop the sticky side panel on a
// wide element, a bar at the bottom of the screen on a narrow one. Its progress bar shows
// by CSS once an answer takes 150 ms (styles.ts).
import { html, nothing, type TemplateResult } from 'lit';
import type { Line, LineOption, LineQuestion } from './api.js';
import type { Translate } from './i18n/index.js';
import { actionsView } from './line-edit.js';

export interface BarActions {
  editing: boolean;
  notice: string | undefined;
  add(): void;
  save(): void;
  cancel(): void;
}

export function barView(line: Line, t: Translate, on: BarActions): TemplateResult {
  return html`<div class="bar">
    <div class="progress" role="progressbar" aria-label=${t('configurator.busy')}></div>
    <p class="bar-total">
      <span>${t('price.total')}</span>
      <strong data-testid="total">${line.pricing.currency} ${line.pricing.total}</strong>
    </p>
    <div class="actions">${actionsView(line.valid, on.editing, t, on)}</div>
    ${on.notice ? html`<p class="notice" role="status">${on.notice}</p>` : nothing}
  </div>`;
}

/** An option that conflicts with answers, chosen: the offer to drop them (docs/adr/0081). */
export interface Offer {
  question: LineQuestion;
  option: LineOption;
}

/** The offer beside its question: drop the conflicting answers (by label), or keep them. */
export function offerView(
  offer: Offer,
  labels: string[],
  t: Translate,
  on: { accept(): void; keep(): void },
): TemplateResult {
  const params = { option: offer.option.label, questions: labels.join(', ') };
  return html`<div class="offer" role="alert">
    <p>${t(labels.length === 1 ? 'offer.one' : 'offer.many', params)}</p>
    <button type="button" class="primary" @click=${on.accept}>${t('offer.accept', params)}</button>
    <button type="button" @click=${on.keep}>${t('offer.keep')}</button>
  </div>`;
}
