import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_DIR } from '../support/examples.js';
import { ensurePagesBuilt } from '../support/pages.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

describe('the browser pages at /app', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ensurePagesBuilt();
    ctx = await createTestApp();
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
  });

  it('are served without a credential (static files pass before the global guard)', async () => {
    const index = await ctx.http.get('/app/');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toMatch(/^text\/html/);
    expect(index.text).toContain('<cfg-app>');
    expect(index.text).toContain('src="app.js"');
    const redirect = await ctx.http.get('/app');
    expect(redirect.status).toBe(301);
    expect(redirect.headers.location).toBe('/app/');
  });

  it('serves both bundles as JavaScript, revalidated (no-cache) and compressed', async () => {
    for (const name of ['app.js', 'product-configurator.js']) {
      const res = await ctx.http.get(`/app/${name}`).set('Accept-Encoding', 'gzip');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers.etag).toBeTruthy();
    }
  });

  it('serves the embeddable element as a public asset: cross-origin, hashed and cached for a year', async () => {
    const manifest = await ctx.http.get('/app/embed.json');
    expect(manifest.status).toBe(200);
    expect(manifest.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const { script, integrity } = manifest.body as { script: string; integrity: string };
    expect(script).toMatch(/^product-configurator\.[0-9a-f]{10}\.js$/);
    expect(integrity).toMatch(/^sha384-/);
    const hashed = await ctx.http.get(`/app/${script}`);
    expect(hashed.status).toBe(200);
    expect(hashed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(hashed.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(hashed.headers['access-control-allow-origin']).toBe('*');
    const plain = await ctx.http.get('/app/product-configurator.js');
    expect(plain.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(plain.text).toBe(hashed.text);
    // The pages themselves stay same-origin (CORS_ORIGINS is unset here).
    const pages = await ctx.http.get('/app/app.js');
    expect(pages.headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it('a missing page file is the API 404 envelope, and nothing outside dist/app is reachable', async () => {
    const missing = await ctx.http.get('/app/nothing-here.js');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 404, data: null });
    const stamp = await ctx.http.get('/app/.build-stamp');
    expect(stamp.status).toBe(404);
    const escape = await ctx.http.get('/app/..%2f..%2fpackage.json');
    expect(escape.status).toBe(404);
  });

  it('each bundle is within its gzip budget: 80 kB for the pages, 40 kB for the element', async () => {
    const { bundleSizes, BUNDLE_BUDGETS } = (await import(
      join(REPO_DIR, 'scripts', 'build-web.mjs')
    )) as {
      bundleSizes(): Promise<Record<string, number>>;
      BUNDLE_BUDGETS: Record<string, number>;
    };
    const sizes = await bundleSizes();
    expect(Object.keys(sizes)).toEqual(['app.js', 'product-configurator.js']);
    for (const [name, size] of Object.entries(sizes)) {
      expect(size).toBeGreaterThan(1000);
      expect(size).toBeLessThanOrEqual(BUNDLE_BUDGETS[name]);
    }
    expect(BUNDLE_BUDGETS).toEqual({ 'app.js': 80 * 1024, 'product-configurator.js': 40 * 1024 });
  });
});
