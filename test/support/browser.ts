/// <reference lib="dom" />
// The functions given to page.evaluate run in Chromium: they use the DOM's types.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { REPO_DIR } from './examples.js';
import { loginAdmin, type TestUser } from './factories.js';
import { windowYaml, uploadModel, type TestModel } from './model.factories.js';
import { createCompany, createSupplier, type TestCompany } from './org.factories.js';
import { freePort } from './processes.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './test-app.js';

/** Debian's chromium (CI installs it when missing); CHROMIUM_PATH names another. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** A web server of another origin (a shop): `pages` by path, text/html. */
export async function startOrigin(
  pages: Record<string, string>,
): Promise<{ server: Server; origin: string }> {
  const port = await freePort();
  const server = createServer((req, res) => {
    const page = pages[new URL(req.url ?? '/', 'http://x').pathname];
    res.writeHead(page === undefined ? 404 : 200, { 'Content-Type': 'text/html' });
    res.end(page ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${port}` };
}

/** The example shop page (examples/embed/index.html), served as it is: it reads its settings from the address. */
export const embedPage = (): string =>
  readFileSync(join(REPO_DIR, 'examples', 'embed', 'index.html'), 'utf8');

/** The built service with an admin who is a member of a company whose supplier has the window model. */
export interface PagesWorld {
  server: ServerProcess;
  admin: TestUser;
  company: TestCompany;
  supplierId: number;
  window: TestModel;
}

export async function startPagesWorld(env: Record<string, string> = {}): Promise<PagesWorld> {
  const server = await startServerProcess({ LOGIN_RATE_LIMIT: '100000', ...env });
  const admin = await loginAdmin(server);
  const company = await createCompany(server, admin, { name: 'Dealer BV' });
  const supplier = await createSupplier(server, admin, company.id, { name: 'Acme Windows' });
  const window = await uploadModel(server, supplier.id, admin.token, windowYaml());
  return { server, admin, company, supplierId: supplier.id, window };
}

/** The window example's answers for a complete, valid line in aluminium and white. */
export const WINDOW_ANSWERS = {
  width: { values: [1200] },
  height: { values: [1000] },
  frame: { values: ['alu'] },
  color: { values: ['white'] },
};

/** What a describe block of page tests shares: one world and browser, a signed-in page per test. */
export interface SignedInPage {
  world: PagesWorld;
  browser: Browser;
  /** A fresh page per test, signed in as the admin, its `change` events recorded. */
  page: Page;
}

/** Registers the hooks of a describe block whose every test starts on a signed-in /app/ page. */
export function useSignedInPage(): SignedInPage {
  const signed = {} as SignedInPage;
  beforeAll(async () => {
    signed.world = await startPagesWorld();
    signed.browser = await launchChromium();
  }, 240_000);
  afterAll(async () => {
    await signed.browser?.close();
    await signed.world?.server.close();
  });
  beforeEach(async () => {
    signed.page = await signed.browser.newPage();
    await signIn(signed.page, signed.world.server.baseUrl);
    await watchChanges(signed.page);
  }, 60_000);
  afterEach(async () => {
    await signed.page?.close();
  });
  return signed;
}

/** Opens /app/ and signs in as the admin with email and password. */
export async function signIn(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/app/`);
  await page.getByLabel('Email').fill(ADMIN_EMAIL);
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('product-configurator .count').waitFor();
}

/** What the page's configurator said in its `change` events so far (recorded from `watchChanges`). */
interface ChangeRecord {
  valid: boolean;
  total: string;
}

/** Records every `change` event of the configurator (in the pages or a shop page) in window.__changes. */
export async function watchChanges(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __changes: ChangeRecord[] };
    w.__changes = [];
    document.addEventListener('change', (event) => {
      const detail = (
        event as CustomEvent<{ valid: boolean; line?: { pricing: { total: string } } }>
      ).detail;
      if (detail?.line) w.__changes.push({ valid: detail.valid, total: detail.line.pricing.total });
    });
  });
}

/** Runs `action` and waits for the configurator's next `change` event; its detail. */
export async function changeAfter(
  page: Page,
  action: () => Promise<unknown>,
): Promise<ChangeRecord> {
  const count = await page.evaluate(
    () => (window as unknown as { __changes: unknown[] }).__changes.length,
  );
  await action();
  await page.waitForFunction(
    (n) => (window as unknown as { __changes: unknown[] }).__changes.length > n,
    count,
  );
  return page.evaluate(() => {
    const changes = (window as unknown as { __changes: ChangeRecord[] }).__changes;
    return changes[changes.length - 1];
  });
}

/** Types `value` into the field labelled `label` and leaves it (Tab): the `change` that follows. */
export function enterValue(page: Page, label: string, value: string): Promise<ChangeRecord> {
  return changeAfter(page, () =>
    page
      .getByLabel(label)
      .fill(value)
      .then(() => page.keyboard.press('Tab')),
  );
}

/** The text of the element that describes a control (aria-describedby), through shadow roots. */
export async function descriptionOf(page: Page, controlId: string): Promise<string> {
  return page.locator(`#${controlId}`).evaluate((input) => {
    const ids = (input.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
    const root = input.getRootNode() as Document | ShadowRoot;
    return ids.map((id) => root.getElementById(id)?.textContent?.trim() ?? '').join(' ');
  });
}

/** axe-core (from npm) injected into the page and run on all of it, shadow roots included. */
export async function axeViolations(
  page: Page,
): Promise<{ id: string; impact: string; nodes: number }[]> {
  const require = createRequire(import.meta.url);
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> };
      }
    ).axe;
    const result = await axe.run();
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
}

/** The phone and the desktop every storefront page is checked at (issue #40). */
export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

/** Where screenshots go, for CI to keep as artifacts (gitignored). */
export const SCREENSHOTS_DIR = join(REPO_DIR, 'test-artifacts', 'screenshots');

/** A full-page screenshot named `name` in SCREENSHOTS_DIR. */
export async function keepScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS_DIR, `${name}.png`), fullPage: true });
}

/** How far the document is wider than the window (0: no horizontal scroll). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

/** Whether the element's box lies wholly inside the window as it is scrolled now. */
export function inWindow(page: Page, selector: string): Promise<boolean> {
  return page.locator(selector).evaluate((element) => {
    const box = element.getBoundingClientRect();
    return (
      box.width > 0 &&
      box.top >= 0 &&
      box.left >= 0 &&
      box.bottom <= innerHeight &&
      box.right <= innerWidth
    );
  });
}
