import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectEnvelope, postRawJson, problemsOf, unique } from '../support/factories.js';
import {
  DOOR_DIR,
  createModelWorld,
  minimalModel,
  sendModel,
  uploadModel,
  windowYaml,
  zipFolder,
  type ModelWorld,
} from '../support/model.factories.js';
import { createApiToken, createIntent } from '../support/org.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/** window.yaml with another general.code, so that several copies fit in one supplier. */
const windowWithCode = (code: string): string =>
  windowYaml().replace('code: WIN-CASEMENT', `code: ${code}`);
const windowDocument = (code: string) => yaml.load(windowWithCode(code)) as Record<string, unknown>;

describe('POST /v1/suppliers/{id}/models: upload formats and refusals', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let url: string;

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
    url = `/v1/suppliers/${world.supplier.id}/models`;
  });
  afterAll(() => ctx?.close());

  it('creates a model from a YAML body: 201 with the model object, version 1', async () => {
    const res = await sendModel(ctx, 'post', url, world.supplierMember.token, windowYaml());
    const body = expectEnvelope(res, 201);
    expect(body.message).toBe('Model created');
    expect(body.data).toEqual({
      id: expect.any(Number),
      supplier_id: world.supplier.id,
      version_number: 1,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: null,
      locked_by_id: null,
      lock_expires_at: null,
      retired_at: null,
      general: expect.objectContaining({ name: 'Casement window', code: 'WIN-CASEMENT' }),
      // Issue #6: the analysis' warnings (dead options) are part of the upload answer.
      warnings: [],
    });
  });

  it('accepts the same model as JSON, and a media type with parameters', async () => {
    const json = await uploadModel(ctx, world.supplier.id, world.supplierMember.token, {
      ...windowDocument('WIN-JSON'),
    });
    expect(json.general).toEqual(expect.objectContaining({ code: 'WIN-JSON' }));
    const res = await ctx.http
      .post(url)
      .set(bearer(world.supplierMember.token))
      .set('Content-Type', 'text/yaml; charset=utf-8')
      .send(windowWithCode('WIN-TEXT-YAML'));
    expectEnvelope(res, 201);
  });

  it('accepts a multipart/form-data upload with a file part (by extension or type)', async () => {
    const byExtension = await ctx.http
      .post(url)
      .set(bearer(world.supplierMember.token))
      .attach('file', Buffer.from(windowWithCode('WIN-MULTIPART')), {
        filename: 'window.yaml',
        contentType: 'application/octet-stream',
      });
    const body = expectEnvelope(byExtension, 201);
    expect((body.data as { general: { code: string } }).general.code).toBe('WIN-MULTIPART');

    const doorYaml = readFileSync(join(DOOR_DIR, 'model.yaml'), 'utf8');
    const zip = await zipFolder(DOOR_DIR, {
      'model.yaml': doorYaml.replace('code: DOOR-EXT', 'code: DOOR-MULTIPART'),
    });
    const byType = await ctx.http
      .post(url)
      .set(bearer(world.supplierMember.token))
      .attach('file', zip, { filename: 'upload.bin', contentType: 'application/zip' });
    expectEnvelope(byType, 201);
  });

  it('answers 400 for a multipart body without a file part', async () => {
    const res = await ctx.http
      .post(url)
      .set(bearer(world.supplierMember.token))
      .field('note', 'no file here');
    const body = expectEnvelope(res, 400);
    expect(problemsOf(body)).toEqual([expect.objectContaining({ path: 'file' })]);
  });

  it('creates the door from a zip: the fragment is merged, the images are stored', async () => {
    const zip = await zipFolder(DOOR_DIR);
    const model = await uploadModel(ctx, world.supplier.id, world.supplierMember.token, zip);
    expect(model.general).toEqual(expect.objectContaining({ name: 'Exterior door' }));
    const detail = expectEnvelope(
      await ctx.http.get(`/v1/models/${model.id}`).set(bearer(world.supplierMember.token)),
      200,
    );
    const definition = (detail.data as { definition: Record<string, unknown> }).definition;
    const questionKeys = (definition.questions as { key: string }[]).map((q) => q.key);
    expect(questionKeys).toEqual(['leaf_width', 'glass_panel', 'hinge_count', 'handle']);
    expect(definition.imports).toEqual([{ path: 'fragments/hardware.yaml' }]);

    const svg = await ctx.http
      .get(`/v1/models/${model.id}/assets/images/door.svg`)
      .set(bearer(world.supplierMember.token))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(svg.status).toBe(200);
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect((svg.body as Buffer).equals(readFileSync(join(DOOR_DIR, 'images/door.svg')))).toBe(true);
  });

  it('answers 400 for a zip entry whose path is longer than the assets keep (a 500 on PostgreSQL)', async () => {
    const long = `${'a'.repeat(200)}/${'b'.repeat(200)}/${'c'.repeat(150)}/x.svg`;
    const zip = await zipFolder(DOOR_DIR, {
      [long]: readFileSync(join(DOOR_DIR, 'images/door.svg')),
    });
    const res = await ctx.http
      .post(url)
      .set(bearer(world.supplierMember.token))
      .set('Content-Type', 'application/zip')
      .send(zip);
    const body = expectEnvelope(res, 400);
    expect(problemsOf(body)).toContainEqual(
      expect.objectContaining({ code: 'zip_unsafe_path', path: long }),
    );
  });

  it('imports another model of the same supplier by id, pinned to its version', async () => {
    const hardware = await uploadModel(ctx, world.supplier.id, world.supplierMember.token, {
      general: { name: 'Hardware', code: unique('HW') },
      questions: [{ key: 'knob', type: 'boolean', label: 'Knob', default: false }],
    });
    const composite = {
      ...minimalModel(unique('COMPOSITE')),
      imports: [{ model_id: hardware.id }],
    };
    const created = await uploadModel(
      ctx,
      world.supplier.id,
      world.supplierMember.token,
      composite,
    );
    const detail = await ctx.http
      .get(`/v1/models/${created.id}`)
      .set(bearer(world.supplierMember.token));
    const definition = (expectEnvelope(detail, 200).data as { definition: Record<string, unknown> })
      .definition;
    expect(definition.imports).toEqual([{ model_id: hardware.id, version_number: 1 }]);
    expect((definition.questions as { key: string }[]).map((q) => q.key)).toEqual(['size', 'knob']);
  });

  it("refuses an import of another supplier's model (400 at the import)", async () => {
    const otherWorld = await createModelWorld(ctx);
    const foreign = await uploadModel(
      ctx,
      otherWorld.supplier.id,
      otherWorld.supplierMember.token,
      minimalModel(unique('FOREIGN')),
    );
    const res = await sendModel(ctx, 'post', url, world.supplierMember.token, {
      ...minimalModel(unique('THIEF')),
      imports: [{ model_id: foreign.id }],
    });
    const body = expectEnvelope(res, 400);
    expect(problemsOf(body)).toEqual([
      expect.objectContaining({
        code: 'unknown_model',
        path: expect.stringContaining('imports[0]'),
      }),
    ]);
  });

  it('answers 400 with every problem and its path', async () => {
    const document = {
      ...minimalModel(unique('BROKEN')),
      bogus_section: true,
      variables: [{ key: 'double_size', expr: 'size *' }],
      rules: [{ key: 'r1', assert: 'no_such_name > 3', message: 'Never' }],
    };
    const res = await sendModel(ctx, 'post', url, world.supplierMember.token, document);
    const body = expectEnvelope(res, 400);
    const paths = problemsOf(body).map((problem) => problem.path);
    expect(paths).toEqual(
      expect.arrayContaining(['bogus_section', 'variables.double_size.expr', 'rules.r1.assert']),
    );
    expect(problemsOf(body).length).toBeGreaterThanOrEqual(3);
  });

  it('answers 400 for image paths that are not in the upload', async () => {
    const res = await sendModel(ctx, 'post', url, world.supplierMember.token, {
      ...minimalModel(unique('PICTURE')),
      images: [{ key: 'photo', src: 'images/photo.png' }],
    });
    const body = expectEnvelope(res, 400);
    expect(problemsOf(body)).toEqual([
      expect.objectContaining({ code: 'unknown_asset', path: 'images.photo.src' }),
    ]);
  });

  it('answers 400 for YAML and JSON that do not parse', async () => {
    const badYaml = await sendModel(ctx, 'post', url, world.supplierMember.token, 'general: [');
    expectEnvelope(badYaml, 400);
    const badJson = await postRawJson(ctx, url, world.supplierMember.token, '{"general": ');
    expectEnvelope(badJson, 400);
  });

  it('answers 409 when another model of the supplier has the same code', async () => {
    const code = unique('DUP');
    await uploadModel(ctx, world.supplier.id, world.supplierMember.token, minimalModel(code));
    const res = await sendModel(ctx, 'post', url, world.supplierMember.token, minimalModel(code));
    const body = expectEnvelope(res, 409);
    expect(problemsOf(body)).toEqual([expect.objectContaining({ path: 'general.code' })]);
  });

  it('answers 415 for a body that is not JSON, YAML, a zip or multipart', async () => {
    const res = await ctx.http
      .post(url)
      .set(bearer(world.supplierMember.token))
      .set('Content-Type', 'text/plain')
      .send(windowYaml());
    expect(problemsOf(expectEnvelope(res, 415))[0].code).toBe('unsupported_media_type');
    const multipart = await ctx.http
      .post(url)
      .set(bearer(world.supplierMember.token))
      .attach('file', Buffer.from('hello'), { filename: 'notes.txt', contentType: 'text/plain' });
    expectEnvelope(multipart, 415);
    // Extensions named like Object.prototype's members were looked up on it (a 500).
    for (const filename of ['model.constructor', 'model.__proto__', 'model.toString']) {
      const named = await ctx.http
        .post(url)
        .set(bearer(world.supplierMember.token))
        .attach('file', Buffer.from(windowYaml()), {
          filename,
          contentType: 'application/octet-stream',
        });
      expect(problemsOf(expectEnvelope(named, 415))[0].code).toBe('unsupported_media_type');
    }
  });

  it('answers 401 to a caller who is not a member of the supplier', async () => {
    for (const user of [world.outsider, world.companyMember]) {
      const res = await sendModel(ctx, 'post', url, user.token, minimalModel(unique('NOPE')));
      expect(problemsOf(expectEnvelope(res, 401))[0].code).toBe('not_a_member');
    }
  });

  it('answers 404 when the supplier does not exist', async () => {
    const res = await sendModel(
      ctx,
      'post',
      '/v1/suppliers/999999/models',
      world.admin.token,
      minimalModel(unique('GHOST')),
    );
    expectEnvelope(res, 404);
  });

  it('answers 403 without a credential, with a bad one, or with an intent token', async () => {
    const model = minimalModel(unique('ANON'));
    expectEnvelope(await sendModel(ctx, 'post', url, null, model), 403);
    expectEnvelope(await sendModel(ctx, 'post', url, 'not-a-token', model), 403);
    const intent = await createIntent(ctx, world.companyMember, world.company.id);
    expectEnvelope(await sendModel(ctx, 'post', url, intent, model), 403);
  });

  it("accepts an API token of a supplier member, and an admin's JWT", async () => {
    const apiToken = await createApiToken(ctx, world.supplierMember);
    const viaApi = await uploadModel(ctx, world.supplier.id, apiToken, minimalModel(unique('API')));
    expect(viaApi.version_number).toBe(1);
    const viaAdmin = await uploadModel(
      ctx,
      world.supplier.id,
      world.admin.token,
      minimalModel(unique('ADMIN')),
    );
    expect(viaAdmin.supplier_id).toBe(world.supplier.id);
  });
});
