import { createHash, randomBytes } from 'node:crypto';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../support/factories.js';
import {
  createModelWorld,
  minimalModel,
  sendModel,
  uploadModel,
  type ModelWorld,
} from '../support/model.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

const IMAGE_LIMIT = 400_000;
const IMAGES_LIMIT = 1_000_000;

/** A zip of a minimal model showing each image, with those images' bytes. */
async function zipWithImages(code: string, images: Record<string, Buffer>): Promise<Buffer> {
  const zip = new JSZip();
  const model = {
    ...minimalModel(code),
    images: Object.keys(images).map((src, i) => ({ key: `i${i}`, src, layer: i, alt: src })),
  };
  zip.file('model.json', JSON.stringify(model));
  for (const [path, bytes] of Object.entries(images)) zip.file(path, bytes);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

describe('model images: limits after decompression, stored and streamed as bytes', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  const url = () => `/v1/suppliers/${world.supplier.id}/models`;

  beforeAll(async () => {
    ctx = await createTestApp({
      MODEL_IMAGE_LIMIT: String(IMAGE_LIMIT),
      MODEL_IMAGES_LIMIT: String(IMAGES_LIMIT),
    });
    world = await createModelWorld(ctx);
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it('refuses an image over the per-image limit with 413 naming the limit (a tiny zip)', async () => {
    const zip = await zipWithImages('BIG', { 'images/big.png': Buffer.alloc(IMAGE_LIMIT + 1) });
    expect(zip.length).toBeLessThan(10_000);
    const res = await sendModel(ctx, 'post', url(), world.supplierMember.token, zip);
    expect(res.status, JSON.stringify(res.body)).toBe(413);
    expect(res.body.errors[0]).toMatchObject({ code: 'limit_exceeded', path: 'images/big.png' });
    expect(res.body.errors[0].message).toContain(`assetBytes (${IMAGE_LIMIT})`);
  });

  it('refuses images over the per-upload limit together with 413 naming the limit', async () => {
    const each = Buffer.alloc(IMAGE_LIMIT - 10);
    const images = { 'images/a.png': each, 'images/b.png': each, 'images/c.png': each };
    const res = await sendModel(
      ctx,
      'post',
      url(),
      world.supplierMember.token,
      await zipWithImages('MANY', images),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(413);
    expect(res.body.errors[0].message).toContain(`modelAssetBytes (${IMAGES_LIMIT})`);
  });

  it('serves an accepted image byte for byte, with its hash as ETag, HEAD and 304', async () => {
    const bytes = randomBytes(IMAGE_LIMIT - 1000);
    const model = await uploadModel(
      ctx,
      world.supplier.id,
      world.supplierMember.token,
      await zipWithImages('OK', { 'images/photo.png': bytes }),
    );
    const path = `/v1/models/${model.id}/assets/images/photo.png`;
    const token = bearer(world.supplierMember.token);
    const image = await ctx.http.get(path).set(token).buffer(true);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect((image.body as Buffer).equals(bytes)).toBe(true);
    const etag = `"${createHash('sha256').update(bytes).digest('hex')}"`;
    expect(image.headers.etag).toBe(etag);
    expect(image.headers['cache-control']).toBe('private, no-cache');

    const head = await ctx.http.head(path).set(token);
    expect(head.status).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(bytes.length);

    const revalidated = await ctx.http
      .get(`${path}?version=1`)
      .set(token)
      .set('If-None-Match', etag);
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers['cache-control']).toBe('private, max-age=86400, immutable');
  });
});
