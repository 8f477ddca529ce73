import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectEnvelope } from '../support/factories.js';
import {
  createModelWorld,
  sendModel,
  uploadModel,
  windowV2,
  windowYaml,
  type ModelWorld,
  type TestModel,
} from '../support/model.factories.js';
import { createApiToken, createIntent } from '../support/org.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

const WINDOW_LINE = {
  width: { values: [1200] },
  height: { values: [1000] },
  frame: { values: ['alu'] },
  color: { values: ['white'] },
};

describe('model versions: history, one version, diff, retire', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let other: ModelWorld;
  let window: TestModel;
  let otherModel: TestModel;

  const get = (url: string, token: string) => ctx.http.get(url).set(bearer(token));

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
    other = await createModelWorld(ctx);
    const member = world.supplierMember.token;
    window = await uploadModel(ctx, world.supplier.id, member, windowYaml());
    const put = await sendModel(ctx, 'put', `/v1/models/${window.id}`, member, windowV2());
    expectEnvelope(put, 200);
    otherModel = await uploadModel(
      ctx,
      other.supplier.id,
      other.supplierMember.token,
      windowYaml(),
    );
  });
  afterAll(() => ctx?.close());

  it('lists the versions newest first, with who stored each and when, paged', async () => {
    const body = expectEnvelope(
      await get(`/v1/models/${window.id}/versions`, world.companyMember.token),
      200,
    );
    const versions = body.data as Array<Record<string, unknown>>;
    expect(versions.map((v) => v.version_number)).toEqual([2, 1]);
    expect(versions[0]).toEqual({
      model_id: window.id,
      version_number: 2,
      created_at: expect.stringMatching(/Z$/),
      created_by_id: world.supplierMember.id,
      source_format: 'yaml',
      current: true,
    });
    expect(versions[1].current).toBe(false);
    const paged = expectEnvelope(
      await get(`/v1/models/${window.id}/versions?per_page=1&page=2`, world.supplierMember.token),
      200,
    );
    expect((paged.data as Array<{ version_number: number }>)[0].version_number).toBe(1);
    expect((paged.links as Record<string, string>).prev).toContain('page=1');
  });

  it("answers one version's definition; an unknown version is 404", async () => {
    const v1 = expectEnvelope(
      await get(`/v1/models/${window.id}/versions/1`, world.companyMember.token),
      200,
    );
    const data = v1.data as { version_number: number; definition: any };
    expect(data.version_number).toBe(1);
    const frame = data.definition.questions.find((q: { key: string }) => q.key === 'frame');
    expect(frame.options.find((o: { key: string }) => o.key === 'alu').price).toBe('85.00');
    const v2 = expectEnvelope(
      await get(`/v1/models/${window.id}/versions/2`, world.companyMember.token),
      200,
    );
    const frame2 = (v2.data as any).definition.questions.find(
      (q: { key: string }) => q.key === 'frame',
    );
    expect(frame2.options.find((o: { key: string }) => o.key === 'alu').price).toBe('95.00');
    expectEnvelope(await get(`/v1/models/${window.id}/versions/3`, world.companyMember.token), 404);
    expectEnvelope(
      await get(`/v1/models/${window.id}/versions/0x1`, world.companyMember.token),
      404,
    );
  });

  it('diffs the window after a price change and a new option, each change with its path', async () => {
    const body = expectEnvelope(
      await get(`/v1/models/${window.id}/diff?from=1&to=2`, world.companyMember.token),
      200,
    );
    expect(body.data).toEqual({
      model_id: window.id,
      from: 1,
      to: 2,
      counts: { price: 1, option: 1, table_row: 1 },
      truncated: false,
      changes: [
        {
          change: 'changed',
          kind: 'price',
          path: 'questions.frame.options.alu.price',
          from: '85.00',
          to: '95.00',
        },
        {
          change: 'added',
          kind: 'option',
          path: 'questions.color.options.black',
          to: { key: 'black', label: 'Black', price: '50.00' },
        },
        {
          change: 'added',
          kind: 'table_row',
          path: 'rules.frame_colors.allowed.rows[6]',
          to: ['alu', 'black'],
        },
      ],
    });
    // Without from/to: the previous version against the current one.
    const byDefault = expectEnvelope(
      await get(`/v1/models/${window.id}/diff`, world.supplierMember.token),
      200,
    );
    expect(byDefault.data).toEqual(body.data);
    // The other way round: removals.
    const back = expectEnvelope(
      await get(`/v1/models/${window.id}/diff?from=2&to=1`, world.supplierMember.token),
      200,
    );
    expect((back.data as any).changes.map((c: any) => [c.change, c.path])).toEqual([
      ['changed', 'questions.frame.options.alu.price'],
      ['removed', 'questions.color.options.black'],
      ['removed', 'rules.frame_colors.allowed.rows[6]'],
    ]);
    const missing = expectEnvelope(
      await get(`/v1/models/${window.id}/diff?from=1&to=9`, world.supplierMember.token),
      404,
    );
    // The message says which of the two versions is missing.
    expect(missing.errors).toEqual([
      expect.objectContaining({ path: 'to', message: expect.stringContaining('version 9') }),
    ]);
    expectEnvelope(
      await get(`/v1/models/${window.id}/diff?from=abc`, world.supplierMember.token),
      400,
    );
  });

  it("keeps each tenant's history to itself, in both directions", async () => {
    for (const path of ['versions', 'versions/1', 'diff?from=1&to=1']) {
      expectEnvelope(await get(`/v1/models/${window.id}/${path}`, other.supplierMember.token), 404);
      expectEnvelope(await get(`/v1/models/${window.id}/${path}`, other.companyMember.token), 404);
      expectEnvelope(
        await get(`/v1/models/${otherModel.id}/${path}`, world.supplierMember.token),
        404,
      );
      expectEnvelope(
        await get(`/v1/models/${otherModel.id}/${path}`, world.companyMember.token),
        404,
      );
      expectEnvelope(await get(`/v1/models/${window.id}/${path}`, world.outsider.token), 404);
    }
    const retire = (id: number, token: string) =>
      ctx.http.post(`/v1/models/${id}/retire`).set(bearer(token));
    expectEnvelope(await retire(window.id, other.supplierMember.token), 404);
    expectEnvelope(await retire(otherModel.id, world.supplierMember.token), 404);
    // A buyer reads the model but may not retire it.
    expectEnvelope(await retire(window.id, world.companyMember.token), 403);
  });

  it('refuses intent tokens (a shop reads models through its company) and takes API tokens', async () => {
    const intent = await createIntent(ctx, world.companyMember, world.company.id);
    expectEnvelope(await get(`/v1/models/${window.id}/versions`, intent), 401);
    expectEnvelope(await get(`/v1/models/${window.id}/diff`, intent), 401);
    expectEnvelope(await ctx.http.post(`/v1/models/${window.id}/retire`).set(bearer(intent)), 401);
    const api = await createApiToken(ctx, world.supplierMember);
    expectEnvelope(await get(`/v1/models/${window.id}/versions/2`, api), 200);
  });

  it('retires a model: no new lines, stored lines readable, listed as retired; reinstated', async () => {
    const buyer = world.companyMember.token;
    const line = { model_id: window.id, company_id: world.company.id, questions: WINDOW_LINE };
    const added = expectEnvelope(
      await ctx.http.post('/v1/carts').set(bearer(buyer)).send(line),
      201,
    );
    const { cart_id: cartId } = added.data as { cart_id: string };

    const retired = expectEnvelope(
      await ctx.http.post(`/v1/models/${window.id}/retire`).set(bearer(world.supplierMember.token)),
      200,
    );
    const retiredAt = (retired.data as { retired_at: string }).retired_at;
    expect(retiredAt).toMatch(/Z$/);
    // Twice: the first date stays.
    const again = expectEnvelope(
      await ctx.http.post(`/v1/models/${window.id}/retire`).set(bearer(world.supplierMember.token)),
      200,
    );
    expect((again.data as { retired_at: string }).retired_at).toBe(retiredAt);

    const refused = expectEnvelope(
      await ctx.http.post('/v1/carts').set(bearer(buyer)).send(line),
      409,
    );
    expect((refused.errors as Array<{ code: string }>).map((p) => p.code)).toEqual([
      'model_retired',
    ]);
    const { cart_id: _ignored, ...preview } = { cart_id: '', ...line };
    expectEnvelope(await ctx.http.post('/v1/carts/preview').set(bearer(buyer)).send(preview), 409);

    const cart = expectEnvelope(await get(`/v1/carts/${cartId}`, buyer), 200);
    expect((cart.data as { lines: unknown[] }).lines).toHaveLength(1);

    const listed = expectEnvelope(
      await get(`/v1/companies/${world.company.id}/models`, buyer),
      200,
    );
    const entry = (listed.data as Array<{ id: number; retired_at: string | null }>).find(
      (m) => m.id === window.id,
    );
    expect(entry?.retired_at).toBe(retiredAt);
    const model = expectEnvelope(await get(`/v1/models/${window.id}`, buyer), 200);
    expect((model.data as { retired_at: string }).retired_at).toBe(retiredAt);

    const back = expectEnvelope(
      await ctx.http
        .delete(`/v1/models/${window.id}/retire`)
        .set(bearer(world.supplierMember.token)),
      200,
    );
    expect((back.data as { retired_at: null }).retired_at).toBeNull();
    expectEnvelope(await ctx.http.post('/v1/carts').set(bearer(buyer)).send(line), 201);
  });
});
