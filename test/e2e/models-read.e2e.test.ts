import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectEnvelope, idsOf } from '../support/factories.js';
import {
  DOOR_DIR,
  createModelWorld,
  minimalModel,
  uploadModel,
  windowYaml,
  zipFolder,
  type ModelWorld,
  type TestModel,
} from '../support/model.factories.js';
import { createApiToken, createCompany, createIntent } from '../support/org.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

describe('models: reading, versions, the edit lock, assets', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let window: TestModel;

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
    window = await uploadModel(ctx, world.supplier.id, world.supplierMember.token, windowYaml());
  });
  afterAll(() => ctx?.close());

  const get = (url: string, token?: string) => {
    const request = ctx.http.get(url);
    return token ? request.set(bearer(token)) : request;
  };

  describe('GET /v1/suppliers/{id}/models', () => {
    it('lists the models page by page, with links', async () => {
      const supplierUrl = `/v1/suppliers/${world.supplier.id}/models`;
      for (const code of ['LIST-A', 'LIST-B']) {
        await uploadModel(ctx, world.supplier.id, world.supplierMember.token, minimalModel(code));
      }
      const first = expectEnvelope(
        await get(`${supplierUrl}?per_page=2`, world.supplierMember.token),
        200,
      );
      expect(first.message).toBe('Models found');
      expect(idsOf(first.data)).toHaveLength(2);
      expect((first.data as TestModel[])[0]).toEqual(
        expect.objectContaining({
          id: window.id,
          general: expect.objectContaining({ name: 'Casement window' }),
        }),
      );
      expect(first.links).toEqual({
        self: `${supplierUrl}?per_page=2&page=1`,
        first: `${supplierUrl}?per_page=2&page=1`,
        last: `${supplierUrl}?per_page=2&page=2`,
        next: `${supplierUrl}?per_page=2&page=2`,
      });
      const second = expectEnvelope(
        await get(`${supplierUrl}?page=2&per_page=2`, world.supplierMember.token),
        200,
      );
      expect(idsOf(second.data)).toHaveLength(1);
      expect(second.links).toEqual(expect.objectContaining({ prev: expect.any(String) }));
      expectEnvelope(await get(`${supplierUrl}?per_page=500`, world.supplierMember.token), 400);
    });

    it('is readable by linked company members, admins and API tokens; 404 for others', async () => {
      const supplierUrl = `/v1/suppliers/${world.supplier.id}/models`;
      for (const token of [
        world.companyMember.token,
        world.admin.token,
        await createApiToken(ctx, world.supplierMember),
      ]) {
        expect(idsOf(expectEnvelope(await get(supplierUrl, token), 200).data)).toContain(window.id);
      }
      // A member of a company that does not buy from this supplier sees nothing.
      await createCompany(ctx, world.outsider);
      expectEnvelope(await get(supplierUrl, world.outsider.token), 404);
      expectEnvelope(await get('/v1/suppliers/999999/models', world.admin.token), 404);
    });

    it('answers 401 without a credential and for an intent token', async () => {
      const supplierUrl = `/v1/suppliers/${world.supplier.id}/models`;
      expectEnvelope(await get(supplierUrl), 401);
      const intent = await createIntent(ctx, world.companyMember, world.company.id);
      expectEnvelope(await get(supplierUrl, intent), 401);
    });
  });

  describe('GET /v1/models/{id}', () => {
    it('answers the model with its full definition and its version as ETag', async () => {
      const res = await get(`/v1/models/${window.id}`, world.supplierMember.token);
      const body = expectEnvelope(res, 200);
      const data = body.data as TestModel & { definition: Record<string, unknown> };
      expect(data).toEqual(expect.objectContaining({ id: window.id, version_number: 1 }));
      expect(data.definition.general).toEqual(
        expect.objectContaining({ name: 'Casement window', code: 'WIN-CASEMENT' }),
      );
      expect((data.definition.questions as unknown[]).length).toBe(7);
      expect(data.definition.imports).toEqual([]);
      expect(res.headers.etag).toBe('"1"');
    });

    it('is readable by a linked company member; 404 for outsiders and unknown ids', async () => {
      expectEnvelope(await get(`/v1/models/${window.id}`, world.companyMember.token), 200);
      expectEnvelope(await get(`/v1/models/${window.id}`, world.outsider.token), 404);
      expectEnvelope(await get('/v1/models/999999', world.admin.token), 404);
      expectEnvelope(await get('/v1/models/abc', world.admin.token), 404);
      expectEnvelope(await get(`/v1/models/${window.id}`), 401);
    });
  });

  describe('GET /v1/models/{id}/assets/{path}', () => {
    let door: TestModel;
    const assetUrl = (path: string) => `/v1/models/${door.id}/assets/${path}`;

    beforeAll(async () => {
      const zip = await zipFolder(DOOR_DIR, {
        'model.yaml': readFileSync(`${DOOR_DIR}/model.yaml`, 'utf8').replace(
          'code: DOOR-EXT',
          'code: DOOR-ASSETS',
        ),
      });
      door = await uploadModel(ctx, world.supplier.id, world.supplierMember.token, zip);
    });

    it('serves the file outside the envelope, with safe headers', async () => {
      const res = await get(assetUrl('images/glass-panel.svg'), world.companyMember.token)
        .buffer(true)
        .parse((stream, done) => {
          let text = '';
          stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
          stream.on('end', () => done(null, text));
        });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      );
      expect(res.body as string).toMatch(/^<svg/);
    });

    it('serves an older version with ?version=, 404 for unknown paths and versions', async () => {
      const old = await get(`${assetUrl('images/door.svg')}?version=1`, world.supplierMember.token);
      expect(old.status).toBe(200);
      expect(old.headers['cache-control']).toContain('immutable');
      expectEnvelope(await get(assetUrl('images/nope.svg'), world.supplierMember.token), 404);
      expectEnvelope(await get(assetUrl('model.yaml'), world.supplierMember.token), 404);
      expectEnvelope(
        await get(`${assetUrl('images/door.svg')}?version=7`, world.supplierMember.token),
        404,
      );
      expectEnvelope(
        await get(`${assetUrl('images/door.svg')}?version=x`, world.supplierMember.token),
        400,
      );
    });

    it('answers 404 to outsiders and 401 without a credential', async () => {
      expectEnvelope(await get(assetUrl('images/door.svg'), world.outsider.token), 404);
      expectEnvelope(await get(assetUrl('images/door.svg')), 401);
    });
  });
});

describe('GET /v1/companies/{id}/models', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let window: TestModel;

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
    window = await uploadModel(ctx, world.supplier.id, world.supplierMember.token, windowYaml());
    await uploadModel(
      ctx,
      world.supplier.id,
      world.supplierMember.token,
      await zipFolder(DOOR_DIR),
    );
  });
  afterAll(() => ctx?.close());

  const url = () => `/v1/companies/${world.company.id}/models`;

  it("lists the linked suppliers' models with their questions, to an intent token", async () => {
    const intent = await createIntent(ctx, world.companyMember, world.company.id);
    const body = expectEnvelope(await ctx.http.get(url()).set(bearer(intent)), 200);
    const models = body.data as (TestModel & { language: string; questions: { key: string }[] })[];
    expect(models.map((model) => model.general.name)).toEqual(['Casement window', 'Exterior door']);
    expect(models[0]).toEqual(expect.objectContaining({ id: window.id, language: 'en' }));
    expect(models[0].questions.map((question) => question.key)).toEqual([
      'width',
      'height',
      'frame',
      'color',
      'glazing',
      'extras',
      'engraving',
    ]);
    expect(models[0].questions[2]).toEqual(
      expect.objectContaining({
        key: 'frame',
        type: 'choice',
        label: 'Frame material',
        required: true,
        default: ['pvc'],
        options: expect.arrayContaining([
          expect.objectContaining({ key: 'alu', label: 'Aluminium', price: '85.00' }),
        ]),
      }),
    );
    // The rules that have a message: what a compact line's reasons are told with.
    expect((models[0] as unknown as { rules: unknown[] }).rules).toEqual([
      { key: 'max_pvc_width', severity: 'error', message: 'PVC frames are at most 1800 mm wide' },
      { key: 'frame_colors', severity: 'error', message: 'This colour is not made for this frame' },
      {
        key: 'heavy_glass',
        severity: 'warning',
        message: 'Triple glazing above 3 m² needs a second handle',
      },
    ]);
    expect(body.links).toEqual(expect.objectContaining({ self: expect.any(String) }));
  });

  it('translates labels with ?language_code=, paginates, and refuses a bad code', async () => {
    const res = await ctx.http
      .get(`${url()}?language_code=nl&per_page=1`)
      .set(bearer(world.companyMember.token));
    const body = expectEnvelope(res, 200);
    const [model] = body.data as {
      general: { name: string };
      language: string;
      questions: { label: string }[];
    }[];
    expect(model.language).toBe('nl');
    expect(model.general.name).toBe('Draairaam');
    expect(model.questions[0].label).toBe('Breedte');
    expect((model as unknown as { rules: { message: string }[] }).rules[0].message).toBe(
      'PVC-kozijnen zijn maximaal 1800 mm breed',
    );
    expect(body.links).toEqual(
      expect.objectContaining({ next: expect.stringContaining('page=2') }),
    );
    const bad = await ctx.http
      .get(`${url()}?language_code=${encodeURIComponent('<script>')}`)
      .set(bearer(world.companyMember.token));
    expectEnvelope(bad, 400);
  });

  it('shows nothing of unlinked suppliers, and 404 for companies the caller cannot see', async () => {
    const otherCompany = await createCompany(ctx, world.outsider);
    const own = expectEnvelope(
      await ctx.http
        .get(`/v1/companies/${otherCompany.id}/models`)
        .set(bearer(world.outsider.token)),
      200,
    );
    expect(own.data).toEqual([]);
    expectEnvelope(await ctx.http.get(url()).set(bearer(world.outsider.token)), 404);
    const intent = await createIntent(ctx, world.companyMember, world.company.id);
    expectEnvelope(
      await ctx.http.get(`/v1/companies/${otherCompany.id}/models`).set(bearer(intent)),
      404,
    );
    expectEnvelope(await ctx.http.get(url()), 401);
    const apiToken = await createApiToken(ctx, world.companyMember);
    expectEnvelope(await ctx.http.get(url()).set(bearer(apiToken)), 401);
  });
});
