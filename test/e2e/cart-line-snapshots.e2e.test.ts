import { deflateSync } from 'node:zlib';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CartLineEntity } from '../../src/carts/cart-line.entity.js';
import { bearer, expectEnvelope, unique } from '../support/factories.js';
import {
  createModelWorld,
  minimalModel,
  uploadModel,
  type ModelWorld,
  type TestModel,
} from '../support/model.factories.js';
import { addCompanyMember, createCompany, createIntent } from '../support/org.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

type Line = Record<string, any>;

describe('cart lines stored as snapshots; idempotent replays re-check access', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let model: TestModel;
  /** A second instance on the same database (closed last: closing it closes SQLite's file). */
  let other: TestContext | undefined;

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
    model = await uploadModel(
      ctx,
      world.supplier.id,
      world.supplierMember.token,
      minimalModel(unique('S')),
    );
  });

  afterAll(async () => {
    await other?.close();
    await ctx?.close();
  });

  const body = (companyId = world.company.id) => ({
    model_id: model.id,
    company_id: companyId,
    questions: { size: { values: ['l'] } },
  });
  const add = (token: string, key?: string, companyId?: number) => {
    const request = ctx.http.post('/v1/carts').set(bearer(token));
    if (key !== undefined) request.set('Idempotency-Key', key);
    return request.send(body(companyId));
  };
  const sql = (dataSource: DataSource, text: string) =>
    dataSource.options.type === 'postgres' ? text : text.replace(/\$\d+/g, '?');

  it('serves a stored line as added, even once the engine and the stored model changed', async () => {
    const added = expectEnvelope(await add(world.companyMember.token), 201).data as Line;
    const dataSource = ctx.app.get(DataSource);
    // What another engine would make of the version: another price, a stale compiled form.
    const changed = minimalModel('CHANGED');
    (changed.pricing as Record<string, string>).base_price = '999.00';
    await dataSource.query(
      sql(
        dataSource,
        'UPDATE "model_versions" SET "definition_deflated" = $1, "consistency_engine" = $2 ' +
          'WHERE "model_id" = $3',
      ),
      [deflateSync(JSON.stringify(changed)), '0.0.0', model.id],
    );
    // Another instance: no worker there holds the version.
    other = await createTestApp({}, ctx.database);
    {
      const res = await other.http
        .get(`/v1/carts/${added.cart_id}`)
        .set(bearer(world.companyMember.token));
      const line = (expectEnvelope(res, 200).data as Line).lines.find(
        (l: Line) => l.id === added.id,
      ) as Line;
      expect(line.pricing).toEqual(added.pricing);
      expect(line.pricing.total).toBe('110.00');
      expect(line.questions).toEqual(added.questions);
      expect(line.cache).toEqual(added.cache);
      expect(line.version_number).toBe(1);
      const row = await dataSource.getRepository(CartLineEntity).findOneByOrFail({ id: added.id });
      expect(row.engineVersion).toBe(added.cache.engine_version);
      expect(row.valid).toBe(true);
      expect(row.line).toEqual({});
    }
  });

  it('refuses a replay to a member removed since the key was used, as a fresh request', async () => {
    const key = unique('key');
    const user = world.companyMember;
    const first = await add(user.token, key);
    expectEnvelope(first, 201);
    const replay = await add(user.token, key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);

    const leave = await ctx.http
      .delete(`/v1/companies/${world.company.id}/members/${user.id}`)
      .set(bearer(world.admin.token));
    expect(leave.status, JSON.stringify(leave.body)).toBe(200);
    const fresh = await add(user.token);
    const refused = await add(user.token, key);
    expect(fresh.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBe(fresh.status);
    expect(refused.headers['idempotent-replayed']).toBeUndefined();
    expect(refused.body.data).toBeNull();
  });

  it('refuses a replay through an intent token of another company, as a fresh request', async () => {
    const user = await createModelWorld(ctx).then((w) => w.companyMember);
    await addCompanyMember(ctx, world.admin, world.company.id, user.id);
    const other = await createCompany(ctx, user);
    const key = unique('key');
    expectEnvelope(await add(user.token, key), 201);
    const intent = await createIntent(ctx, user, other.id);
    const fresh = await add(intent);
    const refused = await add(intent, key);
    expect(fresh.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBe(fresh.status);
    expect(refused.headers['idempotent-replayed']).toBeUndefined();
  });

  it('keeps a reference in the idempotency row, not the answer', async () => {
    const key = unique('key');
    const user = await createModelWorld(ctx).then((w) => w.companyMember);
    await addCompanyMember(ctx, world.admin, world.company.id, user.id);
    const added = expectEnvelope(await add(user.token, key), 201).data as Line;
    const dataSource = ctx.app.get(DataSource);
    const [row] = await dataSource.query(
      sql(dataSource, 'SELECT "response_body" AS "body" FROM "idempotency_keys" WHERE "key" = $1'),
      [key],
    );
    const stored = JSON.parse(row.body);
    expect(stored.reference).toEqual(
      expect.objectContaining({ kind: 'cart_line', line_id: added.id, cart_id: added.cart_id }),
    );
    expect(stored).not.toHaveProperty('data');
    expect(row.body.length).toBeLessThan(1000);
  });
});
