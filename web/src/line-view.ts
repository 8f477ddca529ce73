// The evaluated line beside the questions: what remains, the price, the messages, the BOM
// and the images.
import { html, nothing, type TemplateResult } from 'lit';
import type { ApiFailure, BomItem, Line, Problem } from './api.js';

/** "278,744" for a decimal string of any length (BigInt, so no rounding). */
export function grouped(decimal: string): string {
  try {
    return BigInt(decimal).toLocaleString('en');
  } catch {
    return decimal;
  }
}

export function countView(line: Line): TemplateResult {
  const c = line.consistency;
  if (!c) return html``;
  const count = c.configurations ?? c.configurations_at_most;
  if (count === null || count === undefined) return html``;
  return html`<p class="count" data-testid="configurations">
    ${c.configurations === null ? 'at most ' : ''}<strong>${grouped(count)}</strong>
    ${count === '1' ? 'configuration remains' : 'configurations remain'}${
      c.exact ? '' : ' (availability is approximate for this model)'
    }
  </p>`;
}

export function priceView(line: Line): TemplateResult {
  const p = line.pricing;
  const row = (label: string, amount: string, cls = '') =>
    html`<tr class=${cls}>
      <th scope="row">${label}</th>
      <td>${amount}</td>
    </tr>`;
  return html`<table class="price" aria-label="Price breakdown">
    <caption>
      Price (${p.currency})
    </caption>
    <tbody>
      ${row('Base price', p.base_price)} ${row('Options', p.options_total)}
      ${row('Bill of materials', p.bom_total)} ${row('Subtotal', p.subtotal, 'sub')}
      ${p.adjustments.map((a) => row(a.label || a.key, a.amount))} ${row('Total', p.total, 'total')}
    </tbody>
  </table>`;
}

function problemItem(p: Problem): TemplateResult {
  return html`<li>${p.message}${p.path ? html` <code>${p.path}</code>` : nothing}</li>`;
}

/** The errors with a conflict once: the API repeats it on each of its answers' paths. */
function oneConflict(errors: Problem[]): Problem[] {
  let shown = false;
  return errors.filter((p) => {
    if (p.code !== 'conflict' || p.answers === undefined) return true;
    const first = !shown;
    shown = true;
    return first;
  });
}

/**
 * A line's error; a conflict in the words of the page: the questions' labels with the
 * answers, and the messages of the rules between them (the line carries both).
 */
function lineProblem(line: Line, p: Problem): TemplateResult {
  if (p.code !== 'conflict' || p.answers === undefined) return problemItem(p);
  const answers = p.answers.map((a) => {
    const q = line.questions.find((candidate) => candidate.key === a.question);
    // A choice's values by their option labels, as the form shows them.
    const values = a.values.map((v) => q?.options?.find((o) => o.key === v)?.label ?? String(v));
    return `${q?.label ?? a.question} (${values.join(', ')})`;
  });
  const rules = (p.rules ?? []).map((key) => line.rules.find((r) => r.key === key)?.message ?? key);
  return html`<li class="conflict">
    Your answers to ${answers.join(' and ')} cannot be
    combined${rules.length > 0 ? `: ${rules.join('; ')}` : ''}. Change one of them.
  </li>`;
}

/** A failed call: its message and every problem with its path. */
export function failureView(failure: ApiFailure): TemplateResult {
  return html`<div class="failure" role="alert">
    ${failure.message}
    <ul>
      ${failure.problems.map(problemItem)}
    </ul>
  </div>`;
}

/** Errors (the line is not valid yet), warnings, failed or pending rules, fired triggers' messages. */
export function messagesView(line: Line): TemplateResult {
  const rules = line.rules.filter((r) => r.status === 'failed' || r.status === 'pending');
  const fired = line.triggers.filter((t) => t.fired && t.message);
  return html`<section class="messages" aria-label="Messages" aria-live="polite">
    ${
      line.errors.length > 0
        ? html`<h3>To complete</h3>
            <ul class="errors">
              ${oneConflict(line.errors).map((p) => lineProblem(line, p))}
            </ul>`
        : html`<p class="ok">The configuration is complete and valid.</p>`
    }
    ${
      line.warnings.length > 0
        ? html`<ul class="warnings">
            ${line.warnings.map(problemItem)}
          </ul>`
        : nothing
    }
    ${
      rules.length + fired.length > 0
        ? html`<ul class="rules">
            ${rules.map(
              (r) =>
                html`<li class=${r.severity}>
                  ${r.message} <small>(${r.key}: ${r.status})</small>
                </li>`,
            )}
            ${fired.map((t) => html`<li class="trigger">${t.message}</li>`)}
          </ul>`
        : nothing
    }
  </section>`;
}

function bomNode(item: BomItem): TemplateResult {
  return html`<li role="treeitem" aria-expanded=${item.children.length > 0 ? 'true' : nothing}>
    <span class="sku">${item.sku}</span> ${item.description}
    <span class="qty">${item.quantity}${item.unit ? ` ${item.unit}` : ''}</span>
    <span class="amount">${item.total_price}</span>
    ${
      item.children.length > 0
        ? html`<ul role="group">
            ${item.children.map(bomNode)}
          </ul>`
        : nothing
    }
  </li>`;
}

export function bomView(line: Line): TemplateResult {
  return html`<details class="bom" open>
    <summary>Bill of materials (${line.bom_items.length})</summary>
    <ul role="tree" aria-label="Bill of materials">
      ${line.bom_items.map(bomNode)}
    </ul>
  </details>`;
}

/** The layered images, lowest layer first; `src` maps an image URL to what the page may load. */
export function imagesView(line: Line, src: (url: string) => string | undefined): TemplateResult {
  if (line.images.length === 0) return html``;
  const layers = [...line.images].sort((a, b) => a.layer - b.layer);
  return html`<figure class="images" aria-label="Product image">
    ${layers.map((image) => {
      const url = src(image.url);
      return url
        ? html`<img
            src=${url}
            alt=${image.alt ?? ''}
            style="z-index:${image.layer}"
            @error=${(e: Event) => ((e.target as HTMLImageElement).hidden = true)}
          />`
        : nothing;
    })}
  </figure>`;
}
