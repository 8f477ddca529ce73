// The workbench after a new version of a model: what changed against the version before it
// (GET /v1/models/{id}/diff, whose `from` defaults to `to` − 1), as the change paths (the
// change kinds and paths are the API's codes, shown as they are).
import { html, nothing, type TemplateResult } from 'lit';
import { dataOf, type Schemas, type Session } from './api.js';
import type { Translate } from './i18n/index.js';

export type ModelDiff = Schemas['ModelDiffDto'];

/** The diff of the model's current version against the one before it. */
export async function loadDiff(session: Session, modelId: number): Promise<ModelDiff> {
  const result = await session.client.GET('/v1/models/{id}/diff', {
    params: { path: { id: modelId } },
  });
  return dataOf(result);
}

export function diffView(
  diff: ModelDiff | undefined,
  t: Translate,
): TemplateResult | typeof nothing {
  if (!diff) return nothing;
  return html`<section aria-label=${t('workbench.changes')}>
    <h3>${t('workbench.changesHeading', { from: diff.from, to: diff.to })}</h3>
    ${diff.changes.length === 0 ? html`<p>${t('workbench.noChanges')}</p>` : nothing}
    <ul class="problems" data-testid="changes">
      ${diff.changes.map(
        (c) =>
          html`<li data-change=${c.change}>
            <span class="code">${c.change}</span> <code class="path">${c.path}</code>
          </li>`,
      )}
    </ul>
    ${diff.truncated ? html`<p>${t('workbench.truncated')}</p>` : nothing}
  </section>`;
}
