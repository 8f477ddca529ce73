/// <reference lib="dom" />
import type { Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  changeAfter,
  descriptionOf,
  embedPage,
  hasChromium,
  launchChromium,
  signIn,
  startOrigin,
  startPagesWorld,
  watchChanges,
  type PagesWorld,
} from '../support/browser.js';
import { bearer } from '../support/factories.js';
import { windowV2, windowYaml } from '../support/model.factories.js';
import { createIntent } from '../support/org.factories.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../support/test-app.js';

/** The window with a question type the format does not have: one problem, with its path. */
const brokenWindow = () => windowYaml().replace('type: integer', 'type: slider');

describe.skipIf(!hasChromium)('the workbench and an embedding shop, in headless Chromium', () => {
  let shop: { server: Server; origin: string };
  let world: PagesWorld;
  let browser: Browser;

  beforeAll(async () => {
    shop = await startOrigin({ '/': embedPage() });
    world = await startPagesWorld({ CORS_ORIGINS: shop.origin });
    browser = await launchChromium();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await world?.server.close();
    shop?.server.close();
  });

  async function workbench(): Promise<Page> {
    const page = await browser.newPage();
    await signIn(page, world.server.baseUrl);
    await page.getByRole('button', { name: 'Model workbench' }).click();
    // The file input is enabled once the caller's suppliers are loaded and one is chosen.
    await page.locator('#file:enabled').waitFor({ state: 'attached' });
    return page;
  }

  it('opened before the caller’s companies have arrived, it loads their suppliers when they do', async () => {
    const page = await browser.newPage();
    try {
      // The list of companies is held until the workbench is open (a click right after sign-in
      // on a slow connection).
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(
        (url) => url.pathname === '/v1/companies',
        async (route) => {
          await held;
          await route.continue();
        },
      );
      await page.goto(`${world.server.baseUrl}/app/`);
      await page.getByLabel('Email').fill(ADMIN_EMAIL);
      await page.getByLabel('Password').fill(ADMIN_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Model workbench' }).click();
      await page.locator('#file:disabled').waitFor({ state: 'attached' });
      release();
      await page.locator('#file:enabled').waitFor({ state: 'attached' });
      expect(await page.locator('#supplier option').count()).toBeGreaterThan(0);
    } finally {
      await page.close();
    }
  }, 120_000);

  it('shows every problem of an upload with its path, as the API names them', async () => {
    const api = await world.server.http
      .post(`/v1/suppliers/${world.supplierId}/models`)
      .set(bearer(world.admin.token))
      .set('Content-Type', 'application/yaml')
      .send(brokenWindow());
    expect(api.status).toBe(400);
    const paths = (api.body.errors as { path?: string }[]).map((p) => p.path);
    expect(paths).toContain('questions.width.type');

    const page = await workbench();
    try {
      // Dropped on the drop zone, as a modeller drags it from the desktop.
      const drop = await page.evaluateHandle((text) => {
        const data = new DataTransfer();
        data.items.add(new File([text], 'window.yaml', { type: 'application/yaml' }));
        return data;
      }, brokenWindow());
      await page.locator('.drop').dispatchEvent('drop', { dataTransfer: drop });
      const problems = page.getByRole('alert', { name: 'Problems' });
      await problems.waitFor();
      const shown = await problems.locator('code.path').allTextContents();
      expect(shown).toEqual(paths);
    } finally {
      await page.close();
    }
  });

  it('uploads a model, shows its analysis and opens it in the configurator', async () => {
    const page = await workbench();
    try {
      const model = windowYaml().replace('code: WIN-CASEMENT', 'code: WIN-WORKBENCH');
      await page.getByLabel('Choose a model file').setInputFiles({
        name: 'window.yaml',
        mimeType: 'application/yaml',
        buffer: Buffer.from(model),
      });
      const result = page.getByRole('region', { name: 'Upload result' });
      await result.waitFor();
      const id = Number(/Model #(\d+)/.exec((await result.textContent()) ?? '')?.[1]);
      const detail = await world.server.http.get(`/v1/models/${id}`).set(bearer(world.admin.token));
      const analysis = detail.body.data.analysis as { configurations: string; exact: boolean };
      expect((await result.getByTestId('configurations').textContent())?.trim()).toBe(
        BigInt(analysis.configurations).toLocaleString('en'),
      );
      expect(await result.textContent()).toContain(analysis.exact ? 'exact' : 'approximate');

      // Version 2 of the file (same code): the page offers a new version of that model, then
      // shows its changes against version 1 as the API's diff gives them.
      await page.getByLabel('Choose a model file').setInputFiles({
        name: 'window.yaml',
        mimeType: 'application/yaml',
        buffer: Buffer.from(windowV2().replace('code: WIN-CASEMENT', 'code: WIN-WORKBENCH')),
      });
      await page.getByRole('button', { name: `Upload as a new version of model #${id}` }).click();
      await page.getByText(`Model #${id}, version 2`).waitFor();
      const diff = await world.server.http
        .get(`/v1/models/${id}/diff`)
        .set(bearer(world.admin.token));
      const paths = (diff.body.data.changes as { path: string }[]).map((c) => c.path);
      expect(paths.length).toBeGreaterThan(0);
      const changes = page.getByRole('region', { name: 'Changes' });
      expect(await changes.getByRole('heading').textContent()).toContain('from version 1 to 2');
      expect(await changes.locator('code.path').allTextContents()).toEqual(paths);

      await page.getByRole('button', { name: 'Open in the configurator' }).click();
      await page.locator('product-configurator .count').waitFor();
      expect(await page.getByLabel('Model').inputValue()).toBe(String(id));
    } finally {
      await page.close();
    }
  });

  it('shows a dead option as a warning with its path, then disabled in the configurator with its reason', async () => {
    const page = await workbench();
    try {
      // Without the row (wood, oak) of the frame_colors table, oak goes with no frame.
      const dead = windowYaml()
        .replace('code: WIN-CASEMENT', 'code: WIN-DEAD')
        .replace('        - [wood, oak]\n', '');
      await page.getByLabel('Choose a model file').setInputFiles({
        name: 'window.yaml',
        mimeType: 'application/yaml',
        buffer: Buffer.from(dead),
      });
      const result = page.getByRole('region', { name: 'Upload result' });
      await result.waitFor();
      expect(await result.locator('ul.problems code.path').allTextContents()).toEqual([
        'questions.color.options.oak',
      ]);
      expect(await result.locator('dd code').allTextContents()).toEqual([
        'questions.color.options.oak',
      ]);

      await page.getByRole('button', { name: 'Open in the configurator' }).click();
      await page.locator('product-configurator .count').waitFor();
      // Excluded by the model alone: nothing to offer, so the option is disabled, and says why.
      expect(await page.locator('#color--oak').isDisabled()).toBe(true);
      expect(await descriptionOf(page, 'color--oak')).toBe(
        'Unavailable: This colour is not made for this frame.',
      );
    } finally {
      await page.close();
    }
  });

  it('the example shop page embeds <product-configurator> with an intent token from another origin', async () => {
    const intent = await createIntent(world.server, world.admin, world.company.id);
    const page = await browser.newPage();
    try {
      const api = world.server.baseUrl;
      await page.goto(
        `${shop.origin}/?api=${encodeURIComponent(api)}&model=${world.window.id}#intent=${intent}`,
      );
      // The token is read and removed from the address bar.
      expect(page.url()).not.toContain(intent);
      await page.locator('product-configurator .count').waitFor();
      await watchChanges(page);
      await changeAfter(page, () =>
        page
          .getByLabel('Width (mm)')
          .fill('1200')
          .then(() => page.keyboard.press('Tab')),
      );
      await changeAfter(page, () =>
        page
          .getByLabel('Height (mm)')
          .fill('1000')
          .then(() => page.keyboard.press('Tab')),
      );
      const change = await changeAfter(page, () => page.getByLabel('White').check());
      expect(change.valid).toBe(true);
      // The shop's own script shows what the `change` event carried.
      expect(await page.locator('#price').textContent()).toBe(`EUR ${change.total}`);

      await page.getByRole('button', { name: 'Add to cart' }).click();
      await page.waitForFunction(() =>
        document.getElementById('basket')?.textContent?.startsWith('Basket'),
      );
      expect(await page.locator('#basket').textContent()).toBe(
        `Basket: 1 item, EUR ${change.total}`,
      );

      // The line is in the intent user's cart for that company, at that price.
      const carts = await world.server.http.get('/v1/carts').set(bearer(intent));
      const cart = await world.server.http
        .get(`/v1/carts/${carts.body.data[0].cart_id}`)
        .set(bearer(intent));
      expect(
        cart.body.data.lines.map((l: { pricing: { total: string } }) => l.pricing.total),
      ).toContain(change.total);
    } finally {
      await page.close();
    }
  });

  it('the pages start from an intent token in the URL fragment: configure and cart, no workbench', async () => {
    const intent = await createIntent(world.server, world.admin, world.company.id);
    const page = await browser.newPage();
    try {
      await page.goto(`${world.server.baseUrl}/app/#intent=${intent}&model=${world.window.id}`);
      await page.locator('product-configurator .count').waitFor();
      expect(page.url()).not.toContain(intent);
      expect(await page.getByLabel('Model').inputValue()).toBe(String(world.window.id));
      // An intent token reaches carts and companies only: no workbench for it.
      expect(await page.getByRole('button', { name: 'Model workbench' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Cart', exact: true }).click();
      await page.getByRole('heading', { name: /^Cart/ }).waitFor();
      // Nothing of the token was kept by the page beyond its memory.
      const stored = await page.evaluate(() => [
        localStorage.length,
        sessionStorage.length,
        document.cookie,
      ]);
      expect(stored).toEqual([0, 0, '']);
    } finally {
      await page.close();
    }
  });
});
