import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectEnvelope, problemsOf } from '../support/factories.js';
import {
  createModelWorld,
  minimalModel,
  sendModel,
  uploadModel,
  windowYaml,
  type ModelWorld,
} from '../support/model.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

describe('POST /v1/suppliers/{id}/models: the upload size limit', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let url: string;

  beforeAll(async () => {
    ctx = await createTestApp({ MODEL_UPLOAD_LIMIT: '2048' });
    world = await createModelWorld(ctx);
    url = `/v1/suppliers/${world.supplier.id}/models`;
    await new Promise<void>((resolve) => ctx.app.getHttpServer().listen(0, resolve));
  });
  afterAll(() => ctx?.close());

  it('accepts a model under the limit', async () => {
    await uploadModel(ctx, world.supplier.id, world.supplierMember.token, minimalModel('SMALL'));
  });

  it('answers 413 for a declared length over the limit, naming the limit', async () => {
    const res = await sendModel(ctx, 'post', url, world.supplierMember.token, windowYaml());
    const body = expectEnvelope(res, 413);
    expect(problemsOf(body)[0]).toEqual(
      expect.objectContaining({
        code: 'limit_exceeded',
        message: expect.stringContaining('2048'),
      }),
    );
  });

  it('answers 413 for a multipart file over the limit', async () => {
    const res = await ctx.http
      .post(url)
      .set(bearer(world.supplierMember.token))
      .attach('file', Buffer.from(windowYaml()), 'window.yaml');
    expectEnvelope(res, 413);
  });

  it('answers 413 for a chunked body (no Content-Length) once it passes the limit', async () => {
    const { port } = ctx.app.getHttpServer().address() as AddressInfo;
    const answer = await new Promise<{ status: number; body: Record<string, unknown> }>(
      (resolve, reject) => {
        const req = httpRequest(
          {
            port,
            method: 'POST',
            path: url,
            headers: {
              ...bearer(world.supplierMember.token),
              'Content-Type': 'application/yaml',
              'Transfer-Encoding': 'chunked',
            },
          },
          (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
          },
        );
        req.on('error', reject);
        const text = windowYaml();
        for (let at = 0; at < text.length; at += 512) req.write(text.slice(at, at + 512));
        req.end();
      },
    );
    expectEnvelope(answer, 413);
  });
});
