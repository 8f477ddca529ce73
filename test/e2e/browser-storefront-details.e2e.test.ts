/// <reference lib="dom" />
// The storefront's details (issue #40): what buyers and modellers read, the progress bar,
// the cart page's carts and versions, and the console's word about CORS_ORIGINS.
import { describe, expect, it } from 'vitest';
import {
  axeViolations,
  changeAfter,
  hasChromium,
  horizontalOverflow,
  keepScreenshot,
  VIEWPORTS,
} from '../support/browser.js';
import { bearer } from '../support/factories.js';
import { sendModel, windowV2 } from '../support/model.factories.js';
import { createIntent } from '../support/org.factories.js';
import { useStorefront, windowWithArea } from '../support/storefront.js';

describe.skipIf(!hasChromium)(
  'the storefront’s messages, progress, carts and versions in Chromium',
  () => {
    const sf = useStorefront();

    it('tells buyers what to answer by label, and the modeller’s problems only to the modeller', async () => {
      const page = await sf.signedInPage('desktop');
      try {
        const errors = page.locator('product-configurator ul.errors');
        await errors.waitFor();
        const told = await errors.textContent();
        // Labels, not keys; the BOM quantity that needs the width is not the buyer's problem.
        expect(told).toContain('Answer “Width”.');
        expect(told).not.toContain('width is required');
        expect(told).not.toMatch(/cannot be computed|profile_/);
        expect(await page.locator('product-configurator .modeller').count()).toBe(0);
        // The workbench's "open in the configurator" sets `modeller`: the API's problems in full.
        await page
          .locator('product-configurator')
          .evaluate((el) => el.setAttribute('modeller', ''));
        const modeller = page.locator('product-configurator details.modeller');
        await modeller.waitFor();
        expect(await modeller.textContent()).toContain('bom_quantity_unknown');
      } finally {
        await page.close();
      }
    }, 60_000);

    it('shows a progress bar once an answer takes longer than 150 ms', async () => {
      const page = await sf.signedInPage('desktop');
      try {
        const progress = page.locator('product-configurator .progress');
        expect(await progress.isVisible()).toBe(false);
        let release: () => void = () => undefined;
        const held = new Promise<void>((resolve) => (release = resolve));
        // By path: the page's previews carry `?view=compact`, which a glob would not match.
        await page.route(
          (url) => url.pathname === '/v1/carts/preview',
          async (route) => {
            await held;
            await route.continue();
          },
        );
        await page.getByLabel('Aluminium').check();
        await progress.waitFor({ state: 'visible' });
        expect(await page.locator('product-configurator').getAttribute('aria-busy')).toBe('true');
        await changeAfter(page, async () => release());
        await progress.waitFor({ state: 'hidden' });
      } finally {
        await page.close();
      }
    }, 60_000);

    it('the cart page lists every cart: switch, rename, make default, delete', async () => {
      const page = await sf.signedInPage('phone');
      try {
        // The default first, so that the second cart is not made the default as a first cart is.
        const main = await sf.world.server.http
          .post('/v1/carts/new')
          .set(bearer(sf.world.admin.token))
          .send({ reference: 'Main', default: true });
        expect(main.status).toBe(201);
        const second = await sf.world.server.http
          .post('/v1/carts/new')
          .set(bearer(sf.world.admin.token))
          .send({ reference: 'Showroom' });
        expect(second.status).toBe(201);
        await page.getByRole('button', { name: 'Cart', exact: true }).click();
        const choice = page.getByLabel('Cart', { exact: true });
        await choice.waitFor();
        const options = await choice.locator('option').allTextContents();
        const all = await sf.world.server.http.get('/v1/carts').set(bearer(sf.world.admin.token));
        expect(options).toHaveLength(all.body.data.length);
        await choice.selectOption(second.body.data.cart_id);
        await page.getByRole('heading', { name: /Showroom/ }).waitFor();
        await page.getByLabel('Name').fill('Showroom 2');
        await page.getByRole('button', { name: 'Rename' }).click();
        await page.getByRole('heading', { name: /Showroom 2/ }).waitFor();
        await page.getByRole('button', { name: 'Make default' }).click();
        await page.getByRole('button', { name: 'Make default' }).waitFor({ state: 'detached' });
        const now = await sf.world.server.http
          .get('/v1/carts/default')
          .set(bearer(sf.world.admin.token));
        expect(now.body.data).toMatchObject({
          cart_id: second.body.data.cart_id,
          reference: 'Showroom 2',
        });
        expect(await horizontalOverflow(page)).toBe(0);
        expect(await axeViolations(page)).toEqual([]);
        page.once('dialog', (dialog) => void dialog.accept());
        await page.getByRole('button', { name: 'Delete cart' }).click();
        await page.getByRole('heading', { name: /Showroom 2/ }).waitFor({ state: 'detached' });
        const gone = await sf.world.server.http
          .get(`/v1/carts/${second.body.data.cart_id}`)
          .set(bearer(sf.world.admin.token));
        expect(gone.status).toBe(404);
      } finally {
        await page.close();
      }
    }, 60_000);

    it('a line of an older version says so, and reconfigures onto the newer one', async () => {
      const token = sf.world.admin.token;
      const cart = await sf.world.server.http
        .post('/v1/carts/new')
        .set(bearer(token))
        .send({ reference: 'Versions', default: true });
      const cartId = cart.body.data.cart_id as string;
      const added = await sf.world.server.http
        .post('/v1/carts')
        .set(bearer(token))
        .send({
          model_id: sf.areaModel,
          company_id: sf.world.company.id,
          cart_id: cartId,
          questions: {
            width: { values: [1200] },
            height: { values: [1000] },
            frame: { values: ['alu'] },
            color: { values: ['white'] },
          },
        });
      expect(added.status).toBe(201);
      const v2 = await sendModel(
        sf.world.server,
        'put',
        `/v1/models/${sf.areaModel}`,
        token,
        windowWithArea(windowV2()),
      );
      expect(v2.status).toBe(200);

      const page = await sf.signedInPage('desktop');
      try {
        await page.getByRole('button', { name: 'Cart', exact: true }).click();
        const row = page.locator('li.line').first();
        await row.waitFor();
        expect(await row.locator('.badge').allTextContents()).toEqual([
          'Version 1',
          'Newer version available',
        ]);
        await keepScreenshot(page, 'cart-newer-version-desktop');
        await changeAfter(page, () =>
          row.getByRole('button', { name: /^Reconfigure on version 2/ }).click(),
        );
        await page.getByRole('heading', { name: 'Reconfigure Window with area' }).waitFor();
        // Aluminium costs 95.00 from version 2 on: the preview is the newer version's.
        const wood = await changeAfter(page, () => page.getByLabel('Wood').check());
        expect(wood.valid).toBe(true);
        await page.getByRole('button', { name: 'Save changes' }).click();
        await page.getByRole('heading', { name: /^Cart/ }).waitFor();
        await page.locator('li.line .badge').first().waitFor();
        const detail = await sf.world.server.http.get(`/v1/carts/${cartId}`).set(bearer(token));
        expect(detail.body.data.lines[0]).toMatchObject({
          version_number: 2,
          latest_version_number: null,
          total: wood.total,
        });
        expect(await page.locator('li.line .badge').allTextContents()).toEqual(['Version 2']);

        // Retired by its supplier: the line says so and offers no reconfigure.
        const retired = await sf.world.server.http
          .post(`/v1/models/${sf.areaModel}/retire`)
          .set(bearer(token))
          .send({});
        expect(retired.status).toBe(200);
        await page.getByRole('button', { name: 'Configure', exact: true }).click();
        await page.getByRole('button', { name: 'Cart', exact: true }).click();
        await page.locator('li.line .badge.retired').waitFor();
        expect(await page.locator('li.line .badge').allTextContents()).toEqual([
          'Version 2',
          'No longer available',
        ]);
        expect(await page.getByRole('button', { name: /^Reconfigure/ }).count()).toBe(0);
      } finally {
        await page.close();
      }
    }, 90_000);

    it('tells the console about CORS_ORIGINS when the service refuses the page’s origin', async () => {
      const intent = await createIntent(sf.world.server, sf.world.admin, sf.world.company.id);
      const page = await sf.browser.newPage({ viewport: VIEWPORTS.phone });
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      try {
        const api = encodeURIComponent(sf.world.server.baseUrl);
        await page.goto(`${sf.stranger.origin}/?api=${api}&model=${sf.doorModel}#intent=${intent}`);
        // The script itself loads (a public asset): the element renders its failure.
        await page.locator('product-configurator .failure').waitFor();
        expect(await page.locator('product-configurator .failure').textContent()).toContain(
          'cannot be reached',
        );
        expect(errors.join('\n')).toContain(`CORS_ORIGINS=${sf.stranger.origin}`);
      } finally {
        await page.close();
      }
    }, 60_000);
  },
);
