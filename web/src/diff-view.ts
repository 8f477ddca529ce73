// The workbench after a new version of a model: what changed against the version before it
// (GET /v1/models/{id}/diff, whose `from` defaults to `to` − 1), as the change paths.
import { html, nothing, type TemplateResult } from 'lit';
import { dataOf, type Schemas, type Session } from './api.js';

export type ModelDiff = Schemas['ModelDiffDto'];

/** The diff of the model's current version against the one before it. */
export async function loadDiff(session: Session, modelId: number): Promise<ModelDiff> {
  const result = await session.client.GET('/v1/models/{id}/diff', {
    params: { path: { id: modelId } },
  });
  return dataOf(result);
}

export function diffView(diff: ModelDiff | undefined): TemplateResult | typeof nothing {
  if (!diff) return nothing;
  return html`<section aria-label="Changes">
    <h3>Changes from version ${diff.from} to ${diff.to}</h3>
    ${diff.changes.length === 0 ? html`<p>No changes.</p>` : nothing}
    <ul class="problems" data-testid="changes">
      ${diff.changes.map(
        (c) =>
          html`<li data-change=${c.change}>
            <span class="code">${c.change}</span> <code class="path">${c.path}</code>
          </li>`,
      )}
    </ul>
    ${diff.truncated ? html`<p>More changes than shown (the list is truncated).</p>` : nothing}
  </section>`;
}
