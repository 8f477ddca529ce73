/// <reference lib="dom" />
// The storefront (issue #40) at a phone's and a desktop's size: configure, cart and
// reconfigure in the pages, and the element embedded in a static page of another origin.
// Screenshots go to test-artifacts/screenshots/ (kept by CI); axe finds nothing at either size.
import { describe, expect, it } from 'vitest';
import {
  axeViolations,
  changeAfter,
  enterValue,
  hasChromium,
  horizontalOverflow,
  keepScreenshot,
  VIEWPORTS,
  watchChanges,
  type ViewportName,
} from '../support/browser.js';
import { bearer } from '../support/factories.js';
import { createIntent } from '../support/org.factories.js';
import { ADD, expectTotalInView, TOTAL, useStorefront } from '../support/storefront.js';

describe.skipIf(!hasChromium)('the storefront at 390×844 and 1280×800 in Chromium', () => {
  const sf = useStorefront();

  for (const size of Object.keys(VIEWPORTS) as ViewportName[]) {
    it(`${size}: configure, add, cart and reconfigure with no horizontal scroll, the total in view, 0 axe violations`, async () => {
      const page = await sf.signedInPage(size);
      try {
        expect(await horizontalOverflow(page)).toBe(0);
        await enterValue(page, 'Width (mm)', '1200');
        await enterValue(page, 'Height (mm)', '1000');
        await changeAfter(page, () => page.getByLabel('Aluminium').check());
        const done = await changeAfter(page, () => page.getByLabel('White').check());
        expect(done.valid).toBe(true);
        expect(await page.locator(TOTAL).textContent()).toBe(`EUR ${done.total}`);
        // The variable the modeller shows buyers, with its label and unit.
        expect(await page.locator('product-configurator dl.variables').textContent()).toMatch(
          /Glass area\s*1\.2 m²/,
        );
        await expectTotalInView(page);
        expect(await horizontalOverflow(page)).toBe(0);
        expect(await axeViolations(page)).toEqual([]);
        await keepScreenshot(page, `configure-${size}`);

        await page.locator(ADD).click();
        await page.getByRole('status').waitFor();
        await page.getByRole('button', { name: 'Cart', exact: true }).click();
        const row = page.locator('li.line').last();
        await row.waitFor();
        expect(await row.textContent()).toContain('Glass area: 1.2 m²');
        expect(await row.locator('.badge').first().textContent()).toBe('Version 1');
        expect(await horizontalOverflow(page)).toBe(0);
        // Every button of a row is inside the window (rows stack on a phone).
        for (const button of await row.getByRole('button').all()) {
          expect(await button.evaluate((b) => b.getBoundingClientRect().right <= innerWidth)).toBe(
            true,
          );
        }
        expect(await axeViolations(page)).toEqual([]);
        await keepScreenshot(page, `cart-${size}`);

        await changeAfter(page, () =>
          row.getByRole('button', { name: /^Reconfigure Window with area/ }).click(),
        );
        await page.getByRole('heading', { name: 'Reconfigure Window with area' }).waitFor();
        const wood = await changeAfter(page, () => page.getByLabel('Wood').check());
        await expectTotalInView(page);
        expect(await horizontalOverflow(page)).toBe(0);
        expect(await axeViolations(page)).toEqual([]);
        await keepScreenshot(page, `reconfigure-${size}`);
        await page.getByRole('button', { name: 'Save changes' }).click();
        await page.getByRole('heading', { name: /^Cart/ }).waitFor();
        await page.locator('li.line .amount').last().waitFor();
        expect(await page.locator('li.line .amount').last().textContent()).toBe(
          `EUR ${wood.total}`,
        );
      } finally {
        await page.close();
      }
    }, 120_000);

    it(`${size}: a static page of another origin embeds the element, in German, with its images`, async () => {
      // The user already has a default cart made without a company: the intent still adds.
      const own = await sf.world.server.http
        .post('/v1/carts/new')
        .set(bearer(sf.world.admin.token))
        .send({ reference: `own ${size}`, default: true });
      expect(own.status).toBe(201);
      const intent = await createIntent(sf.world.server, sf.world.admin, sf.world.company.id);
      const page = await sf.browser.newPage({ viewport: VIEWPORTS[size] });
      try {
        const api = encodeURIComponent(sf.world.server.baseUrl);
        await page.goto(
          `${sf.shop.origin}/?api=${api}&model=${sf.doorModel}&lang=de#intent=${intent}`,
        );
        expect(page.url()).not.toContain(intent);
        await page.locator('product-configurator .count').waitFor();
        await watchChanges(page);
        // The element's own texts in German, the image loaded from its signed URL.
        await page.waitForFunction(() => {
          const root = document.querySelector('product-configurator')?.shadowRoot;
          const image = root?.querySelector('figure.images img') as HTMLImageElement | null;
          return image?.complete === true && image.naturalWidth > 0;
        });
        expect(await page.locator(ADD).textContent()).toContain('In den Warenkorb');
        expect(await page.locator('product-configurator caption').textContent()).toContain(
          'Preis (EUR)',
        );
        const done = await changeAfter(page, () =>
          page
            .getByLabel(/^Leaf width/)
            .fill('900')
            .then(() => page.keyboard.press('Tab')),
        );
        expect(done.valid).toBe(true);
        expect(await horizontalOverflow(page)).toBe(0);
        await expectTotalInView(page);
        expect(await axeViolations(page)).toEqual([]);
        await keepScreenshot(page, `embed-${size}`);

        await page.locator(ADD).click();
        const notice = page.locator('product-configurator .notice');
        await notice.waitFor();
        expect(await notice.textContent()).toContain(`In den Warenkorb gelegt`);
        // In the intent's own cart for this company, not refused for the default's sake.
        const carts = await sf.world.server.http.get('/v1/carts').set(bearer(intent));
        const cart = carts.body.data.find((c: { line_count: number }) => c.line_count > 0);
        expect(cart).toMatchObject({ company_id: sf.world.company.id, default: false });
      } finally {
        await page.close();
      }
    }, 120_000);
  }
});
