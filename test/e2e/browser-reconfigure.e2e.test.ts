/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import {
  axeViolations,
  changeAfter,
  hasChromium,
  launchChromium,
  signIn,
  startPagesWorld,
  watchChanges,
  type PagesWorld,
} from '../support/browser.js';
import { bearer } from '../support/factories.js';

const WINDOW = {
  width: { values: [1200] },
  height: { values: [1000] },
  frame: { values: ['alu'] },
  color: { values: ['white'] },
};
/** The same window in wood: another price (wood 120.00 instead of aluminium 85.00). */
const WOOD = { ...WINDOW, frame: { values: ['wood'] } };

describe.skipIf(!hasChromium)('reconfiguring a cart line in headless Chromium', () => {
  let world: PagesWorld;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    world = await startPagesWorld();
    browser = await launchChromium();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await world?.server.close();
  });
  beforeEach(async () => {
    page = await browser.newPage();
    await signIn(page, world.server.baseUrl);
    await watchChanges(page);
  }, 60_000);
  afterEach(async () => {
    await page?.close();
  });

  async function preview(questions: object): Promise<string> {
    const api = await world.server.http
      .post('/v1/carts/preview')
      .set(bearer(world.admin.token))
      .send({ model_id: world.window.id, company_id: world.company.id, questions });
    expect(api.status).toBe(200);
    expect(api.body.data.valid).toBe(true);
    return api.body.data.pricing.total as string;
  }

  async function storedCart(): Promise<{
    cart_id: string;
    total: string;
    lines: { id: number; etag: string; total: string; answers: Record<string, unknown> }[];
  }> {
    const cart = await world.server.http.get('/v1/carts/default').set(bearer(world.admin.token));
    const detail = await world.server.http
      .get(`/v1/carts/${cart.body.data.cart_id}`)
      .set(bearer(world.admin.token));
    expect(detail.status).toBe(200);
    return detail.body.data;
  }

  /** The window configured in the page and added; then the cart page. */
  async function addWindowAndOpenCart(): Promise<void> {
    for (const [label, value] of [
      ['Width (mm)', '1200'],
      ['Height (mm)', '1000'],
    ]) {
      await changeAfter(page, () =>
        page
          .getByLabel(label)
          .fill(value)
          .then(() => page.keyboard.press('Tab')),
      );
    }
    await changeAfter(page, () => page.getByLabel('Aluminium').check());
    await changeAfter(page, () => page.getByLabel('White').check());
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.getByRole('status').waitFor();
    await page.getByRole('button', { name: 'Cart', exact: true }).click();
    await page.locator('li.line').first().waitFor();
  }

  /** Number of lines the cart page shows. */
  const shownLines = () =>
    page.evaluate(
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
    await changeAfter(page, () =>
      page
        .getByRole('button', { name: `Reconfigure Casement window (EUR ${aluTotal})` })
        .last()
        .click(),
    );
    await page.getByRole('heading', { name: `Reconfigure cart line ${line.id}` }).waitFor();
    expect(await page.getByLabel('Width (mm)').inputValue()).toBe('1200');
    expect(await page.getByLabel('Height (mm)').inputValue()).toBe('1000');
    expect(await page.getByLabel('Aluminium').isChecked()).toBe(true);
    expect(await page.getByLabel('White').isChecked()).toBe(true);
    expect(await page.getByRole('button', { name: 'Add to cart' }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    const changed = await changeAfter(page, () => page.getByLabel('Wood').check());
    expect(changed).toEqual({ valid: true, total: woodTotal });
    await page.getByRole('button', { name: 'Save changes' }).click();

    // Back on the cart: the same number of lines, the line at the API's new price and total.
    await page.getByRole('heading', { name: /^Cart/ }).waitFor();
    await page.locator('li.line').first().waitFor();
    const after = await storedCart();
    expect(after.lines.length).toBe(before.lines.length);
    const saved = after.lines.find((l) => l.id === line.id);
    expect(saved?.total).toBe(woodTotal);
    expect(saved?.etag).not.toBe(line.etag);
    expect(saved?.answers).toMatchObject({ frame: { values: ['wood'] } });
    expect(await shownLines()).toBe(lines);
    expect(await page.getByTestId('cart-total').textContent()).toContain(after.total);
    expect(await page.locator(`li.line[data-line="${line.id}"] .amount`).textContent()).toBe(
      `EUR ${woodTotal}`,
    );
  });

  it('refuses to overwrite a line changed elsewhere since the cart was read (409 stale_line)', async () => {
    await addWindowAndOpenCart();
    const before = await storedCart();
    const line = before.lines[before.lines.length - 1];
    await changeAfter(page, () =>
      page
        .getByRole('button', { name: /^Reconfigure Casement window/ })
        .last()
        .click(),
    );
    // Someone else replaces the line meanwhile: its etag moves on.
    const elsewhere = await world.server.http
      .put(`/v1/carts/${before.cart_id}/lines/${line.id}`)
      .set(bearer(world.admin.token))
      .send({ questions: WOOD });
    expect(elsewhere.status).toBe(200);

    await changeAfter(page, () => page.getByLabel('PVC').check());
    await page.getByRole('button', { name: 'Save changes' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('The line has changed since you read it');
    // Nothing was stored by the refused save: the line is still the other change.
    const after = await storedCart();
    expect(after.lines.find((l) => l.id === line.id)?.answers).toMatchObject({
      frame: { values: ['wood'] },
    });
  });
});
