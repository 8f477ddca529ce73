// One question of a line as form controls. Every control has a label; an unavailable
// option is described (aria-describedby) by the text of its reason, so a screen reader
// announces why; native radios, checkboxes and inputs keep the whole form keyboard-usable.
import { html, nothing, type TemplateResult } from 'lit';
import type { DescribedQuestion, LineOption, LineQuestion, Value } from './api.js';
import { allowedText, optionPrice } from './guidance.js';

export interface QuestionHandlers {
  /** A choice option picked (or a multi_choice option ticked: `on`); `option` is unavailable when `offer`. */
  choose(question: LineQuestion, option: LineOption, on: boolean): void;
  /** A typed value: `settled` false while typing (debounced), true on change; `typed` as typed. */
  set(question: LineQuestion, value: Value | undefined, settled: boolean, typed?: string): void;
  clear(question: LineQuestion): void;
  /** The line's currency (options show the total they lead to). */
  currency(): string;
  /** Texts of rules, by key, to say why an option is unavailable. */
  ruleMessage(key: string): string | undefined;
  /** Question labels, by key, for conflicts_with. */
  questionLabel(key: string): string;
  /** The values the user answered (not defaults), by question key. */
  answered(key: string): boolean;
  /** What the user typed into a field, while it is their answer. */
  typed(key: string): string | undefined;
}

/** Why an option is unavailable, in words: its rules' messages, then the answers it conflicts with. */
export function reasonOf(option: LineOption, h: QuestionHandlers): string {
  const because = option.unavailable_because.map((key) =>
    key === option.key
      ? 'its own condition is not met'
      : key === 'blocked_by_conflict'
        ? 'your other answers conflict (see the messages)'
        : (h.ruleMessage(key) ?? `rule ${key}`),
  );
  const parts = [`Unavailable: ${because.join('; ') || 'excluded by the model'}.`];
  const conflicts = option.conflicts_with ?? [];
  if (conflicts.length > 0) {
    parts.push(`Conflicts with your answer to ${conflicts.map(h.questionLabel).join(', ')}.`);
  }
  return parts.join(' ');
}

function marks(q: LineQuestion): TemplateResult | typeof nothing {
  const soft =
    q.source === 'default'
      ? html`<span class="mark">default</span>`
      : q.source === 'trigger'
        ? html`<span class="mark">set by a rule</span>`
        : nothing;
  const suppressed =
    (q.suppressed ?? []).length > 0
      ? html`<span class="mark suppressed" title=${(q.suppressed ?? []).join(', ')}
          >default left out: it would leave no valid configuration</span
        >`
      : nothing;
  return html`${soft}${suppressed}`;
}

function price(option: LineOption, h: QuestionHandlers): TemplateResult | typeof nothing {
  const own =
    Number(option.price) !== 0 ? html`<span class="price">+${option.price}</span>` : nothing;
  return html`${own} ${optionPrice(option, h.currency())}`;
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
    Clear ${label}
  </button>`;
}

function choiceGroup(q: LineQuestion, h: QuestionHandlers, label: string): TemplateResult {
  const type = q.type === 'multi_choice' ? 'checkbox' : 'radio';
  return html`<fieldset class="question" data-key=${q.key}>
    <legend>
      ${label}${q.required ? html` <span class="req">(required)</span>` : nothing} ${marks(q)}
    </legend>
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
          ? html`<span class="why" id="${id}--why"
              >Unavailable: no valid configuration with your other answers.</span
            >`
          : nothing
      }
    </div>`;
  };
  return html`<fieldset class="question" data-key=${q.key}>
    <legend>
      ${label}${q.required ? html` <span class="req">(required)</span>` : nothing} ${marks(q)}
    </legend>
    ${row(true, 'Yes')} ${row(false, 'No')} ${clearButton(q, h, label)}
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
  const hint = [
    d?.min !== undefined ? `min ${d.min}` : '',
    d?.max !== undefined ? `max ${d.max}` : '',
    d?.step !== undefined ? `step ${d.step}` : '',
    d?.max_length !== undefined ? `at most ${d.max_length} characters` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const blocked = q.unavailable_values ?? [];
  // The text as typed while it is the user's answer: a preview answering while they type
  // must not put back an older value (or "12" for "12.").
  const shown = h.typed(q.key) ?? (q.values[0] === undefined ? '' : String(q.values[0]));
  return html`<div class="question field" data-key=${q.key}>
    <label for=${q.key}
      >${label}${d?.unit ? ` (${d.unit})` : ''}${q.required ? html` <span class="req">(required)</span>` : nothing}</label
    >
    ${marks(q)}
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
      >${hint}${allowedText(q)}${
        blocked.length > 0
          ? ` Not possible with your other answers: ${ranges(blocked, d?.step ?? 1)}.`
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
