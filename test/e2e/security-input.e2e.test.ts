import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  errorPaths,
  expectEnvelope,
  loginAdmin,
  type TestUser,
} from '../support/factories.js';
import { LogCapture, logDuring, STACK_OR_ERROR } from '../support/log-capture.js';
import {
  createModelWorld,
  minimalModel,
  sendModel,
  uploadModel,
  type ModelWorld,
} from '../support/model.factories.js';
import { companyBody } from '../support/org.factories.js';
import { rowSnapshot } from '../support/row-snapshot.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/** docs/security.md, "Hostile input": path ids and text fields. */
describe('canonical path ids', () => {
  let ctx: TestContext;
  const logs = new LogCapture();
  let admin: TestUser;
  let world: ModelWorld;
  let modelId: number;

  beforeAll(async () => {
    ctx = await createTestApp({}, undefined, { logs });
    admin = await loginAdmin(ctx);
    world = await createModelWorld(ctx);
    modelId = (await uploadModel(ctx, world.supplier.id, admin.token, minimalModel('ids'))).id;
  });
  afterAll(() => ctx?.close());

  it('answers 404 for every other spelling of an existing id', async () => {
    const id = modelId;
    expectEnvelope(await ctx.http.get(`/v1/models/${id}`).set(bearer(admin.token)), 200);
    const log = await logDuring(logs, async () => {
      for (const spelling of [
        `0x${id.toString(16)}`,
        `${id}.0`,
        `%20${id}`,
        `${id}%20`,
        `+${id}`,
        `%2B${id}`,
        `0${id}`,
        `${id}e0`,
        `-${id}`,
        '0',
      ]) {
        expectEnvelope(await ctx.http.get(`/v1/models/${spelling}`).set(bearer(admin.token)), 404);
        expectEnvelope(
          await ctx.http.get(`/v1/companies/${spelling}`).set(bearer(admin.token)),
          404,
        );
      }
    });
    expect(log.text).not.toMatch(STACK_OR_ERROR);
    expect(log.errors).toEqual([]);
  });
});

describe('text fields refuse NUL, control characters and unpaired surrogates', () => {
  let ctx: TestContext;
  const logs = new LogCapture();
  let admin: TestUser;
  let world: ModelWorld;

  beforeAll(async () => {
    ctx = await createTestApp({}, undefined, { logs });
    admin = await loginAdmin(ctx);
    world = await createModelWorld(ctx);
  });
  afterAll(() => ctx?.close());

  const BAD = {
    nul: 'a\u0000b',
    bell: 'a\u0007b',
    escape: 'a\u001bb',
    c1: 'a\u0085b',
    loneHigh: 'a\ud800b',
    loneLow: 'a\udc00b',
  };

  it('answers 400 naming the field in JSON bodies, on both databases, changing no row', async () => {
    const before = await rowSnapshot(ctx);
    const log = await logDuring(logs, async () => {
      for (const [kind, text] of Object.entries(BAD)) {
        const token = await ctx.http
          .post('/v1/tokens')
          .set(bearer(admin.token))
          .send({ name: text });
        expect(errorPaths(expectEnvelope(token, 400)), kind).toContain('name');
        const company = await ctx.http
          .post('/v1/companies')
          .set(bearer(admin.token))
          .send(companyBody({ name: text }));
        // POST /v1/companies answers an invalid body with 401 (seed contract).
        expect(errorPaths(expectEnvelope(company, 401)), kind).toContain('name');
        const cart = await ctx.http
          .post('/v1/carts/new')
          .set(bearer(admin.token))
          .send({ reference: text });
        expect(errorPaths(expectEnvelope(cart, 401)), kind).toContain('reference');
        const nested = await ctx.http
          .post('/v1/carts')
          .set(bearer(admin.token))
          .send({ company_id: world.company.id, model_id: 1, answers: { label: text } });
        expect(errorPaths(expectEnvelope(nested, 401)), kind).toContain('answers.label');
      }
    });
    expect(log.text).not.toMatch(STACK_OR_ERROR);
    expect(log.errors).toEqual([]);
    expect(await rowSnapshot(ctx)).toEqual(before);
  });

  it('keeps tab and newline, and paired surrogates', async () => {
    const res = await ctx.http
      .post('/v1/carts/new')
      .set(bearer(admin.token))
      .send({ reference: 'two\tparts \ud83d\ude00' });
    expect((expectEnvelope(res, 201).data as { reference: string }).reference).toBe(
      'two\tparts \ud83d\ude00',
    );
  });

  it('refuses them in model documents, with the path in the document', async () => {
    const before = await rowSnapshot(ctx);
    for (const [kind, text] of Object.entries(BAD)) {
      const model = minimalModel(`bad-${kind}`);
      (model.general as Record<string, unknown>).name = text;
      const res = await sendModel(
        ctx,
        'post',
        `/v1/suppliers/${world.supplier.id}/models`,
        world.supplierMember.token,
        model,
      );
      expect(errorPaths(expectEnvelope(res, 400)), kind).toContain('general.name');
    }
    const yaml = await sendModel(
      ctx,
      'post',
      `/v1/suppliers/${world.supplier.id}/models`,
      world.supplierMember.token,
      'general:\n  name: "bad\\0name"\n  code: yaml-nul\nquestions: []\n',
    );
    expect(errorPaths(expectEnvelope(yaml, 400))).toContain('general.name');
    expect(await rowSnapshot(ctx)).toEqual(before);
  });
});
