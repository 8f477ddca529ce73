import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssetUrls } from '../../src/engine-runtime/asset-urls.js';
import { bearer, expectEnvelope } from '../support/factories.js';
import {
  createModelWorld,
  DOOR_DIR,
  uploadModel,
  zipFolder,
  type ModelWorld,
  type TestModel,
} from '../support/model.factories.js';
import { createIntent } from '../support/org.factories.js';
import { freePort } from '../support/processes.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/** Debian's chromium (CI installs it when missing); CHROMIUM_PATH names another. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** What the test uses of a page's DOM. */
interface PageImage {
  onload: (() => void) | null;
  onerror: (() => void) | null;
  src: string;
  naturalWidth: number;
}
interface PageDocument {
  createElement(tag: 'img'): PageImage;
  body: { append(node: PageImage): void };
}

/** A shop's page on its own origin, which the test fills with markup. */
async function startShop(): Promise<{ server: Server; origin: string }> {
  const port = await freePort();
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<!doctype html><title>Shop</title>');
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${port}` };
}

/** A zip source folder: a model whose options show images. */
async function swatchModelDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'swatches-'));
  await mkdir(join(dir, 'img'));
  const svg = (fill: string) =>
    `<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="${fill}"/></svg>`;
  await writeFile(join(dir, 'img', 'red.svg'), svg('red'));
  await writeFile(join(dir, 'img', 'blue.svg'), svg('blue'));
  await writeFile(
    join(dir, 'model.yaml'),
    [
      'general: {name: Swatches, code: SWATCHES}',
      'questions:',
      '  - key: colour',
      '    type: choice',
      '    label: Colour',
      '    options:',
      '      - {key: red, label: Red, image: img/red.svg}',
      '      - {key: blue, label: Blue, image: img/blue.svg}',
      '',
    ].join('\n'),
  );
  return dir;
}

/**
 * Signed, short-lived asset URLs (AssetUrls, ASSET_URL_TTL): what cart lines and a
 * company's model list link to, loadable without Authorization, so an <img> can show them.
 */
describe('signed asset URLs', () => {
  let shop: Awaited<ReturnType<typeof startShop>>;
  let ctx: TestContext;
  let api: string;
  let world: ModelWorld;
  let door: TestModel;
  let intent: string;
  let signed: string;

  beforeAll(async () => {
    shop = await startShop();
    ctx = await createTestApp({ CORS_ORIGINS: shop.origin });
    await ctx.app.listen(0, '127.0.0.1');
    api = (await ctx.app.getUrl()).replace('[::1]', '127.0.0.1');
    world = await createModelWorld(ctx);
    door = await uploadModel(
      ctx,
      world.supplier.id,
      world.supplierMember.token,
      await zipFolder(DOOR_DIR),
    );
    intent = await createIntent(ctx, world.companyMember, world.company.id);
    const res = await ctx.http
      .post('/v1/carts/preview')
      .set(bearer(intent))
      .send({
        model_id: door.id,
        company_id: world.company.id,
        questions: { leaf_width: { values: [900] } },
      });
    signed = (expectEnvelope(res, 200).data as { images: { url: string }[] }).images[0]!.url;
  }, 60_000);
  afterAll(async () => {
    await ctx?.close();
    shop?.server.close();
  });

  const get = (url: string) => ctx.http.get(url).buffer(true);

  it('signs the URLs of a line and of the company model list, and serves them without Authorization', async () => {
    expect(signed).toMatch(/^\/v1\/assets\/\d+\/\d+\/1\/images\/door\.svg\?expires=\d+&signature=/);
    const image = await get(signed);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toContain('image/svg+xml');
    expect(image.headers['content-security-policy']).toContain('sandbox');
    expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // The content's hash: the same bytes, the same ETag, whichever URL or version.
    const bytes = image.body as Buffer;
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(image.headers.etag).toBe(`"${sha256}"`);
    expect(Number(image.headers['content-length'])).toBe(bytes.length);
    const revalidated = await ctx.http.get(signed).set('If-None-Match', `"other", "${sha256}"`);
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.etag).toBe(`"${sha256}"`);
    expect(revalidated.text ?? '').toBe('');
    const changed = await get(signed).set('If-None-Match', '"something-else"');
    expect(changed.status).toBe(200);
    expect((changed.body as Buffer).equals(bytes)).toBe(true);

    const swatches = await uploadModel(
      ctx,
      world.supplier.id,
      world.supplierMember.token,
      await zipFolder(await swatchModelDir()),
    );
    const list = await ctx.http.get(`/v1/companies/${world.company.id}/models`).set(bearer(intent));
    type Described = { id: number; questions: { options?: { image?: string }[] }[] };
    const models = expectEnvelope(list, 200).data as Described[];
    const images = models
      .find((model) => model.id === swatches.id)!
      .questions.flatMap((q) => (q.options ?? []).map((o) => o.image))
      .filter((url): url is string => url !== undefined);
    expect(images.length).toBeGreaterThan(0);
    for (const url of images) {
      expect(url).toMatch(/^\/v1\/assets\/.*\?expires=\d+&signature=[\w-]{43}$/);
      expect((await get(url)).status).toBe(200);
    }
  });

  it('is valid for at least ASSET_URL_TTL and stays the same within a window (stable ETags)', () => {
    const urls = ctx.app.get(AssetUrls);
    const asset = { companyId: 1, modelId: 2, versionNumber: 3, path: 'images/a b.svg' };
    const now = Date.parse('2026-11-27T10:00:00Z');
    const url = urls.url(asset, now);
    expect(url).toContain('/v1/assets/1/2/3/images/a%20b.svg?expires=');
    const expires = Number(new URL(url, 'http://x').searchParams.get('expires'));
    expect(expires * 1000 - now).toBeGreaterThanOrEqual(3600_000); // the default TTL
    expect(expires * 1000 - now).toBeLessThanOrEqual(7200_000);
    expect(urls.url(asset, now + 60_000)).toBe(url);
  });

  it('refuses a changed path, company, model, version or expiry (403 signature_invalid)', async () => {
    const url = new URL(signed, api);
    const expires = Number(url.searchParams.get('expires'));
    // The signature's first character changed (one in 64 signatures starts with 'A').
    const other = url.searchParams.get('signature')?.startsWith('A') ? 'B' : 'A';
    const tampered = [
      signed.replace('/images/door.svg', '/images/glass-panel.svg'),
      signed.replace(`/v1/assets/${world.company.id}/`, `/v1/assets/${world.company.id + 1}/`),
      signed.replace(`/${door.id}/1/`, `/${door.id}/2/`),
      signed.replace(`expires=${expires}`, `expires=${expires + 3600}`),
      signed.replace(/signature=[\w-]/, `signature=${other}`),
    ];
    for (const one of tampered) {
      const res = await get(one);
      expect(res.status, one).toBe(403);
      expect(res.body.errors, one).toEqual([
        expect.objectContaining({ code: 'signature_invalid' }),
      ]);
    }
    expectEnvelope(await get(signed.replace(/&signature=.*/, '')), 400);
  });

  it('refuses an expired URL (403 url_expired)', async () => {
    const asset = {
      companyId: world.company.id,
      modelId: door.id,
      versionNumber: 1,
      path: 'images/door.svg',
    };
    const old = ctx.app.get(AssetUrls).url(asset, Date.now() - 3 * 3600_000);
    const res = await get(old);
    expect(res.status).toBe(403);
    expect(res.body.errors).toEqual([expect.objectContaining({ code: 'url_expired' })]);
  });

  describe.skipIf(!existsSync(CHROMIUM))('in headless Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      });
    }, 60_000);
    afterAll(() => browser?.close());

    /** Puts an <img src> on the shop's page and waits until it loads or fails. */
    async function imgOnShopPage(src: string): Promise<{ loaded: boolean; width: number }> {
      const page = await browser.newPage();
      try {
        await page.goto(shop.origin);
        return await page.evaluate(
          (url) =>
            new Promise<{ loaded: boolean; width: number }>((resolve) => {
              // The page's DOM (the tests' TypeScript has no DOM library).
              const page = (globalThis as unknown as { document: PageDocument }).document;
              const img = page.createElement('img');
              img.onload = () => resolve({ loaded: true, width: img.naturalWidth });
              img.onerror = () => resolve({ loaded: false, width: 0 });
              img.src = url;
              page.body.append(img);
            }),
          src,
        );
      } finally {
        await page.close();
      }
    }

    it('loads a signed image in an <img> on a page of the shop’s origin', async () => {
      expect(new URL(api).origin).not.toBe(shop.origin);
      expect(await imgOnShopPage(`${api}${signed}`)).toEqual({ loaded: true, width: 120 });
    });

    it('does not load the image by the credential route (an <img> sends no Authorization)', async () => {
      const unsigned = `${api}/v1/companies/${world.company.id}/models/${door.id}/assets/images/door.svg?version=1`;
      expect(await imgOnShopPage(unsigned)).toEqual({ loaded: false, width: 0 });
    });
  });
});
