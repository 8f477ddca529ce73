import { existsSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WINDOW_MODEL_YAML } from '../../src/models/upload/window-example.js';
import { bearer, login } from '../support/factories.js';
import { createTestApp, listenOnFreePort, type TestContext } from '../support/test-app.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The README's admin, whom the login example names. */
const README_ADMIN = { ADMIN_EMAIL: 'admin@example.com', ADMIN_PASSWORD: 'change-me-please' };

/**
 * Swagger UI as an integrator uses it, in headless Chromium: on a fresh database after
 * the README walkthrough, log in and authorize with the fresh access token, then execute
 * the company and supplier creation, the model upload (with a file), a preview and an
 * add-to-cart from the prefilled examples, as they are. CI installs Debian's chromium
 * (.ci/run); elsewhere set CHROMIUM_PATH.
 */
describe.skipIf(!existsSync(CHROMIUM))('Swagger UI, executed as it is', () => {
  let ctx: TestContext;
  let browser: Browser;
  let page: Page;
  let base: string;

  beforeAll(async () => {
    ctx = await createTestApp(README_ADMIN);
    base = await listenOnFreePort(ctx);
    await readmeWalkthrough();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    page = await browser.newPage();
    await page.goto(`${base}/docs`);
    await page.locator('.swagger-ui .information-container').waitFor();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await ctx?.close();
  });

  /** README steps 2–4: company 1, supplier 1 linked to it, the window model 1. */
  async function readmeWalkthrough(): Promise<void> {
    const admin = await login(ctx, README_ADMIN.ADMIN_EMAIL, README_ADMIN.ADMIN_PASSWORD);
    const company = await ctx.http.post('/v1/companies').set(bearer(admin.token)).send({
      email: 'buyer@example.com',
      name: 'Dealer BV',
      vat_number: 'NL123456789B01',
      coc_number: '12345678',
    });
    expect(company.status).toBe(201);
    const supplier = await ctx.http
      .post(`/v1/suppliers/${company.body.data.id}`)
      .set(bearer(admin.token))
      .send({ email: 'sales@acme.example', name: 'Acme Windows', website: 'https://acme.example' });
    expect(supplier.status).toBe(201);
    const model = await ctx.http
      .post(`/v1/suppliers/${supplier.body.data.id}/models`)
      .set(bearer(admin.token))
      .set('Content-Type', 'application/yaml')
      .send(readFileSync(new URL('../../examples/window.yaml', import.meta.url), 'utf8'));
    expect(model.status).toBe(201);
    expect([company.body.data.id, supplier.body.data.id, model.body.data.id]).toEqual([1, 1, 1]);
  }

  /** Opens an operation, presses "Try it out", lets `prepare` fill in, executes. */
  async function execute(
    tag: string,
    operationId: string,
    prepare: (operation: ReturnType<Page['locator']>) => Promise<void> = async () => {},
  ) {
    const operation = page.locator(`#operations-${tag}-${operationId}`);
    await operation.locator('.opblock-summary-control').click();
    await operation.locator('button.try-out__btn').click();
    await prepare(operation);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() !== 'OPTIONS' && r.url().includes('/v1/')),
      operation.locator('button.execute').click(),
    ]);
    return { status: response.status(), body: (await response.json()) as Record<string, any> };
  }

  it('logs in with the example and authorizes with its access token, kept out of localStorage', async () => {
    const loggedIn = await execute('auth', 'login');
    expect(loggedIn.status, JSON.stringify(loggedIn.body)).toBe(201);
    const accessToken = loggedIn.body.data.access_token as string;
    await page.locator('button.authorize').first().click();
    const scheme = page.locator('.auth-container', { hasText: 'access-token' });
    await scheme.locator('input').fill(accessToken);
    await scheme.locator('button.authorize').click();
    await scheme.getByText('Logout').waitFor();
    await scheme.locator('button.btn-done').click();
    const stored = await page.evaluate<string>('JSON.stringify(localStorage)');
    expect(stored).not.toContain(accessToken);
  }, 60_000);

  it('creates the example company and the example supplier of company 1 (201)', async () => {
    const company = await execute('companies', 'createCompany');
    expect(company.status, JSON.stringify(company.body)).toBe(201);
    const supplier = await execute('suppliers', 'createSupplier');
    expect(supplier.status, JSON.stringify(supplier.body)).toBe(201);
  }, 60_000);

  it('uploads the example model as a file (201)', async () => {
    const result = await execute('models', 'createModel', async (operation) => {
      const contentType = operation.locator('.body-param-content-type select');
      await contentType.selectOption('application/yaml');
      const yaml = await operation.locator('textarea.body-param__text').inputValue();
      expect(yaml).toContain('name: Casement window');
      await contentType.selectOption('application/json');
      const json = await operation.locator('textarea.body-param__text').inputValue();
      expect(JSON.parse(json).general.name).toBe('Casement window');
      await operation
        .locator('.body-param-content-type select')
        .selectOption('multipart/form-data');
      await operation.locator('input[type=file]').setInputFiles({
        name: 'window.yaml',
        mimeType: 'application/yaml',
        buffer: Buffer.from(WINDOW_MODEL_YAML),
      });
    });
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    expect(result.body.data.general.name).toBe('Casement window');
  }, 60_000);

  it('previews the example configuration (200, valid): oak asked for, the frame moved to wood', async () => {
    const result = await execute('carts', 'previewCartLine', async (operation) => {
      const body = await operation.locator('textarea.body-param__text').inputValue();
      expect(body).not.toMatch(/additionalProp|"string"/);
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body.data.valid).toBe(true);
    // The example asks for the oak finish, which only a wood frame takes: the nearest
    // valid configuration changes the frame.
    expect(result.body.data.bom_items[0].sku).toBe('PRF-WOOD-68');
    expect(result.body.data.resolution.changes).toEqual([
      expect.objectContaining({ question: 'frame', from: ['alu'], to: ['wood'] }),
    ]);
  }, 60_000);

  it('adds the example configuration to the default cart (201)', async () => {
    const result = await execute('carts', 'addCartLine');
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    expect(result.body.data.pricing.total).toMatch(/^\d+\.\d{2}$/);
  }, 60_000);
});
