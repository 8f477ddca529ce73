import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyCleanupService } from '../../src/idempotency/idempotency-cleanup.service.js';
import { IdempotencyKeyEntity } from '../../src/idempotency/idempotency-key.entity.js';
import {
  ABANDONED_AFTER_MS,
  KEY_RETENTION_MS,
} from '../../src/idempotency/idempotency.repository.js';
import { bearer, expectEnvelope, problemsOf, unique } from '../support/factories.js';
import {
  createModelWorld,
  minimalModel,
  sendModel,
  uploadMinimalModel,
  type ModelWorld,
  type TestModel,
} from '../support/model.factories.js';
import { createIntent } from '../support/org.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

const answers = { size: { values: ['l'] } };

describe('Idempotency-Key (docs/api.md, "Retrying safely")', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let model: TestModel;

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
    model = await uploadMinimalModel(ctx, world);
  });
  afterAll(() => ctx?.close());

  const addLine = (token: string, key: string, body: Record<string, unknown>) =>
    ctx.http.post('/v1/carts').set(bearer(token)).set('Idempotency-Key', key).send(body);
  const lineBody = () => ({ model_id: model.id, company_id: world.company.id, questions: answers });
  const linesOfDefaultCart = async (token: string): Promise<number> => {
    const cart = await ctx.http.get('/v1/carts/default').set(bearer(token));
    const detail = await ctx.http.get(`/v1/carts/${cart.body.data.cart_id}`).set(bearer(token));
    return (detail.body.data.lines as unknown[]).length;
  };

  it('a retried POST /v1/carts replays the first answer and adds one line only', async () => {
    const key = unique('key');
    const first = await addLine(world.companyMember.token, key, lineBody());
    expectEnvelope(first, 201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await addLine(world.companyMember.token, key, lineBody());
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await linesOfDefaultCart(world.companyMember.token)).toBe(1);
  });

  it('the same key with another body is 422; another caller may use the same key', async () => {
    const key = unique('key');
    expectEnvelope(await addLine(world.companyMember.token, key, lineBody()), 201);
    const other = await addLine(world.companyMember.token, key, {
      ...lineBody(),
      questions: { size: { values: ['s'] } },
    });
    expectEnvelope(other, 422);
    expect(problemsOf(other.body)[0]).toMatchObject({ code: 'idempotency_key_reused' });
    // keys are per caller: the admin's first use of this key is a new request
    const admin = await addLine(world.admin.token, key, lineBody());
    expectEnvelope(admin, 201);
    expect(admin.headers['idempotent-replayed']).toBeUndefined();
  });

  it('key order in the JSON body does not matter; the path does', async () => {
    const key = unique('key');
    const body = lineBody();
    expectEnvelope(await addLine(world.companyMember.token, key, body), 201);
    const reordered = {
      questions: body.questions,
      company_id: body.company_id,
      model_id: body.model_id,
    };
    const retry = await addLine(world.companyMember.token, key, reordered);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    const elsewhere = await ctx.http
      .post('/v1/carts/preview')
      .set(bearer(world.companyMember.token))
      .set('Idempotency-Key', key)
      .send(body);
    // preview is not idempotent-keyed: the header is ignored there
    expect(elsewhere.status).toBe(200);
  });

  it('concurrent first uses on one instance: one line; the others 409 with Retry-After or replay', async () => {
    const key = unique('key');
    const token = world.companyMember.token;
    const lines = await linesOfDefaultCart(token);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => addLine(token, key, lineBody())),
    );
    const fresh = results.filter(
      (r) => r.status === 201 && r.headers['idempotent-replayed'] === undefined,
    );
    expect(fresh).toHaveLength(1);
    for (const r of results) {
      expect([201, 409]).toContain(r.status);
      if (r.status === 409) expect(r.headers['retry-after']).toBe('1');
      if (r.status === 201) expect(r.body.data.id).toBe(fresh[0].body.data.id);
    }
    expect(await linesOfDefaultCart(token)).toBe(lines + 1);
  });

  // Keys are only written complete now (docs/adr/0155); a row without an answer was
  // reserved by an instance of an older release.
  it('a key reserved without an answer holds: the retry is 409 with Retry-After, until abandoned', async () => {
    const key = unique('key');
    const token = world.companyMember.token;
    expectEnvelope(await addLine(token, key, lineBody()), 201);
    const lines = await linesOfDefaultCart(token);
    // As if an older instance were still running the first request.
    const keys = ctx.app.get(DataSource).getRepository(IdempotencyKeyEntity);
    await keys.update({ key }, { completedAt: null, responseBody: null, responseStatus: null });
    const retry = await addLine(token, key, lineBody());
    expectEnvelope(retry, 409);
    expect(retry.headers['retry-after']).toBe('1');
    expect(problemsOf(retry.body)[0]).toMatchObject({ code: 'idempotency_key_in_flight' });
    expect(await linesOfDefaultCart(token)).toBe(lines);
    // Its instance died with it: after ABANDONED_AFTER_MS a retry runs it again.
    await keys.update({ key }, { createdAt: new Date(Date.now() - ABANDONED_AFTER_MS - 1000) });
    const taken = await addLine(token, key, lineBody());
    expectEnvelope(taken, 201);
    expect(taken.headers['idempotent-replayed']).toBeUndefined();
    expect(await linesOfDefaultCart(token)).toBe(lines + 1);
  });

  it('keys expire after 24 h: the periodic cleanup deletes them, and an old key is new again', async () => {
    const key = unique('key');
    const token = world.companyMember.token;
    expectEnvelope(await addLine(token, key, lineBody()), 201);
    const keys = ctx.app.get(DataSource).getRepository(IdempotencyKeyEntity);
    await keys.update({ key }, { createdAt: new Date(Date.now() - KEY_RETENTION_MS - 1000) });
    const fresh = await addLine(token, key, {
      ...lineBody(),
      questions: { size: { values: ['s'] } },
    });
    expectEnvelope(fresh, 201);
    await keys.update({ key }, { createdAt: new Date(Date.now() - KEY_RETENTION_MS - 1000) });
    expect(await ctx.app.get(IdempotencyCleanupService).cleanUp()).toBeGreaterThanOrEqual(1);
    expect(await keys.countBy({ key })).toBe(0);
  });

  it('model uploads and new versions replay; a failed first request releases the key', async () => {
    const key = unique('key');
    const token = world.supplierMember.token;
    const url = `/v1/suppliers/${world.supplier.id}/models`;
    const invalid = await sendModel(
      ctx,
      'post',
      url,
      token,
      { general: {} },
      { 'Idempotency-Key': key },
    );
    expectEnvelope(invalid, 400);
    const body = minimalModel(unique('U'));
    const created = await sendModel(ctx, 'post', url, token, body, { 'Idempotency-Key': key });
    expectEnvelope(created, 201);
    const replay = await sendModel(ctx, 'post', url, token, body, { 'Idempotency-Key': key });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.data.id).toBe(created.body.data.id);

    const versionKey = unique('key');
    const put = (b: Record<string, unknown>) =>
      sendModel(ctx, 'put', `/v1/models/${created.body.data.id}`, token, b, {
        'Idempotency-Key': versionKey,
      });
    const v2 = await put(body);
    expectEnvelope(v2, 200);
    expect(v2.body.data.version_number).toBe(2);
    const again = await put(body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers.etag).toBe('"2"');
    expect(again.body.data.version_number).toBe(2);
    expectEnvelope(await put({ ...body, pricing: { base_price: '1.00' } }), 422);
  });

  it('POST /v1/carts/new with an intent token replays the same cart', async () => {
    const intent = await createIntent(ctx, world.companyMember, world.company.id);
    const key = unique('key');
    const send = () =>
      ctx.http
        .post('/v1/carts/new')
        .set(bearer(intent))
        .set('Idempotency-Key', key)
        .send({ reference: 'web' });
    const first = await send();
    expectEnvelope(first, 201);
    const second = await send();
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body.data.cart_id).toBe(first.body.data.cart_id);
  });

  it('refuses a key that is empty, too long or not printable', async () => {
    for (const key of ['', 'x'.repeat(256), 'tab\there']) {
      const res = await addLine(world.companyMember.token, key, lineBody());
      expectEnvelope(res, 400);
      expect(problemsOf(res.body)[0]).toMatchObject({ code: 'invalid_idempotency_key' });
    }
    const longest = await addLine(world.companyMember.token, '~'.repeat(255), lineBody());
    expect(longest.status).toBe(201);
  });
});

describe('Idempotency-Key across two instances on one database', () => {
  let one: TestContext;
  let two: TestContext;
  let world: ModelWorld;
  let model: TestModel;

  beforeAll(async () => {
    one = await createTestApp();
    two = await createTestApp({}, one.database);
    world = await createModelWorld(one);
    model = await uploadMinimalModel(one, world);
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  it('a retry on the other instance replays; concurrent first uses create one line', async () => {
    const body = { model_id: model.id, company_id: world.company.id, questions: answers };
    const post = (ctx: TestContext, key: string) =>
      ctx.http
        .post('/v1/carts')
        .set(bearer(world.companyMember.token))
        .set('Idempotency-Key', key)
        .send(body);
    const key = unique('key');
    const first = await post(one, key);
    expectEnvelope(first, 201);
    const retry = await post(two, key);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);

    const raced = unique('key');
    const results = await Promise.all([
      post(one, raced),
      post(two, raced),
      post(one, raced),
      post(two, raced),
    ]);
    const created = results.filter(
      (r) => r.status === 201 && r.headers['idempotent-replayed'] === undefined,
    );
    expect(created).toHaveLength(1);
    for (const r of results) expect([201, 409]).toContain(r.status);
    const cart = await one.http.get('/v1/carts/default').set(bearer(world.companyMember.token));
    const detail = await two.http
      .get(`/v1/carts/${cart.body.data.cart_id}`)
      .set(bearer(world.companyMember.token));
    expect(detail.body.data.lines).toHaveLength(2);
  });
});
