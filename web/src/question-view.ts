// One question of a line as form controls. Every control has a label; an unavailable
// option is described (aria-describedby) by the text of its reason, so a screen reader
// announces why; native radios, checkboxes and inputs keep the whole form keyboard-usable.
import { html, nothing, type TemplateResult } from 'lit';
import type { DescribedQuestion, LineOption, LineQuestion, Value } from './api.js';
import { allowedText, optionPrice } from './guidance-text.js';
import type { Translate } from './i18n/index.js';

export interface QuestionHandlers {
  /** A choice option picked (or a multi_choice option ticked: `on`); `option` is unavailable when `offer`. */
  choose(question: LineQuestion, option: LineOption, on: boolean): void;
  /** A typed value: `settled` false while typing (debounced), true on change; `typed` as typed. */
  set(question: LineQuestion, value: Value | undefined, settled: boolean, typed?: string): void;
  clear(question: LineQuestion): void;
  /** Texts of rules, by key, to say why an option is unavailable. */
  ruleMessage(key: string): string | undefined;
  /** Question labels, by key, for conflicts_with. */
  questionLabel(key: string): string;
  /** The values the user answered (not defaults), by question key. */
  answered(key: string): boolean;
  /** What the user typed into a field, while it is their answer. */
  typed(key: string): string | undefined;
  /** The line's currency (options show the total they lead to). */
  currency(): string;
  /** The buyer's language. */
  t: Translate;
}

/** Why an option is unavailable, in words: its rules' messages, then the answers it conflicts with. */
export function reasonOf(option: LineOption, h: QuestionHandlers): string {
  const { t } = h;
  const because = option.unavailable_because.map((key) =>
    key === option.key
      ? t('unavailable.own')
      : key === 'blocked_by_conflict'
        ? t('unavailable.conflict')
        : (h.ruleMessage(key) ?? t('unavailable.model')),
  );
  // Each reason once: several rules without a message of their own read alike.
  const reasons = [...new Set(because)].join('; ');
  const parts = [t('unavailable.because', { reasons: reasons || t('unavailable.model') })];
  const conflicts = option.conflicts_with ?? [];
  if (conflicts.length > 0) {
    parts.push(
      t('unavailable.conflictsWith', { questions: conflicts.map(h.questionLabel).join(', ') }),
    );
  }
  return parts.join(' ');
}

function marks(q: LineQuestion, t: Translate): TemplateResult | typeof nothing {
  const soft =
    q.source === 'default'
      ? html`<span class="mark">${t('question.default')}</span>`
      : q.source === 'trigger'
        ? html`<span class="mark">${t('question.trigger')}</span>`
        : nothing;
  const suppressed =
    (q.suppressed ?? []).length > 0
      ? html`<span class="mark suppressed" title=${(q.suppressed ?? []).join(', ')}
          >${t('question.suppressed')}</span
        >`
      : nothing;
  return html`${soft}${suppressed}`;
}

function required(q: LineQuestion, t: Translate): TemplateResult | typeof nothing {
  return q.required ? html` <span class="req">${t('question.required')}</span>` : nothing;
}

function price(option: LineOption, h: QuestionHandlers): TemplateResult | typeof nothing {
  const own =
    Number(option.price) !== 0 ? html`<span class="price">+${option.price}</span>` : nothing;
  return html`${own} ${optionPrice(option, h.currency(), h.t)}`;
}

function optionRow(
  q: LineQuestion,
  o: LineOption,
  h: QuestionHandlers,
  type: 'radio' | 'checkbox',
): TemplateResult {
  const id = `${q.key}--${o.key}`;
  // An option that only conflicts with answers stays choosable: choosing it offers to drop them.
  const offer = !o.available && (o.conflicts_with ?? []).length > 0;
  const disabled = !o.available && !offer;
  return html`<div class="option ${o.available ? '' : 'unavailable'}">
    <input
      type=${type}
      id=${id}
      name=${q.key}
      .checked=${o.selected}
      ?disabled=${disabled}
      aria-describedby=${o.available ? nothing : `${id}--why`}
      @change=${(e: Event) => {
        const input = e.target as HTMLInputElement;
        const on = input.checked;
        // Unavailable: nothing is chosen until the offer is accepted.
        if (!o.available) input.checked = o.selected;
        h.choose(q, o, on);
      }}
    />
    <label for=${id}>${o.label} ${price(o, h)}</label>
    ${o.available ? nothing : html`<span class="why" id="${id}--why">${reasonOf(o, h)}</span>`}
  </div>`;
}

function clearButton(
  q: LineQuestion,
  h: QuestionHandlers,
  label: string,
): TemplateResult | typeof nothing {
  if (!h.answered(q.key)) return nothing;
  return html`<button type="button" class="link" @click=${() => h.clear(q)}>
    ${h.t('question.clear', { label })}
  </button>`;
}

function choiceGroup(q: LineQuestion, h: QuestionHandlers, label: string): TemplateResult {
  const type = q.type === 'multi_choice' ? 'checkbox' : 'radio';
  return html`<fieldset class="question" data-key=${q.key}>
    <legend>${label}${required(q, h.t)} ${marks(q, h.t)}</legend>
    ${(q.options ?? []).map((o) => optionRow(q, o, h, type))} ${clearButton(q, h, label)}
  </fieldset>`;
}

/** Consecutive integers as ranges: [400, 410, 420, 600] with step 10 → "400–420, 600". */
function ranges(values: (number | boolean)[], step: number): string {
  const out: string[] = [];
  let start: number | undefined;
  let last: number | undefined;
  const flush = () => {
    if (start === undefined || last === undefined) return;
    out.push(start === last ? String(start) : `${start}–${last}`);
  };
  for (const v of values.map(Number)) {
    if (last !== undefined && v - last === step) last = v;
    else {
      flush();
      start = last = v;
    }
  }
  flush();
  return out.join(', ');
}

function booleanGroup(q: LineQuestion, h: QuestionHandlers, label: string): TemplateResult {
  const blocked = new Set(q.unavailable_values ?? []);
  const row = (value: boolean, text: string) => {
    const id = `${q.key}--${value}`;
    const unavailable = blocked.has(value);
    return html`<div class="option ${unavailable ? 'unavailable' : ''}">
      <input
        type="radio"
        id=${id}
        name=${q.key}
        .checked=${q.values[0] === value}
        ?disabled=${unavailable}
        aria-describedby=${unavailable ? `${id}--why` : nothing}
        @change=${() => h.set(q, value, true)}
      />
      <label for=${id}>${text}</label>
      ${
        unavailable
          ? html`<span class="why" id="${id}--why">${h.t('unavailable.boolean')}</span>`
          : nothing
      }
    </div>`;
  };
  return html`<fieldset class="question" data-key=${q.key}>
    <legend>${label}${required(q, h.t)} ${marks(q, h.t)}</legend>
    ${row(true, h.t('question.yes'))} ${row(false, h.t('question.no'))} ${clearButton(q, h, label)}
  </fieldset>`;
}

function inputField(
  q: LineQuestion,
  d: DescribedQuestion | undefined,
  h: QuestionHandlers,
  label: string,
): TemplateResult {
  const numeric = q.type === 'number' || q.type === 'integer';
  const read = (e: Event): Value | undefined => {
    const raw = (e.target as HTMLInputElement).value;
    if (raw.trim() === '') return undefined;
    return numeric ? Number(raw) : raw;
  };
  const { t } = h;
  const hint = [
    d?.min !== undefined ? t('question.min', { n: d.min }) : '',
    d?.max !== undefined ? t('question.max', { n: d.max }) : '',
    d?.step !== undefined ? t('question.step', { n: d.step }) : '',
    d?.max_length !== undefined ? t('question.maxLength', { n: d.max_length }) : '',
  ]
    .filter(Boolean)
    .join(', ');
  const blocked = q.unavailable_values ?? [];
  // The text as typed while it is the user's answer: a preview answering while they type
  // must not put back an older value (or "12" for "12.").
  const shown = h.typed(q.key) ?? (q.values[0] === undefined ? '' : String(q.values[0]));
  return html`<div class="question field" data-key=${q.key}>
    <label for=${q.key}>${label}${d?.unit ? ` (${d.unit})` : ''}${required(q, t)}</label>
    ${marks(q, t)}
    <input
      id=${q.key}
      type=${numeric ? 'number' : 'text'}
      inputmode=${numeric ? (q.type === 'integer' ? 'numeric' : 'decimal') : nothing}
      min=${d?.min ?? nothing}
      max=${d?.max ?? nothing}
      step=${d?.step ?? (q.type === 'integer' ? 1 : 'any')}
      maxlength=${d?.max_length ?? nothing}
      aria-describedby="${q.key}--hint"
      .value=${shown}
      @input=${(e: Event) => h.set(q, read(e), false, (e.target as HTMLInputElement).value)}
      @change=${(e: Event) => h.set(q, read(e), true, (e.target as HTMLInputElement).value)}
    />
    <span class="hint" id="${q.key}--hint"
      >${hint}${allowedText(q, t)}${
        blocked.length > 0
          ? ` ${t('question.blocked', { ranges: ranges(blocked, d?.step ?? 1) })}`
          : ''
      }</span
    >
  </div>`;
}

/** The controls of one visible question. */
export function questionView(
  q: LineQuestion,
  d: DescribedQuestion | undefined,
  h: QuestionHandlers,
): TemplateResult | typeof nothing {
  if (!q.visible) return nothing;
  const label = q.label || q.key;
  if (q.type === 'choice' || q.type === 'multi_choice') return choiceGroup(q, h, label);
  if (q.type === 'boolean') return booleanGroup(q, h, label);
  return inputField(q, d, h, label);
}
