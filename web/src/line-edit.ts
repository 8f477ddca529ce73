// Reconfiguring a stored cart line: the configurator opens on the line's model with its
// stored answers and saves through PUT /v1/carts/{cart_id}/lines/{line_id}.
import { html, type TemplateResult } from 'lit';
import type { Translate } from './i18n/index.js';
import {
  actionKey,
  dataOf,
  type Schemas,
  type AddedLine,
  type Answers,
  type CartLine,
  type Session,
  type Value,
} from './api.js';

/** The line being reconfigured and its cart (the cart page hands both to the configurator). */
export interface LineEdit {
  cartId: string;
  line: CartLine;
  /** The newer model version the line opens on and moves to when saved ("Reconfigure on version N"). */
  toVersion?: number;
}

/** The line's stored answers (`questions` input) as the configurator keeps them; [] = unanswered. */
export function answersOf(line: CartLine): Answers {
  const answers: Answers = {};
  for (const [key, answer] of Object.entries(line.answers)) {
    if (answer.values.length > 0) answers[key] = answer.values as Value[];
  }
  return answers;
}

/** A new line in the given cart (else the caller's default one), sent once per click. */
export async function addLine(
  api: Session,
  body: Schemas['AddCartLineDto'],
  cartId: string | undefined,
): Promise<AddedLine> {
  const result = await api.client.POST('/v1/carts', {
    body: { ...body, ...(cartId ? { cart_id: cartId } : {}) },
    params: { header: { 'Idempotency-Key': actionKey() } },
  });
  return dataOf(result) as AddedLine;
}

/**
 * Replaces the line with the new answers. The API evaluates them on the line's own model
 * version, or with `version` ('latest') moves the line to its model's current one (the
 * answers the configurator carried over there); If-Match with the line's etag makes a
 * change made elsewhere since the cart was read a 409 `stale_line` instead of a silent
 * overwrite.
 */
export async function saveLine(
  api: Session,
  edit: LineEdit,
  questions: Record<string, { values: Value[] }>,
  language: string | undefined,
  version?: 'latest',
): Promise<AddedLine> {
  const result = await api.client.PUT('/v1/carts/{cart_id}/lines/{line_id}', {
    params: {
      path: { cart_id: edit.cartId, line_id: edit.line.id },
      header: { 'If-Match': edit.line.etag },
    },
    body: {
      questions,
      ...(language ? { language_code: language } : {}),
      ...(version ? { version_number: version } : {}),
    },
  });
  return dataOf(result) as AddedLine;
}

/** "Add to cart", or while a stored line is reconfigured "Save changes" and "Cancel". */
export function actionsView(
  valid: boolean,
  editing: boolean,
  t: Translate,
  on: { add(): void; save(): void; cancel(): void },
): TemplateResult {
  if (!editing)
    return html`<button type="button" class="primary add" ?disabled=${!valid} @click=${on.add}>
      ${t('action.add')}
    </button>`;
  return html`<button type="button" class="primary add" ?disabled=${!valid} @click=${on.save}>
      ${t('action.save')}
    </button>
    <button type="button" @click=${on.cancel}>${t('action.cancel')}</button>`;
}

/**
 * A configured line added to the cart (`cartId`, else the default one), or, while a stored
 * line is reconfigured, saved in its place: onto the model's current version when the line
 * was carried over to it (`moved`).
 */
export async function commitLine(
  api: Session,
  to: {
    body: Schemas['AddCartLineDto'];
    cartId: string | undefined;
    editing: LineEdit | undefined;
    moved: boolean;
  },
): Promise<{ event: 'added' | 'saved'; line: AddedLine }> {
  const { body, editing } = to;
  if (editing === undefined) return { event: 'added', line: await addLine(api, body, to.cartId) };
  const version = to.moved ? 'latest' : undefined;
  const language = body.language_code ?? undefined;
  const line = await saveLine(api, editing, body.questions, language, version);
  return { event: 'saved', line };
}
