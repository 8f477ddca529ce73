import { readFileSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelEntity } from '../../src/models/model.entity.js';
import { ModelsService } from '../../src/models/models.service.js';
import { bearer, createUser, expectEnvelope, type TestUser } from '../support/factories.js';
import {
  DOOR_DIR,
  createModelWorld,
  minimalModel,
  sendModel,
  uploadModel,
  windowYaml,
  zipFolder,
  type ModelWorld,
  type TestModel,
} from '../support/model.factories.js';
import {
  addSupplierMember,
  createApiToken,
  createCompany,
  createIntent,
} from '../support/org.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

type Problem = { code: string; path?: string };
const problemsOf = (body: Record<string, unknown>) => body.errors as Problem[];
const idsOf = (data: unknown) => (data as { id: number }[]).map((item) => item.id);

describe('models: reading, versions, the edit lock, assets', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let colleague: TestUser;
  let window: TestModel;

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
    colleague = await createUser(ctx, world.admin);
    await addSupplierMember(ctx, world.admin, world.supplier.id, colleague.id);
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

  describe('PUT /v1/models/{id}', () => {
    let model: TestModel;
    const url = () => `/v1/models/${model.id}`;
    const put = (token: string, body: Record<string, unknown>, headers = {}) =>
      sendModel(ctx, 'put', url(), token, body, headers);

    beforeAll(async () => {
      model = await uploadModel(
        ctx,
        world.supplier.id,
        world.supplierMember.token,
        minimalModel('VERSIONED', 'Version one'),
      );
    });

    it('stores version 2 (updated_at set) and keeps version 1 loadable', async () => {
      const res = await put(world.supplierMember.token, minimalModel('VERSIONED', 'Version two'));
      const body = expectEnvelope(res, 200);
      expect(body.message).toBe('Model version created');
      const data = body.data as TestModel;
      expect(data).toEqual(
        expect.objectContaining({ id: model.id, version_number: 2, created_at: model.created_at }),
      );
      expect(data.updated_at).toEqual(expect.any(String));
      expect(data.general.name).toBe('Version two');
      expect(res.headers.etag).toBe('"2"');

      const detail = expectEnvelope(await get(url(), world.companyMember.token), 200);
      expect((detail.data as TestModel).general.name).toBe('Version two');
      const service = ctx.app.get(ModelsService);
      const pinned = await service.loadCompiled(model.id, 1);
      expect(pinned.compiled.general.name).toBe('Version one');
      expect((await service.loadCompiled(model.id)).versionNumber).toBe(2);
    });

    it('honours If-Match: the current version passes (quoted or weak), a stale one is 409', async () => {
      const stale = await put(world.supplierMember.token, minimalModel('VERSIONED'), {
        'If-Match': '1',
      });
      expect(problemsOf(expectEnvelope(stale, 409))[0].code).toBe('stale_version');
      const weak = await put(world.supplierMember.token, minimalModel('VERSIONED'), {
        'If-Match': 'W/"2"',
      });
      expect((expectEnvelope(weak, 200).data as TestModel).version_number).toBe(3);
      const quoted = await put(world.supplierMember.token, minimalModel('VERSIONED'), {
        'If-Match': '"3"',
      });
      expect((expectEnvelope(quoted, 200).data as TestModel).version_number).toBe(4);
    });

    it('lets only one of two racing uploads for the same version win', async () => {
      const current = (
        expectEnvelope(await get(url(), world.supplierMember.token), 200).data as TestModel
      ).version_number;
      const headers = { 'If-Match': String(current) };
      const answers = await Promise.all([
        put(world.supplierMember.token, minimalModel('VERSIONED'), headers),
        put(colleague.token, minimalModel('VERSIONED'), headers),
      ]);
      expect(answers.map((res) => res.status).sort()).toEqual([200, 409]);
      const after = expectEnvelope(await get(url(), world.supplierMember.token), 200);
      expect((after.data as TestModel).version_number).toBe(current + 1);
    });

    it('answers 400, 415 and 409 like an upload', async () => {
      const invalid = await put(world.supplierMember.token, { general: {}, extra: 1 });
      const paths = problemsOf(expectEnvelope(invalid, 400)).map((problem) => problem.path);
      expect(paths).toEqual(expect.arrayContaining(['general.name', 'extra']));
      const plain = await ctx.http
        .put(url())
        .set(bearer(world.supplierMember.token))
        .set('Content-Type', 'text/plain')
        .send('general: {name: x}');
      expectEnvelope(plain, 415);
      // general.code of another model of the supplier.
      const taken = await put(world.supplierMember.token, minimalModel('WIN-CASEMENT'));
      expect(problemsOf(expectEnvelope(taken, 409))[0].path).toBe('general.code');
    });

    it('answers 403 to linked readers who are not supplier members, 404 to outsiders', async () => {
      expectEnvelope(await put(world.companyMember.token, minimalModel('VERSIONED')), 403);
      expectEnvelope(await put(world.outsider.token, minimalModel('VERSIONED')), 404);
      expectEnvelope(
        await sendModel(ctx, 'put', '/v1/models/999999', world.admin.token, minimalModel('X')),
        404,
      );
      expectEnvelope(await sendModel(ctx, 'put', url(), null, minimalModel('VERSIONED')), 401);
    });

    it('accepts a zip and multipart on PUT too', async () => {
      const door = await uploadModel(
        ctx,
        world.supplier.id,
        world.supplierMember.token,
        await zipFolder(DOOR_DIR),
      );
      const res = await ctx.http
        .put(`/v1/models/${door.id}`)
        .set(bearer(world.supplierMember.token))
        .attach('file', await zipFolder(DOOR_DIR), 'door.zip');
      expect((expectEnvelope(res, 200).data as TestModel).version_number).toBe(2);
    });
  });

  describe('the edit lock', () => {
    let model: TestModel;
    const lockUrl = () => `/v1/models/${model.id}/lock`;
    const put = (token: string) =>
      sendModel(ctx, 'put', `/v1/models/${model.id}`, token, minimalModel('LOCKED'));

    beforeAll(async () => {
      model = await uploadModel(
        ctx,
        world.supplier.id,
        world.supplierMember.token,
        minimalModel('LOCKED'),
      );
    });

    it('lets the holder upload while others get 423, until it is released', async () => {
      const taken = expectEnvelope(
        await ctx.http.post(lockUrl()).set(bearer(world.supplierMember.token)),
        200,
      );
      expect(taken.message).toBe('Model locked');
      expect(taken.data).toEqual(
        expect.objectContaining({
          locked_by_id: world.supplierMember.id,
          lock_expires_at: expect.any(String),
        }),
      );
      // Taking it again is idempotent.
      expectEnvelope(await ctx.http.post(lockUrl()).set(bearer(world.supplierMember.token)), 200);

      expect(problemsOf(expectEnvelope(await put(colleague.token), 423))[0].code).toBe('locked');
      expectEnvelope(await ctx.http.post(lockUrl()).set(bearer(colleague.token)), 423);
      expectEnvelope(await ctx.http.delete(lockUrl()).set(bearer(colleague.token)), 423);
      expectEnvelope(await put(world.supplierMember.token), 200);

      const released = expectEnvelope(
        await ctx.http.delete(lockUrl()).set(bearer(world.supplierMember.token)),
        200,
      );
      expect((released.data as TestModel).locked_by_id).toBeNull();
      expectEnvelope(await put(colleague.token), 200);
    });

    it('lets an admin break a lock, and lets a lapsed lock go', async () => {
      expectEnvelope(await ctx.http.post(lockUrl()).set(bearer(colleague.token)), 200);
      const broken = expectEnvelope(
        await ctx.http.delete(lockUrl()).set(bearer(world.admin.token)),
        200,
      );
      expect((broken.data as TestModel).locked_by_id).toBeNull();

      expectEnvelope(await ctx.http.post(lockUrl()).set(bearer(colleague.token)), 200);
      const longAgo = new Date(Date.now() - 31 * 60 * 1000);
      await ctx.app
        .get(DataSource)
        .getRepository(ModelEntity)
        .update(model.id, { lockedAt: longAgo });
      const detail = expectEnvelope(await get(`/v1/models/${model.id}`, colleague.token), 200);
      expect((detail.data as TestModel).locked_by_id).toBeNull();
      const retaken = expectEnvelope(
        await ctx.http.post(lockUrl()).set(bearer(world.supplierMember.token)),
        200,
      );
      expect((retaken.data as TestModel).locked_by_id).toBe(world.supplierMember.id);
      expectEnvelope(await ctx.http.delete(lockUrl()).set(bearer(world.supplierMember.token)), 200);
    });

    it('answers 403 to readers who are not supplier members, 404 to outsiders, 401 anonymous', async () => {
      expectEnvelope(await ctx.http.post(lockUrl()).set(bearer(world.companyMember.token)), 403);
      expectEnvelope(await ctx.http.delete(lockUrl()).set(bearer(world.companyMember.token)), 403);
      expectEnvelope(await ctx.http.post(lockUrl()).set(bearer(world.outsider.token)), 404);
      expectEnvelope(
        await ctx.http.post('/v1/models/999999/lock').set(bearer(world.admin.token)),
        404,
      );
      expectEnvelope(await ctx.http.post(lockUrl()), 401);
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
