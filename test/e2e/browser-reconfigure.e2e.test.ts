/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';
import {
  axeViolations,
  changeAfter,
  hasChromium,
  useSignedInPage,
  WINDOW_ANSWERS,
} from '../support/browser.js';
import { bearer } from '../support/factories.js';

const WINDOW = WINDOW_ANSWERS;
/** The same window in wood: another price (wood 120.00 instead of aluminium 85.00). */
const WOOD = { ...WINDOW, frame: { values: ['wood'] } };

describe.skipIf(!hasChromium)('reconfiguring a cart line in headless Chromium', () => {
  const signed = useSignedInPage();

  async function preview(questions: object): Promise<string> {
    const api = await signed.world.server.http
      .post('/v1/carts/preview')
      .set(bearer(signed.world.admin.token))
      .send({ model_id: signed.world.window.id, company_id: signed.world.company.id, questions });
    expect(api.status).toBe(200);
    expect(api.body.data.valid).toBe(true);
    return api.body.data.pricing.total as string;
  }

  async function storedCart(): Promise<{
    cart_id: string;
    total: string;
    lines: { id: number; etag: string; total: string; answers: Record<string, unknown> }[];
  }> {
    const cart = await signed.world.server.http
      .get('/v1/carts/default')
      .set(bearer(signed.world.admin.token));
    const detail = await signed.world.server.http
      .get(`/v1/carts/${cart.body.data.cart_id}`)
      .set(bearer(signed.world.admin.token));
    expect(detail.status).toBe(200);
    return detail.body.data;
  }

  /** The window configured in the signed.page and added; then the cart signed.page. */
  async function addWindowAndOpenCart(): Promise<void> {
    for (const [label, value] of [
      ['Width (mm)', '1200'],
      ['Height (mm)', '1000'],
    ]) {
      await changeAfter(signed.page, () =>
        signed.page
          .getByLabel(label)
          .fill(value)
          .then(() => signed.page.keyboard.press('Tab')),
      );
    }
    await changeAfter(signed.page, () => signed.page.getByLabel('Aluminium').check());
    await changeAfter(signed.page, () => signed.page.getByLabel('White').check());
    await signed.page.getByRole('button', { name: 'Add to cart' }).click();
    await signed.page.getByRole('status').waitFor();
    await signed.page.getByRole('button', { name: 'Cart', exact: true }).click();
    await signed.page.locator('li.line').first().waitFor();
  }

  /** Number of lines the cart signed.page shows. */
  const shownLines = () =>
    signed.page.evaluate(
      () =>
        document
          .querySelector('cfg-app')
          ?.shadowRoot?.querySelector('cfg-cart')
          ?.shadowRoot?.querySelectorAll('li.line').length ?? -1,
    );

  it('opens a line with its answers, saves a changed answer with PUT and shows the new total', async () => {
    const aluTotal = await preview(WINDOW);
    const woodTotal = await preview(WOOD);
    expect(woodTotal).not.toBe(aluTotal);

    await addWindowAndOpenCart();
    const before = await storedCart();
    const lines = await shownLines();
    expect(lines).toBe(before.lines.length);
    const line = before.lines[before.lines.length - 1];
    expect(line.total).toBe(aluTotal);

    // The configurator opens on the line's answers, evaluated, with "Save changes".
    await changeAfter(signed.page, () =>
      signed.page
        .getByRole('button', { name: `Reconfigure Casement window (EUR ${aluTotal})` })
        .last()
        .click(),
    );
    await signed.page.getByRole('heading', { name: 'Reconfigure Casement window' }).waitFor();
    expect(await signed.page.getByLabel('Width (mm)').inputValue()).toBe('1200');
    expect(await signed.page.getByLabel('Height (mm)').inputValue()).toBe('1000');
    expect(await signed.page.getByLabel('Aluminium').isChecked()).toBe(true);
    expect(await signed.page.getByLabel('White').isChecked()).toBe(true);
    expect(await signed.page.getByRole('button', { name: 'Add to cart' }).count()).toBe(0);
    expect(await axeViolations(signed.page)).toEqual([]);

    const changed = await changeAfter(signed.page, () => signed.page.getByLabel('Wood').check());
    expect(changed).toEqual({ valid: true, total: woodTotal });
    await signed.page.getByRole('button', { name: 'Save changes' }).click();

    // Back on the cart: the same number of lines, the line at the API's new price and total.
    await signed.page.getByRole('heading', { name: /^Cart/ }).waitFor();
    await signed.page.locator('li.line').first().waitFor();
    const after = await storedCart();
    expect(after.lines.length).toBe(before.lines.length);
    const saved = after.lines.find((l) => l.id === line.id);
    expect(saved?.total).toBe(woodTotal);
    expect(saved?.etag).not.toBe(line.etag);
    expect(saved?.answers).toMatchObject({ frame: { values: ['wood'] } });
    expect(await shownLines()).toBe(lines);
    expect(await signed.page.getByTestId('cart-total').textContent()).toContain(after.total);
    expect(await signed.page.locator(`li.line[data-line="${line.id}"] .amount`).textContent()).toBe(
      `EUR ${woodTotal}`,
    );
  });

  it('refuses to overwrite a line changed elsewhere since the cart was read (409 stale_line)', async () => {
    await addWindowAndOpenCart();
    const before = await storedCart();
    const line = before.lines[before.lines.length - 1];
    await changeAfter(signed.page, () =>
      signed.page
        .getByRole('button', { name: /^Reconfigure Casement window/ })
        .last()
        .click(),
    );
    // Someone else replaces the line meanwhile: its etag moves on.
    const elsewhere = await signed.world.server.http
      .put(`/v1/carts/${before.cart_id}/lines/${line.id}`)
      .set(bearer(signed.world.admin.token))
      .send({ questions: WOOD });
    expect(elsewhere.status).toBe(200);

    await changeAfter(signed.page, () => signed.page.getByLabel('PVC').check());
    await signed.page.getByRole('button', { name: 'Save changes' }).click();
    const alert = signed.page.getByRole('alert');
    await alert.waitFor();
    // In the buyer's words; the API's code (stale_line) goes to the console.
    expect(await alert.textContent()).toContain('This item was changed elsewhere');
    // Nothing was stored by the refused save: the line is still the other change.
    const after = await storedCart();
    expect(after.lines.find((l) => l.id === line.id)?.answers).toMatchObject({
      frame: { values: ['wood'] },
    });
  });
});
