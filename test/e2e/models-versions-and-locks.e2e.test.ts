import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelEntity } from '../../src/models/model.entity.js';
import { CompiledModels } from '../../src/engine-runtime/compiled-models.service.js';
import {
  bearer,
  createUser,
  expectEnvelope,
  problemsOf,
  type TestUser,
} from '../support/factories.js';
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
import { addSupplierMember } from '../support/org.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

describe('models: reading, versions, the edit lock, assets', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let colleague: TestUser;

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
    colleague = await createUser(ctx, world.admin);
    await addSupplierMember(ctx, world.admin, world.supplier.id, colleague.id);
    // The window holds general.code WIN-CASEMENT, which a PUT below may not take.
    await uploadModel(ctx, world.supplier.id, world.supplierMember.token, windowYaml());
  });
  afterAll(() => ctx?.close());

  const get = (url: string, token?: string) => {
    const request = ctx.http.get(url);
    return token ? request.set(bearer(token)) : request;
  };

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
      const compiled = ctx.app.get(CompiledModels);
      const described = (n: number) =>
        compiled.describe({ modelId: model.id, versionNumber: n }, 1, null);
      expect((await described(1)).general.name).toBe('Version one');
      expect((await described(2)).general.name).toBe('Version two');
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

    it('changes the ETag with the lock: 304 only while neither version nor lock changed', async () => {
      const read = (etag?: string) => {
        const request = ctx.http.get(`/v1/models/${model.id}`).set(bearer(colleague.token));
        return etag === undefined ? request : request.set('If-None-Match', etag);
      };
      const free = (await read()).headers.etag as string;
      expect(free).toMatch(/^"\d+"$/);
      expect((await read(free)).status).toBe(304);

      expectEnvelope(await ctx.http.post(lockUrl()).set(bearer(world.supplierMember.token)), 200);
      const stale = await read(free);
      const locked = expectEnvelope(stale, 200).data as TestModel;
      expect(locked.locked_by_id).toBe(world.supplierMember.id);
      const lockedTag = stale.headers.etag as string;
      expect(lockedTag).toMatch(
        new RegExp(`^${free.slice(0, -1)}-locked-${world.supplierMember.id}-\\d+"$`),
      );
      expect((await read(lockedTag)).status).toBe(304);

      // The ETag with the lock still names the version for If-Match.
      const version = Number(free.slice(1, -1));
      const upload = await ctx.http
        .put(`/v1/models/${model.id}`)
        .set(bearer(world.supplierMember.token))
        .set('If-Match', lockedTag)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(minimalModel('LOCKED')));
      expect(expectEnvelope(upload, 200).data).toEqual(
        expect.objectContaining({ version_number: version + 1 }),
      );
      expectEnvelope(await ctx.http.delete(lockUrl()).set(bearer(world.supplierMember.token)), 200);
      expect((await read(lockedTag)).status).toBe(200);
    });

    it('answers 400 and 415 for a body the lock route does not need, as documented', async () => {
      const lock = () => ctx.http.post(lockUrl()).set(bearer(colleague.token));
      const malformed = await lock().set('Content-Type', 'application/json').send('{"a":');
      expect(problemsOf(expectEnvelope(malformed, 400))[0].code).toBe('malformed_json');
      const text = await lock().set('Content-Type', 'text/plain').send('take it');
      expect(problemsOf(expectEnvelope(text, 415))[0].code).toBe('unsupported_media_type');
      expect(
        (await ctx.http.get(`/v1/models/${model.id}`).set(bearer(colleague.token))).body,
      ).toEqual(expect.objectContaining({ data: expect.objectContaining({ locked_by_id: null }) }));
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
});
