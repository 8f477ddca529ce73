import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAdmin, type TestUser } from '../support/factories.js';
import { createCompany, createIntent } from '../support/org.factories.js';
import { freePort } from '../support/processes.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/** Debian's chromium (CI installs it when missing); CHROMIUM_PATH names another. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A page of the web shop: the test drives its script through page.evaluate. */
async function startShop(): Promise<{ server: Server; origin: string }> {
  const port = await freePort();
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<!doctype html><title>Shop</title><h1>Shop</h1>');
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${port}` };
}

interface FetchResult {
  ok: boolean;
  status?: number;
  body?: { data: Record<string, unknown> };
  requestId?: string | null;
  replayed?: string | null;
  error?: string;
}

describe.skipIf(!existsSync(CHROMIUM))('a web shop on another origin, in headless Chromium', () => {
  let shop: Awaited<ReturnType<typeof startShop>>;
  let stranger: Awaited<ReturnType<typeof startShop>>;
  let ctx: TestContext;
  let api: string;
  let browser: Browser;
  let admin: TestUser;

  beforeAll(async () => {
    shop = await startShop();
    stranger = await startShop();
    ctx = await createTestApp({ CORS_ORIGINS: shop.origin });
    await ctx.app.listen(0, '127.0.0.1');
    api = (await ctx.app.getUrl()).replace('[::1]', '127.0.0.1');
    admin = await loginAdmin(ctx);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await ctx?.close();
    shop?.server.close();
    stranger?.server.close();
  });

  /** Runs fetch() in a page of `origin` against the API, as a shop's script would. */
  async function fetchFrom(
    origin: string,
    path: string,
    init: { method?: string; token: string; body?: unknown; key?: string },
  ): Promise<FetchResult> {
    const page = await browser.newPage();
    try {
      await page.goto(origin);
      return await page.evaluate(
        async ({ url, method, token, body, key }) => {
          try {
            const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
            if (body !== undefined) headers['Content-Type'] = 'application/json';
            if (key) headers['Idempotency-Key'] = key;
            const res = await fetch(url, {
              method,
              headers,
              body: body === undefined ? undefined : JSON.stringify(body),
            });
            return {
              ok: true,
              status: res.status,
              body: (await res.json()) as { data: Record<string, unknown> },
              requestId: res.headers.get('X-Request-Id'),
              replayed: res.headers.get('Idempotent-Replayed'),
            };
          } catch (error) {
            return { ok: false, error: String(error) };
          }
        },
        {
          url: `${api}${path}`,
          method: init.method ?? 'GET',
          token: init.token,
          body: init.body,
          key: init.key,
        },
      );
    } finally {
      await page.close();
    }
  }

  it('reads a company and creates a cart with an intent token (preflighted POST, exposed headers)', async () => {
    const company = await createCompany(ctx, admin);
    const intent = await createIntent(ctx, admin, company.id);
    const read = await fetchFrom(shop.origin, `/v1/companies/${company.id}`, { token: intent });
    expect(read).toMatchObject({ ok: true, status: 200 });
    expect(read.requestId).toMatch(/^[0-9a-f-]{36}$/);

    const create = {
      method: 'POST',
      token: intent,
      body: { reference: 'web order' },
      key: 'order-1',
    };
    const first = await fetchFrom(shop.origin, '/v1/carts/new', create);
    expect(first).toMatchObject({ ok: true, status: 201, replayed: null });
    const retry = await fetchFrom(shop.origin, '/v1/carts/new', create);
    expect(retry).toMatchObject({ ok: true, status: 201, replayed: 'true' });
    expect(retry.body?.data.cart_id).toBe(first.body?.data.cart_id);
  }, 60_000);

  it('the allowed origin cannot call a path an intent token may not use', async () => {
    const result = await fetchFrom(shop.origin, '/v1/users/me', { token: admin.token });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/TypeError/);
  }, 60_000);

  it('a page of an origin not in CORS_ORIGINS cannot read the answer', async () => {
    const company = await createCompany(ctx, admin);
    const intent = await createIntent(ctx, admin, company.id);
    const result = await fetchFrom(stranger.origin, `/v1/companies/${company.id}`, {
      token: intent,
    });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/TypeError/);
  }, 60_000);
});
