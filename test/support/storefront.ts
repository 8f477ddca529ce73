/// <reference lib="dom" />
// What the storefront's browser tests share (issue #40): the built service with CORS for a
// shop origin, a second origin it refuses, the window with a displayed variable, the door
// zip (images), and a signed-in page at a phone's or a desktop's size.
import yaml from 'js-yaml';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  changeAfter,
  embedPage,
  inWindow,
  launchChromium,
  signIn,
  startOrigin,
  startPagesWorld,
  VIEWPORTS,
  watchChanges,
  type PagesWorld,
  type ViewportName,
} from './browser.js';
import { DOOR_DIR, uploadModel, windowYaml, zipFolder } from './model.factories.js';

export function windowWithArea(source = windowYaml()): string {
  const model = yaml.load(source) as Record<string, any>;
  model.general.code = 'WIN-AREA';
  model.general.name = 'Window with area';
  Object.assign(model.variables[0], { label: 'Glass area', unit: 'm²', display: true });
  model.translation.de = { ...model.translation.de, 'variables.area_m2.label': 'Glasfläche' };
  return yaml.dump(model);
}

export const TOTAL = 'product-configurator [data-testid=total]';
export const ADD = 'product-configurator button.add';

export interface Storefront {
  world: PagesWorld;
  browser: Browser;
  /** A shop's origin, in CORS_ORIGINS. */
  shop: Awaited<ReturnType<typeof startOrigin>>;
  /** Another origin, not in CORS_ORIGINS. */
  stranger: Awaited<ReturnType<typeof startOrigin>>;
  areaModel: number;
  doorModel: number;
  /** A page of that size, signed in as the admin, on the area model, `change` events recorded. */
  signedInPage(size: ViewportName): Promise<Page>;
}

/** Registers the hooks of a describe block of storefront tests. */
export function useStorefront(): Storefront {
  const sf = {} as Storefront;
  beforeAll(async () => {
    sf.shop = await startOrigin({ '/': embedPage() });
    sf.stranger = await startOrigin({ '/': embedPage() });
    sf.world = await startPagesWorld({ CORS_ORIGINS: sf.shop.origin });
    const { server, supplierId, admin } = sf.world;
    sf.areaModel = (await uploadModel(server, supplierId, admin.token, windowWithArea())).id;
    sf.doorModel = (
      await uploadModel(server, supplierId, admin.token, await zipFolder(DOOR_DIR))
    ).id;
    sf.browser = await launchChromium();
  }, 240_000);
  afterAll(async () => {
    await sf.browser?.close();
    await sf.world?.server.close();
    sf.shop?.server.close();
    sf.stranger?.server.close();
  });
  sf.signedInPage = async (size) => {
    const page = await sf.browser.newPage({ viewport: VIEWPORTS[size] });
    await signIn(page, sf.world.server.baseUrl);
    await watchChanges(page);
    await changeAfter(page, () => page.getByLabel('Model').selectOption(String(sf.areaModel)));
    return page;
  };
  return sf;
}

/** The total and "Add to cart" are in the window at the top and with the last question in view. */
export async function expectTotalInView(page: Page): Promise<void> {
  await page.evaluate(() => scrollTo(0, 0));
  expect(await inWindow(page, TOTAL)).toBe(true);
  await page.locator('product-configurator .question').last().scrollIntoViewIfNeeded();
  expect(await inWindow(page, TOTAL)).toBe(true);
  expect(await inWindow(page, ADD)).toBe(true);
}
