import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_DIR } from '../support/examples.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/** Bundles web/ into dist/app unless it is current (what npm run build does too). */
export function ensurePagesBuilt(): void {
  execFileSync(process.execPath, [join(REPO_DIR, 'scripts', 'build-web.mjs'), '--if-stale'], {
    stdio: 'inherit',
  });
}

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

  it('a missing page file is the API 404 envelope, and nothing outside dist/app is reachable', async () => {
    const missing = await ctx.http.get('/app/nothing-here.js');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 404, data: null });
    const stamp = await ctx.http.get('/app/.build-stamp');
    expect(stamp.status).toBe(404);
    const escape = await ctx.http.get('/app/..%2f..%2fpackage.json');
    expect(escape.status).toBe(404);
  });

  it('each bundle is within the 80 kB gzip budget', async () => {
    const { bundleSizes, BUNDLE_BUDGET_GZIP } = (await import(
      join(REPO_DIR, 'scripts', 'build-web.mjs')
    )) as {
      bundleSizes(): Promise<Record<string, number>>;
      BUNDLE_BUDGET_GZIP: number;
    };
    const sizes = await bundleSizes();
    expect(Object.keys(sizes)).toEqual(['app.js', 'product-configurator.js']);
    for (const size of Object.values(sizes)) {
      expect(size).toBeGreaterThan(1000);
      expect(size).toBeLessThanOrEqual(BUNDLE_BUDGET_GZIP);
    }
    expect(BUNDLE_BUDGET_GZIP).toBe(80 * 1024);
  });
});
