// The configurator's page: the questions (with an offer beside the question of an
// unavailable pick), the sticky side panel or bottom bar with the total and the actions,
// and the evaluated line beside them.
import { html, nothing, type TemplateResult } from 'lit';
import type { DescribedModel, Line, LineQuestion } from './api.js';
import { barView, offerView, type BarActions } from './bar-view.js';
import type { PickOffer, VersionMove } from './guidance.js';
import { versionMoveView } from './guidance-text.js';
import type { Translate } from './i18n/index.js';
import {
  bomView,
  countView,
  imagesView,
  messagesView,
  priceView,
  variablesView,
} from './line-view.js';
import { questionView, type QuestionHandlers } from './question-view.js';

export interface ConfiguratorParts {
  t: Translate;
  locale: string;
  baseUrl: string;
  modeller: boolean;
  described: DescribedModel | undefined;
  failure: TemplateResult | typeof nothing;
  moved: VersionMove | undefined;
  handlers: QuestionHandlers;
  /** The offer for an unavailable pick, shown beside its question. */
  offer: PickOffer | undefined;
  offerActions: { accept(): void; keep(): void };
  bar: BarActions;
}

function offerBeside(q: LineQuestion, line: Line, p: ConfiguratorParts) {
  if (p.offer?.question.key !== q.key) return nothing;
  return offerView(p.offer, line.questions, p.t, p.offerActions);
}

export function configuratorView(line: Line, p: ConfiguratorParts): TemplateResult {
  const { t, locale } = p;
  const described = new Map((p.described?.questions ?? []).map((q) => [q.key, q]));
  return html`<div class="layout">
    <header>
      <h2>${line.general.name}</h2>
      ${line.general.description ? html`<p>${line.general.description}</p>` : nothing}
      ${countView(line, t, locale)}
    </header>
    ${p.failure} ${p.moved ? versionMoveView(p.moved, line.questions, t) : nothing}
    <form
      class="questions"
      aria-label=${t('configurator.questions')}
      @submit=${(e: Event) => e.preventDefault()}
    >
      ${line.questions.map(
        (q) => html`${questionView(q, described.get(q.key), p.handlers)}${offerBeside(q, line, p)}`,
      )}
    </form>
    <div class="side">
      ${barView(line, t, p.bar)}
      <aside class="summary" aria-label=${t('configurator.summary')}>
        ${imagesView(line, p.baseUrl, t)} ${variablesView(line, t, locale)} ${priceView(line, t)}
        ${messagesView(line, p.described, t, p.modeller)} ${bomView(line, t)}
      </aside>
    </div>
  </div>`;
}
