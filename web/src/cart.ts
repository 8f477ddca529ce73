// <cfg-cart>: the caller's default cart, its lines and totals; a line can be removed, or
// reconfigured: the `reconfigure-line` event ({cartId, line}) asks the pages to open it in
// the configurator.
import { html, LitElement, nothing } from 'lit';
import { ApiFailure, dataOf, type Cart, type CartLine, type Session } from './api.js';
import type { LineEdit } from './line-edit.js';
import { baseStyles } from './styles.js';
import { shellStyles } from './shell-styles.js';

const PER_PAGE = 50;

export class CartView extends LitElement {
  static override styles = [baseStyles, shellStyles];
  static override properties = {
    session: { attribute: false },
    cart: { state: true },
    failure: { state: true },
    empty: { state: true },
  };

  declare session: Session | undefined;
  declare cart: Cart | undefined;
  declare failure: ApiFailure | undefined;
  declare empty: boolean;

  constructor() {
    super();
    this.empty = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    if (!this.session) return;
    const { client } = this.session;
    try {
      const result = await client.GET('/v1/carts/default', {});
      // 400: the caller has no default cart yet (the commissioned status).
      if (result.response.status === 400) {
        this.empty = true;
        return;
      }
      const id = dataOf(result).cart_id;
      const detail = await client.GET('/v1/carts/{cart_id}', {
        params: { path: { cart_id: id }, query: { per_page: PER_PAGE } },
      });
      this.cart = dataOf(detail) as Cart;
    } catch (error) {
      this.failure = error instanceof ApiFailure ? error : new ApiFailure(0, String(error));
    }
  }

  private async removeLine(line: CartLine): Promise<void> {
    if (!this.session || !this.cart) return;
    try {
      const result = await this.session.client.DELETE('/v1/carts/{cart_id}/lines/{line_id}', {
        params: { path: { cart_id: this.cart.cart_id, line_id: line.id } },
      });
      this.cart = dataOf(result) as Cart;
    } catch (error) {
      this.failure = error instanceof ApiFailure ? error : new ApiFailure(0, String(error));
    }
  }

  private reconfigure(line: CartLine): void {
    if (!this.cart) return;
    const detail: LineEdit = { cartId: this.cart.cart_id, line };
    this.dispatchEvent(
      new CustomEvent('reconfigure-line', { detail, bubbles: true, composed: true }),
    );
  }

  private answers(line: CartLine): string {
    return line.questions
      .filter((q) => q.visible && q.values.length > 0)
      .map((q) => {
        const labels = q.values.map((v) => q.options?.find((o) => o.key === v)?.label ?? String(v));
        return `${q.label}: ${labels.join(', ')}`;
      })
      .join(' · ');
  }

  override render() {
    const failure = this.failure
      ? html`<p class="failure" role="alert">${this.failure.message}</p>`
      : nothing;
    if (this.empty)
      return html`${failure}
        <h1>Cart</h1>
        <p>Your cart is empty.</p>`;
    const cart = this.cart;
    if (!cart)
      return html`${failure}
        <p>Loading…</p>`;
    return html`${failure}
      <h1>Cart <small>${cart.reference}</small></h1>
      ${cart.lines.length === 0 ? html`<p>Your cart is empty.</p>` : nothing}
      <ul class="lines" aria-label="Cart lines">
        ${cart.lines.map((line) =>
          // The page reads the cart in the full view; the union's other member never comes.
          line.view !== 'full'
            ? nothing
            : html`<li class="card line" data-line=${line.id}>
                <div>
                  <strong>${line.general.name}</strong>
                  <p class="answers">${this.answers(line)}</p>
                </div>
                <span class="amount">${line.pricing.currency} ${line.pricing.total}</span>
                <button
                  type="button"
                  @click=${() => this.reconfigure(line)}
                  aria-label="Reconfigure ${line.general.name} (${line.pricing.currency} ${line.pricing.total})"
                >
                  Reconfigure
                </button>
                <button
                  type="button"
                  @click=${() => this.removeLine(line)}
                  aria-label="Remove ${line.general.name} (${line.pricing.currency} ${line.pricing.total})"
                >
                  Remove
                </button>
              </li>`,
        )}
      </ul>
      <p class="totals" data-testid="cart-total">
        ${cart.totals.map((t) => html`<span>Total ${t.currency} <strong>${t.total}</strong></span>`)}
      </p>`;
  }
}

customElements.define('cfg-cart', CartView);
