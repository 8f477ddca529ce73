// The evaluated line beside the questions: what remains, the price, the messages, the BOM
// and the images, in the buyer's language (`t`).
import { html, nothing, type TemplateResult } from 'lit';
import type { ApiFailure, BomItem, Line, Problem } from './api.js';
import { ruleMessage, type LineDescription } from './full-line.js';
import type { Translate } from './i18n/index.js';
import { failureText, isBuyerProblem, problemText } from './problems.js';

/** "278,744" for a decimal string of any length (BigInt, so no rounding). */
export function grouped(decimal: string, locale = 'en'): string {
  try {
    return BigInt(decimal).toLocaleString(locale);
  } catch {
    return decimal;
  }
}

export function countView(line: Line, t: Translate, locale: string): TemplateResult {
  const c = line.consistency;
  if (!c) return html``;
  const count = c.configurations ?? c.configurations_at_most;
  if (count === null || count === undefined) return html``;
  const key =
    c.configurations === null ? 'count.atMost' : count === '1' ? 'count.one' : 'count.many';
  const [before, after] = t(key, { count: '\u0000' }).split('\u0000');
  return html`<p class="count" data-testid="configurations">
    ${before}<strong>${grouped(count, locale)}</strong>${after}${
      c.exact ? '' : ` ${t('count.approximate')}`
    }
  </p>`;
}

/** A displayed variable's value in the buyer's locale: numbers grouped, at most 2 decimals. */
export function formatValue(value: unknown, locale: string): string {
  if (typeof value === 'number') {
    return new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(value);
  }
  return value === null || value === undefined ? '–' : String(value);
}

/** The computed values the modeller shows buyers (`display: true`): label, value, unit. */
export function variablesView(line: Line, t: Translate, locale: string): TemplateResult {
  const shown = line.displayed_variables ?? [];
  if (shown.length === 0) return html``;
  return html`<dl class="variables" aria-label=${t('variables.label')}>
    ${shown.map(
      (v) =>
        html`<dt>${v.label}</dt>
          <dd data-key=${v.key}>${formatValue(v.value, locale)}${v.unit ? ` ${v.unit}` : ''}</dd>`,
    )}
  </dl>`;
}

export function priceView(line: Line, t: Translate): TemplateResult {
  const p = line.pricing;
  const row = (label: string, amount: string, cls = '') =>
    html`<tr class=${cls}>
      <th scope="row">${label}</th>
      <td>${amount}</td>
    </tr>`;
  return html`<table class="price" aria-label=${t('price.breakdown')}>
    <caption>
      ${t('price.caption', { currency: p.currency })}
    </caption>
    <tbody>
      ${row(t('price.base'), p.base_price)} ${row(t('price.options'), p.options_total)}
      ${row(t('price.bom'), p.bom_total)} ${row(t('price.subtotal'), p.subtotal, 'sub')}
      ${p.adjustments.map((a) => row(a.label || a.key, a.amount))}
      ${row(t('price.total'), p.total, 'total')}
    </tbody>
  </table>`;
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
 * A conflict in the words of the page: the questions' labels with the answers, and the
 * messages of the rules between them (the line's, else the description's).
 */
function conflictText(
  line: Line,
  described: LineDescription | undefined,
  p: Problem,
  t: Translate,
): string {
  const answers = (p.answers ?? []).map((a) => {
    const q = line.questions.find((candidate) => candidate.key === a.question);
    // A choice's values by their option labels, as the form shows them.
    const values = a.values.map((v) => q?.options?.find((o) => o.key === v)?.label ?? String(v));
    return `${q?.label ?? a.question} (${values.join(', ')})`;
  });
  const rules = (p.rules ?? []).map((key) => ruleMessage(line, described, key) ?? key);
  return t('messages.conflict', {
    answers: answers.join(t('messages.and')),
    rules: rules.length > 0 ? `: ${rules.join('; ')}` : '',
  });
}

/** A failed call in the buyer's words; the API's detail went to the console (Session). */
export function failureView(failure: ApiFailure, t: Translate): TemplateResult {
  return html`<div class="failure" role="alert">${failureText(failure, t)}</div>`;
}

/** A modeller's problem as the API tells it: code, message, path. */
function technicalItem(p: Problem): TemplateResult {
  return html`<li>
    <code>${p.code}</code> ${p.message}${p.path ? html` <code>${p.path}</code>` : nothing}
  </li>`;
}

/**
 * What remains to do, in the buyer's words (labels, rule messages); a problem only the
 * modeller can fix reads as one sentence to a buyer, and in full with `modeller`.
 */
export function messagesView(
  line: Line,
  described: LineDescription | undefined,
  t: Translate,
  modeller: boolean,
): TemplateResult {
  const errors = oneConflict(line.errors);
  // A modeller's problem usually follows from an unanswered question (a BOM quantity of an
  // unanswered width): the buyer's own problems first; the one sentence only without them.
  const own = errors.filter(isBuyerProblem);
  const items = (own.length > 0 ? own : errors).map((p) =>
    p.code === 'conflict' && p.answers !== undefined
      ? { text: conflictText(line, described, p, t), conflict: true }
      : {
          text: isBuyerProblem(p) ? problemText(p, line, t) : t('problem.technical'),
          conflict: false,
        },
  );
  // Two problems of one question may read the same to a buyer: each sentence once.
  const buyers = items.filter((item, i) => items.findIndex((o) => o.text === item.text) === i);
  const technical = [...line.errors, ...line.warnings].filter((p) => !isBuyerProblem(p));
  const fired = line.triggers.filter((t) => t.fired && t.message);
  const warnings = line.rules.filter((r) => r.status === 'failed' && r.severity === 'warning');
  return html`<section class="messages" aria-label=${t('messages.label')}>
    ${
      buyers.length > 0
        ? html`<h3>${t('messages.toComplete')}</h3>
            <ul class="errors">
              ${buyers.map((item) => html`<li class=${item.conflict ? 'conflict' : ''}>${item.text}</li>`)}
            </ul>`
        : html`<p class="ok">${t('messages.complete')}</p>`
    }
    ${
      warnings.length + fired.length > 0
        ? html`<ul class="rules">
            ${warnings.map((r) => html`<li class="warning">${r.message}</li>`)}
            ${fired.map((tr) => html`<li class="trigger">${tr.message}</li>`)}
          </ul>`
        : nothing
    }
    ${
      modeller && technical.length > 0
        ? html`<details class="modeller" open>
            <summary>${t('messages.modeller')}</summary>
            <ul>
              ${technical.map(technicalItem)}
            </ul>
          </details>`
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

export function bomView(line: Line, t: Translate): TemplateResult {
  return html`<details class="bom" open>
    <summary>${t('bom.title', { count: line.bom_items.length })}</summary>
    <ul role="tree" aria-label=${t('bom.tree')}>
      ${line.bom_items.map(bomNode)}
    </ul>
  </details>`;
}

/**
 * The layered images, lowest layer first. Their URLs are signed (the signature is the
 * credential), so a plain <img src> loads them: no header, so no preflight, from any origin.
 * One that fails is hidden until an image loads in its place (Lit reuses the element).
 */
export function imagesView(line: Line, base: string, t: Translate): TemplateResult {
  if (line.images.length === 0) return html``;
  const layers = [...line.images].sort((a, b) => a.layer - b.layer);
  return html`<figure class="images" aria-label=${t('images.label')}>
    ${layers.map(
      (image) =>
        html`<img
          src=${/^https?:\/\//.test(image.url) ? image.url : `${base}${image.url}`}
          alt=${image.alt ?? ''}
          style="z-index:${image.layer}"
          @load=${(e: Event) => ((e.target as HTMLImageElement).hidden = false)}
          @error=${(e: Event) => ((e.target as HTMLImageElement).hidden = true)}
        />`,
    )}
  </figure>`;
}
