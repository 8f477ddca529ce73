// <cfg-cart>: every cart of the caller (switch, rename, delete, make default), the chosen
// cart's lines and totals. A line shows its model version, "newer version available" or
// "no longer available" (retired), and can be removed or reconfigured: the
// `reconfigure-line` event ({cartId, line, toVersion?}) asks the pages to open it.
import { html, LitElement, nothing } from 'lit';
import { ApiFailure, dataOf, type Cart, type CartLine, type Schemas, type Session } from './api.js';
import { translator, type Translate } from './i18n/index.js';
import type { LineEdit } from './line-edit.js';
import { answersText, displayedText } from './cart-line-text.js';
import { failureText } from './problems.js';
import { baseStyles } from './styles.js';
import { shellStyles } from './shell-styles.js';
import { cartStyles } from './cart-styles.js';

const PER_PAGE = 50;
type CartSummary = Schemas['CartDto'];

export class CartView extends LitElement {
  static override styles = [baseStyles, shellStyles, cartStyles];
  static override properties = {
    session: { attribute: false },
    t: { attribute: false },
    retired: { state: true },
    carts: { state: true },
    cart: { state: true },
    failure: { state: true },
  };

  declare session: Session | undefined;
  declare t: Translate;
  /** Retired models among the shown cart's lines (their company's model list says `retired_at`). */
  declare retired: ReadonlySet<number>;
  declare carts: CartSummary[] | undefined;
  declare cart: Cart | undefined;
  declare failure: ApiFailure | undefined;

  constructor() {
    super();
    this.t = translator('en');
    this.retired = new Set();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private fail(error: unknown): void {
    this.failure = error instanceof ApiFailure ? error : new ApiFailure(0, String(error));
  }

  /** Every cart (GET /v1/carts), then the one shown: the one asked for, else the default, else the first. */
  private async load(cartId?: string): Promise<void> {
    if (!this.session) return;
    const { client } = this.session;
    try {
      const carts: CartSummary[] = [];
      for (let page = 1; ; page++) {
        const batch = dataOf(
          await client.GET('/v1/carts', { params: { query: { page, per_page: 100 } } }),
        );
        carts.push(...batch);
        if (batch.length < 100) break;
      }
      this.carts = carts;
      const chosen =
        carts.find((c) => c.cart_id === cartId) ?? carts.find((c) => c.default) ?? carts[0];
      this.cart = chosen ? await this.detail(chosen.cart_id) : undefined;
      this.retired = await this.retiredModels(this.cart);
      this.failure = undefined;
    } catch (error) {
      this.fail(error);
    }
  }

  private async detail(cartId: string): Promise<Cart> {
    const detail = await this.session!.client.GET('/v1/carts/{cart_id}', {
      params: { path: { cart_id: cartId }, query: { per_page: PER_PAGE } },
    });
    return dataOf(detail) as Cart;
  }

  private async retiredModels(cart: Cart | undefined): Promise<Set<number>> {
    const retired = new Set<number>();
    const companies = new Set((cart?.lines ?? []).map((line) => line.company_id));
    for (const id of companies) {
      const result = await this.session!.client.GET('/v1/companies/{id}/models', {
        params: { path: { id }, query: { per_page: 200 } },
      });
      // A company the caller no longer sees says nothing about its models.
      if (!result.response.ok) continue;
      for (const model of dataOf(result)) if (model.retired_at) retired.add(model.id);
    }
    return retired;
  }

  private async act(work: () => Promise<string | undefined>): Promise<void> {
    try {
      await this.load(await work());
    } catch (error) {
      this.fail(error);
    }
  }

  private rename(event: SubmitEvent, cart: Cart): Promise<void> {
    event.preventDefault();
    const reference = String(new FormData(event.target as HTMLFormElement).get('reference')).trim();
    return this.act(async () => {
      if (reference && reference !== cart.reference) {
        dataOf(
          await this.session!.client.PATCH('/v1/carts/{cart_id}', {
            params: { path: { cart_id: cart.cart_id } },
            body: { reference },
          }),
        );
      }
      return cart.cart_id;
    });
  }

  private makeDefault(cart: Cart): Promise<void> {
    return this.act(async () => {
      dataOf(
        await this.session!.client.PATCH('/v1/carts/{cart_id}', {
          params: { path: { cart_id: cart.cart_id } },
          body: { default: true },
        }),
      );
      return cart.cart_id;
    });
  }

  private deleteCart(cart: Cart): Promise<void> {
    if (!confirm(this.t('cart.deleteConfirm', { name: cart.reference }))) return Promise.resolve();
    return this.act(async () => {
      const result = await this.session!.client.DELETE('/v1/carts/{cart_id}', {
        params: { path: { cart_id: cart.cart_id } },
      });
      if (!result.response.ok) dataOf(result);
      return undefined;
    });
  }

  private async removeLine(line: CartLine): Promise<void> {
    if (!this.session || !this.cart) return;
    try {
      const result = await this.session.client.DELETE('/v1/carts/{cart_id}/lines/{line_id}', {
        params: { path: { cart_id: this.cart.cart_id, line_id: line.id } },
      });
      this.cart = dataOf(result) as Cart;
    } catch (error) {
      this.fail(error);
    }
  }

  private reconfigure(line: CartLine, toVersion?: number): void {
    if (!this.cart) return;
    const detail: LineEdit = { cartId: this.cart.cart_id, line, toVersion };
    this.dispatchEvent(
      new CustomEvent('reconfigure-line', { detail, bubbles: true, composed: true }),
    );
  }

  private lineView(line: CartLine) {
    const t = this.t;
    const name = t('cart.lineLabel', {
      name: line.general.name,
      currency: line.pricing.currency,
      total: line.pricing.total,
    });
    const retired = this.retired.has(line.model_id);
    const newer = retired ? null : (line.latest_version_number ?? null);
    const shown = displayedText(line, document.documentElement.lang || 'en');
    return html`<li class="card line" data-line=${line.id}>
      <div class="what">
        <strong>${line.general.name}</strong>
        <span class="badges">
          <span class="badge">${t('cart.version', { n: line.version_number })}</span>
          ${newer !== null ? html`<span class="badge newer">${t('cart.newer')}</span>` : nothing}
          ${retired ? html`<span class="badge retired">${t('cart.retired')}</span>` : nothing}
        </span>
        <p class="answers">${answersText(line)}</p>
        ${shown ? html`<p class="answers shown">${shown}</p>` : nothing}
      </div>
      <span class="amount">${line.pricing.currency} ${line.pricing.total}</span>
      <div class="line-actions">
        ${
          newer !== null
            ? html`<button
                type="button"
                class="primary"
                @click=${() => this.reconfigure(line, newer)}
                aria-label="${t('cart.reconfigureNewer', { n: newer })}: ${name}"
              >
                ${t('cart.reconfigureNewer', { n: newer })}
              </button>`
            : nothing
        }
        ${
          // A line whose model moved on is reconfigured on the newer version only: the
          // preview evaluates the current version, so the old one's save could refuse
          // what the preview called valid.
          retired || newer !== null
            ? nothing
            : html`<button
                type="button"
                @click=${() => this.reconfigure(line)}
                aria-label="${t('cart.reconfigure')} ${name}"
              >
                ${t('cart.reconfigure')}
              </button>`
        }
        <button
          type="button"
          @click=${() => this.removeLine(line)}
          aria-label="${t('cart.remove')} ${name}"
        >
          ${t('cart.remove')}
        </button>
      </div>
    </li>`;
  }

  private manageView(cart: Cart) {
    const t = this.t;
    const carts = this.carts ?? [];
    return html`<div class="carts">
      <label for="cart-choice">${t('cart.choose')}</label>
      <select
        id="cart-choice"
        @change=${(e: Event) => this.act(async () => (e.target as HTMLSelectElement).value)}
      >
        ${carts.map(
          (c) =>
            html`<option value=${c.cart_id} ?selected=${c.cart_id === cart.cart_id}>
              ${c.reference} ${c.default ? t('cart.default') : ''} ·
              ${c.line_count === 1 ? t('cart.lineOne') : t('cart.lineCount', { n: c.line_count })}
            </option>`,
        )}
      </select>
      <form class="rename" @submit=${(e: SubmitEvent) => this.rename(e, cart)}>
        <label for="cart-reference">${t('cart.rename')}</label>
        <input id="cart-reference" name="reference" .value=${cart.reference} maxlength="200" />
        <button type="submit">${t('cart.renameSave')}</button>
      </form>
      ${
        cart.default
          ? nothing
          : html`<button type="button" @click=${() => this.makeDefault(cart)}>
              ${t('cart.makeDefault')}
            </button>`
      }
      <button type="button" class="danger" @click=${() => this.deleteCart(cart)}>
        ${t('cart.delete')}
      </button>
    </div>`;
  }

  override render() {
    const t = this.t;
    const failure = this.failure
      ? html`<p class="failure" role="alert">${failureText(this.failure, t)}</p>`
      : nothing;
    if (!this.carts)
      return html`${failure}
        <p>${t('loading')}</p>`;
    const cart = this.cart;
    if (!cart)
      return html`${failure}
        <h1>${t('cart.title')}</h1>
        <p>${t('cart.none')}</p>`;
    return html`${failure}
      <h1>${t('cart.title')} <small>${cart.reference}</small></h1>
      ${this.manageView(cart)}
      ${cart.lines.length === 0 ? html`<p>${t('cart.empty')}</p>` : nothing}
      <ul class="lines" aria-label=${t('cart.lines')}>
        ${cart.lines.map((line) =>
          // The page reads the cart in the full view; the union's other member never comes.
          line.view !== 'full' ? nothing : this.lineView(line),
        )}
      </ul>
      <p class="totals" data-testid="cart-total">
        ${cart.totals.map(
          (total) =>
            html`<span
              >${t('cart.total', { currency: total.currency })}
              <strong>${total.total}</strong></span
            >`,
        )}
      </p>`;
  }
}

customElements.define('cfg-cart', CartView);
