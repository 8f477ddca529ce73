// What the workbench shows: an upload's failure (the service's problems with their paths)
// and a stored model's analysis. The workbench's own words come from the catalogs; the
// problems' messages are the API's (written for developers, in English, marked so), shown
// beside their code and path, which is what a modeller acts on (docs/adr/0204).
import { html, nothing, type TemplateResult } from 'lit';
import type { ModelDetail, Problem } from './api.js';
import { diffView, type ModelDiff } from './diff-view.js';
import type { Translate } from './i18n/index.js';
import { grouped } from './line-view.js';

/** Why an upload did not store anything: the workbench's sentence, and the service's answer. */
export interface UploadFailure {
  text: string;
  /** The service's own message (English, for developers), when it answered. */
  detail?: string;
  problems: Problem[];
}

/** A problem's message, its path shown once: marked where the message names it, else after it. */
function problemItem(p: Problem, t: Translate): TemplateResult {
  const path = (text: string) => html`<code class="path">${text}</code>`;
  const at = p.path ? p.message.indexOf(p.path) : -1;
  const text =
    at >= 0 && p.path
      ? html`${p.message.slice(0, at)}${path(p.path)}${p.message.slice(at + p.path.length)}`
      : html`${p.message}${p.path ? html` ${t('workbench.at')} ${path(p.path)}` : nothing}`;
  return html`<li><code class="code">${p.code}</code> <span lang="en">${text}</span></li>`;
}

export function problemList(problems: Problem[], t: Translate): TemplateResult {
  return html`<ul class="problems">
    ${problems.map((p) => problemItem(p, t))}
  </ul>`;
}

/** The failure, with the offer of a new version when the file's code is taken. */
export function failureView(
  failure: UploadFailure | undefined,
  t: Translate,
  newVersion: { id: number; upload: () => void } | undefined,
): TemplateResult | typeof nothing {
  if (!failure) return nothing;
  return html`<section class="failure" role="alert" aria-label=${t('workbench.problems')}>
    <p>${failure.text}</p>
    ${failure.detail ? html`<p lang="en">${failure.detail}</p>` : nothing}
    ${problemList(failure.problems, t)}
    ${
      newVersion
        ? html`<button type="button" @click=${newVersion.upload}>
            ${t('workbench.newVersion', { id: newVersion.id })}
          </button>`
        : nothing
    }
  </section>`;
}

/** How many configurations the analysis counted, in the modeller's locale. */
function configurations(a: ModelDetail['analysis'], t: Translate, locale: string): string {
  if (a.configurations !== null) return grouped(a.configurations, locale);
  if (a.configurations_at_most)
    return t('workbench.atMost', { count: grouped(a.configurations_at_most, locale) });
  return t('workbench.notCounted');
}

/** The stored model: its analysis, warnings (dead options), changes, and the way on. */
export function resultView(
  model: ModelDetail,
  view: { warnings: Problem[]; diff: ModelDiff | undefined; t: Translate; locale: string },
  open: () => void,
): TemplateResult {
  const { t, locale } = view;
  const a = model.analysis;
  const name = String(model.general.name ?? '');
  return html`<section class="card result" aria-label=${t('workbench.result')}>
    <h2>${t('workbench.heading', { id: model.id, version: model.version_number, name })}</h2>
    <dl class="analysis">
      <dt>${t('workbench.availability')}</dt>
      <dd>
        ${a.exact ? t('workbench.exact') : t('workbench.approximate', { reason: a.reason ?? t('workbench.notExact') })}
      </dd>
      <dt>${t('workbench.configurations')}</dt>
      <dd data-testid="configurations">${configurations(a, t, locale)}</dd>
      <dt>${t('workbench.deadOptions')}</dt>
      <dd>
        ${a.dead_options.length === 0 ? t('workbench.none') : a.dead_options.map((d) => html`<code>${d}</code> `)}
      </dd>
      <dt>${t('workbench.compiledIn')}</dt>
      <dd>${a.compile_ms} ms</dd>
    </dl>
    ${
      view.warnings.length > 0
        ? html`<h3>${t('workbench.warnings')}</h3>
            ${problemList(view.warnings, t)}`
        : nothing
    }
    ${diffView(view.diff, t)}
    <button type="button" class="primary" @click=${open}>${t('workbench.open')}</button>
  </section>`;
}
