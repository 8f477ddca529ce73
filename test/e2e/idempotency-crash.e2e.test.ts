import type { EntityManager } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransactionRunner } from '../../src/database/transaction-runner.js';
import { bearer, expectEnvelope, unique } from '../support/factories.js';
import {
  createModelWorld,
  minimalModel,
  sendModel,
  uploadMinimalModel,
  type ModelWorld,
  type TestModel,
} from '../support/model.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/** Where the next transaction loses its database connection. */
type Fault = 'before_commit' | 'after_commit';

/** What pg says when the connection drops under a query (a 503, docs/api.md). */
const connectionLost = () => new Error('Connection terminated unexpectedly');

/**
 * docs/api.md "Retrying safely" against a crash: the connection is lost (the process as
 * good as killed) right before or right after the work's transaction commits. After the
 * commit the retry replays and nothing is stored twice; before it, nothing was stored and
 * the retry runs at once (no 409 for a reservation left behind).
 */
describe('Idempotency-Key across a crash at the commit', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let model: TestModel;
  let fault: Fault | null = null;

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
    model = await uploadMinimalModel(ctx, world);
    // The fault hook, in this test only: the next transaction fails once, at `fault`.
    const runner = ctx.app.get(TransactionRunner);
    const run = runner.run.bind(runner);
    runner.run = (<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> => {
      const now = fault;
      fault = null;
      if (now === 'before_commit')
        return run(async (manager) => {
          await work(manager);
          throw connectionLost();
        });
      if (now === 'after_commit')
        return run(work).then(() => {
          throw connectionLost();
        });
      return run(work);
    }) as typeof runner.run;
  });
  afterAll(() => ctx?.close());

  const token = () => world.companyMember.token;
  const cartBody = () => ({
    model_id: model.id,
    company_id: world.company.id,
    questions: { size: { values: ['l'] } },
  });
  const lineCount = async (cartId: string) =>
    (await ctx.http.get(`/v1/carts/${cartId}`).set(bearer(token()))).body.data.line_count as number;
  const cartCount = async () =>
    ((await ctx.http.get('/v1/carts?per_page=200').set(bearer(token()))).body.data as unknown[])
      .length;

  /** The first try fails at `at`; the retry's status and whether it was a replay. */
  const crashThenRetry = async <R extends { status: number }>(
    at: Fault,
    send: () => PromiseLike<R>,
  ): Promise<R> => {
    fault = at;
    const first = await send();
    expect(first.status).toBe(503);
    expect(fault).toBeNull();
    return send();
  };

  for (const at of ['after_commit', 'before_commit'] as const) {
    const replayed = at === 'after_commit';

    it(`POST /v1/carts: a crash ${at.replace('_', ' ')} leaves exactly one line`, async () => {
      const cart = await ctx.http
        .post('/v1/carts/new')
        .set(bearer(token()))
        .send({ reference: at });
      const cartId = cart.body.data.cart_id as string;
      const key = unique('key');
      const add = () =>
        ctx.http
          .post('/v1/carts')
          .set(bearer(token()))
          .set('Idempotency-Key', key)
          .send({ ...cartBody(), cart_id: cartId });
      const retry = await crashThenRetry(at, add);
      expectEnvelope(retry, 201);
      expect(retry.headers['idempotent-replayed']).toBe(replayed ? 'true' : undefined);
      expect(await lineCount(cartId)).toBe(1);
      expect((await add()).headers['idempotent-replayed']).toBe('true');
      expect(await lineCount(cartId)).toBe(1);
    });

    it(`POST /v1/carts/new: a crash ${at.replace('_', ' ')} leaves exactly one cart`, async () => {
      const before = await cartCount();
      const key = unique('key');
      const create = () =>
        ctx.http
          .post('/v1/carts/new')
          .set(bearer(token()))
          .set('Idempotency-Key', key)
          .send({ reference: `crash-${at}`, default: true });
      const retry = await crashThenRetry(at, create);
      expectEnvelope(retry, 201);
      expect(retry.headers['idempotent-replayed']).toBe(replayed ? 'true' : undefined);
      expect(await cartCount()).toBe(before + 1);
      const current = await ctx.http.get('/v1/carts/default').set(bearer(token()));
      expect(current.body.data.cart_id).toBe(retry.body.data.cart_id);
    });

    it(`model upload and PUT: a crash ${at.replace('_', ' ')} stores one model, one version`, async () => {
      const member = world.supplierMember.token;
      const url = `/v1/suppliers/${world.supplier.id}/models`;
      const body = minimalModel(unique('C'));
      const uploadKey = unique('key');
      const upload = () =>
        sendModel(ctx, 'post', url, member, body, { 'Idempotency-Key': uploadKey });
      const models = async () =>
        ((await ctx.http.get(`${url}?per_page=200`).set(bearer(member))).body.data as unknown[])
          .length;
      const before = await models();
      const created = await crashThenRetry(at, upload);
      expectEnvelope(created, 201);
      expect(created.headers['idempotent-replayed']).toBe(replayed ? 'true' : undefined);
      expect(await models()).toBe(before + 1);

      const id = created.body.data.id as number;
      const putKey = unique('key');
      const put = () =>
        sendModel(ctx, 'put', `/v1/models/${id}`, member, body, { 'Idempotency-Key': putKey });
      const v2 = await crashThenRetry(at, put);
      expectEnvelope(v2, 200);
      expect(v2.headers['idempotent-replayed']).toBe(replayed ? 'true' : undefined);
      expect(v2.headers.etag).toBe('"2"');
      const read = await ctx.http.get(`/v1/models/${id}`).set(bearer(member));
      expect(read.body.data.version_number).toBe(2);
    });
  }
});
