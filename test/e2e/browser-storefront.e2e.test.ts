/// <reference lib="dom" />
// The storefront (issue #40) at a phone's and a desktop's size: configure, cart and
// reconfigure in the pages, and the element embedded in a static page of another origin.
// Screenshots go to test-artifacts/screenshots/ (kept by CI); axe finds nothing at either size.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  axeViolations,
  changeAfter,
  hasChromium,
  horizontalOverflow,
  inWindow,
  keepScreenshot,
  launchChromium,
  signIn,
  startOrigin,
  startPagesWorld,
  VIEWPORTS,
  watchChanges,
  type PagesWorld,
  type ViewportName,
} from '../support/browser.js';
import { REPO_DIR } from '../support/examples.js';
import { bearer } from '../support/factories.js';
import {
  DOOR_DIR,
  sendModel,
  uploadModel,
  windowV2,
  windowYaml,
  zipFolder,
} from '../support/model.factories.js';
import { createIntent } from '../support/org.factories.js';

/** The window with its glass area shown to buyers (`display: true`), translated to German. */
function windowWithArea(source = windowYaml()): string {
  const model = yaml.load(source) as Record<string, any>;
  model.general.code = 'WIN-AREA';
  model.general.name = 'Window with area';
  Object.assign(model.variables[0], { label: 'Glass area', unit: 'm²', display: true });
  model.translation.de = { ...model.translation.de, 'variables.area_m2.label': 'Glasfläche' };
  return yaml.dump(model);
}

const embedPage = () => readFileSync(join(REPO_DIR, 'examples', 'embed', 'index.html'), 'utf8');
const TOTAL = 'product-configurator [data-testid=total]';
const ADD = 'product-configurator button.add';

describe.skipIf(!hasChromium)('the storefront at 390×844 and 1280×800 in Chromium', () => {
  let world: PagesWorld;
  let browser: Browser;
  let shop: Awaited<ReturnType<typeof startOrigin>>;
  let stranger: Awaited<ReturnType<typeof startOrigin>>;
  let areaModel: number;
  let doorModel: number;

  beforeAll(async () => {
    shop = await startOrigin({ '/': embedPage() });
    stranger = await startOrigin({ '/': embedPage() });
    world = await startPagesWorld({ CORS_ORIGINS: shop.origin });
    const token = world.admin.token;
    areaModel = (await uploadModel(world.server, world.supplierId, token, windowWithArea())).id;
    doorModel = (
      await uploadModel(world.server, world.supplierId, token, await zipFolder(DOOR_DIR))
    ).id;
    browser = await launchChromium();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await world?.server.close();
    shop?.server.close();
    stranger?.server.close();
  });

  async function signedInPage(size: ViewportName): Promise<Page> {
    const page = await browser.newPage({ viewport: VIEWPORTS[size] });
    await signIn(page, world.server.baseUrl);
    await watchChanges(page);
    await changeAfter(page, () => page.getByLabel('Model').selectOption(String(areaModel)));
    return page;
  }

  /** The total and "Add to cart" are in the window at the top and with the last question in view. */
  async function expectTotalInView(page: Page): Promise<void> {
    await page.evaluate(() => scrollTo(0, 0));
    expect(await inWindow(page, TOTAL)).toBe(true);
    await page.locator('product-configurator .question').last().scrollIntoViewIfNeeded();
    expect(await inWindow(page, TOTAL)).toBe(true);
    expect(await inWindow(page, ADD)).toBe(true);
  }

  for (const size of Object.keys(VIEWPORTS) as ViewportName[]) {
    it(`${size}: configure, add, cart and reconfigure with no horizontal scroll, the total in view, 0 axe violations`, async () => {
      const page = await signedInPage(size);
      try {
        expect(await horizontalOverflow(page)).toBe(0);
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
      const own = await world.server.http
        .post('/v1/carts/new')
        .set(bearer(world.admin.token))
        .send({ reference: `own ${size}`, default: true });
      expect(own.status).toBe(201);
      const intent = await createIntent(world.server, world.admin, world.company.id);
      const page = await browser.newPage({ viewport: VIEWPORTS[size] });
      try {
        const api = encodeURIComponent(world.server.baseUrl);
        await page.goto(`${shop.origin}/?api=${api}&model=${doorModel}&lang=de#intent=${intent}`);
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
        const carts = await world.server.http.get('/v1/carts').set(bearer(intent));
        const cart = carts.body.data.find((c: { line_count: number }) => c.line_count > 0);
        expect(cart).toMatchObject({ company_id: world.company.id, default: false });
      } finally {
        await page.close();
      }
    }, 120_000);
  }

  it('tells buyers what to answer by label, and the modeller’s problems only to the modeller', async () => {
    const page = await signedInPage('desktop');
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
      await page.locator('product-configurator').evaluate((el) => el.setAttribute('modeller', ''));
      const modeller = page.locator('product-configurator details.modeller');
      await modeller.waitFor();
      expect(await modeller.textContent()).toContain('bom_quantity_unknown');
    } finally {
      await page.close();
    }
  }, 60_000);

  it('shows a progress bar once an answer takes longer than 150 ms', async () => {
    const page = await signedInPage('desktop');
    try {
      const progress = page.locator('product-configurator .progress');
      expect(await progress.isVisible()).toBe(false);
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/v1/carts/preview', async (route) => {
        await held;
        await route.continue();
      });
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
    const page = await signedInPage('phone');
    try {
      const second = await world.server.http
        .post('/v1/carts/new')
        .set(bearer(world.admin.token))
        .send({ reference: 'Showroom' });
      expect(second.status).toBe(201);
      await page.getByRole('button', { name: 'Cart', exact: true }).click();
      const choice = page.getByLabel('Cart', { exact: true });
      await choice.waitFor();
      const options = await choice.locator('option').allTextContents();
      const all = await world.server.http.get('/v1/carts').set(bearer(world.admin.token));
      expect(options).toHaveLength(all.body.data.length);
      await choice.selectOption(second.body.data.cart_id);
      await page.getByRole('heading', { name: /Showroom/ }).waitFor();
      await page.getByLabel('Name').fill('Showroom 2');
      await page.getByRole('button', { name: 'Rename' }).click();
      await page.getByRole('heading', { name: /Showroom 2/ }).waitFor();
      await page.getByRole('button', { name: 'Make default' }).click();
      await page.getByRole('button', { name: 'Make default' }).waitFor({ state: 'detached' });
      const now = await world.server.http.get('/v1/carts/default').set(bearer(world.admin.token));
      expect(now.body.data).toMatchObject({
        cart_id: second.body.data.cart_id,
        reference: 'Showroom 2',
      });
      expect(await horizontalOverflow(page)).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Delete cart' }).click();
      await page.getByRole('heading', { name: /Showroom 2/ }).waitFor({ state: 'detached' });
      const gone = await world.server.http
        .get(`/v1/carts/${second.body.data.cart_id}`)
        .set(bearer(world.admin.token));
      expect(gone.status).toBe(404);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('a line of an older version says so, and reconfigures onto the newer one', async () => {
    const token = world.admin.token;
    const cart = await world.server.http
      .post('/v1/carts/new')
      .set(bearer(token))
      .send({ reference: 'Versions', default: true });
    const cartId = cart.body.data.cart_id as string;
    const added = await world.server.http
      .post('/v1/carts')
      .set(bearer(token))
      .send({
        model_id: areaModel,
        company_id: world.company.id,
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
      world.server,
      'put',
      `/v1/models/${areaModel}`,
      token,
      windowWithArea(windowV2()),
    );
    expect(v2.status).toBe(200);

    const page = await signedInPage('desktop');
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
      const detail = await world.server.http.get(`/v1/carts/${cartId}`).set(bearer(token));
      expect(detail.body.data.lines[0]).toMatchObject({
        version_number: 2,
        latest_version_number: null,
        total: wood.total,
      });
      expect(await page.locator('li.line .badge').allTextContents()).toEqual(['Version 2']);

      // Retired by its supplier: the line says so and offers no reconfigure.
      const retired = await world.server.http
        .post(`/v1/models/${areaModel}/retire`)
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
    const intent = await createIntent(world.server, world.admin, world.company.id);
    const page = await browser.newPage({ viewport: VIEWPORTS.phone });
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    try {
      const api = encodeURIComponent(world.server.baseUrl);
      await page.goto(`${stranger.origin}/?api=${api}&model=${doorModel}#intent=${intent}`);
      // The script itself loads (a public asset): the element renders its failure.
      await page.locator('product-configurator .failure').waitFor();
      expect(await page.locator('product-configurator .failure').textContent()).toContain(
        'cannot be reached',
      );
      expect(errors.join('\n')).toContain(`CORS_ORIGINS=${stranger.origin}`);
    } finally {
      await page.close();
    }
  }, 60_000);
});
