import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../support/built-server.js';
import { LogCapture } from '../support/log-capture.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

describe('the service root: GET / and the favicon', () => {
  let ctx: TestContext;
  const logs = new LogCapture();

  beforeAll(async () => {
    // The pages are served from the build (dist/app), which a clean clone has not yet.
    ensureBuilt();
    ctx = await createTestApp({ LOG_LEVEL: 'debug' }, undefined, { logs });
  }, 120_000);
  afterAll(() => ctx?.close());

  it('sends a person who opens the address to the pages', async () => {
    const res = await ctx.http.get('/');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/app/');
  });

  it("answers the browser's icon request with an image, not a 404", async () => {
    const res = await ctx.http.get('/favicon.ico');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('image/svg+xml');
    expect(String(res.body ?? res.text)).toContain('<svg');
  });

  it('logs the static pages under one route, not as unmatched', async () => {
    const page = await ctx.http.get('/app/');
    expect(page.status).toBe(200);
    const id = page.headers['x-request-id'];
    const line = logs.lines().find((entry) => entry.request_id === id && 'route' in entry);
    expect(line).toMatchObject({ route: '/app/*', status: 200 });
  });
});
