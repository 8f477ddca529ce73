/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { de } from '../../web/src/i18n/de.js';
import { en } from '../../web/src/i18n/en.js';
import {
  hasChromium,
  keepScreenshot,
  launchChromium,
  startPagesWorld,
  type PagesWorld,
} from '../support/browser.js';
import { bearer } from '../support/factories.js';
import { windowYaml } from '../support/model.factories.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../support/test-app.js';

/** The workbench's own English texts (without placeholders): none may show on a German page. */
const ENGLISH_WORKBENCH_TEXTS = Object.entries(en)
  .filter(([key, text]) => key.startsWith('workbench.') && !text.includes('{') && text.length > 3)
  .map(([, text]) => text);

describe.skipIf(!hasChromium)('the workbench in the browser’s language (German)', () => {
  let world: PagesWorld;
  let browser: Browser;

  beforeAll(async () => {
    world = await startPagesWorld();
    browser = await launchChromium();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await world?.server.close();
  });

  /** /app/ in a browser whose language is German: signed in, on the workbench. */
  async function germanWorkbench(): Promise<Page> {
    const context = await browser.newContext({ locale: 'de-DE' });
    const page = await context.newPage();
    await page.goto(`${world.server.baseUrl}/app/`);
    await page.getByLabel(de['signin.email']).fill(ADMIN_EMAIL);
    await page.getByLabel(de['signin.password']).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: de['signin.submit'] }).click();
    await page.getByRole('button', { name: de['nav.workbench'] }).click();
    await page.locator('#file:enabled').waitFor({ state: 'attached' });
    return page;
  }

  const workbenchText = (page: Page) =>
    page.locator('cfg-workbench').evaluate((el) => el.shadowRoot?.textContent ?? '');

  it('shows the refused upload and the stored model’s analysis in German, no English of its own', async () => {
    const page = await germanWorkbench();
    try {
      expect(await page.locator('cfg-workbench h1').textContent()).toBe(de['workbench.title']);
      const file = page.getByLabel(de['workbench.choose']);

      // A refused upload: the workbench's sentence in German, the API's problems with paths.
      const broken = windowYaml().replace('type: integer', 'type: slider');
      await file.setInputFiles({
        name: 'window.yaml',
        mimeType: 'application/yaml',
        buffer: Buffer.from(broken),
      });
      const problems = page.getByRole('alert', { name: de['workbench.problems'] });
      await problems.waitFor();
      expect(await problems.locator('p').first().textContent()).toBe(
        de['workbench.refused'].replace('{status}', '400'),
      );
      expect(await problems.locator('code.path').allTextContents()).toContain(
        'questions.width.type',
      );

      // A stored model: its analysis under German headings, its count grouped the German way.
      const model = windowYaml().replace('code: WIN-CASEMENT', 'code: WIN-DEUTSCH');
      await file.setInputFiles({
        name: 'window.yaml',
        mimeType: 'application/yaml',
        buffer: Buffer.from(model),
      });
      const result = page.getByRole('region', { name: de['workbench.result'] });
      await result.waitFor();
      const id = Number(/Modell #(\d+)/.exec((await result.textContent()) ?? '')?.[1]);
      const detail = await world.server.http.get(`/v1/models/${id}`).set(bearer(world.admin.token));
      const analysis = detail.body.data.analysis as { configurations: string; exact: boolean };
      expect(await result.locator('dt').allTextContents()).toEqual([
        de['workbench.availability'],
        de['workbench.configurations'],
        de['workbench.deadOptions'],
        de['workbench.compiledIn'],
      ]);
      expect((await result.getByTestId('configurations').textContent())?.trim()).toBe(
        BigInt(analysis.configurations).toLocaleString('de'),
      );
      await result.getByRole('button', { name: de['workbench.open'] }).waitFor();

      // The refused upload's English problems (the API's) are gone: only the workbench speaks.
      const shown = await workbenchText(page);
      expect(ENGLISH_WORKBENCH_TEXTS.filter((text) => shown.includes(text))).toEqual([]);
      await keepScreenshot(page, 'workbench-de');
    } finally {
      await page.context().close();
    }
  }, 120_000);
});
