import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, errorPaths, expectEnvelope } from '../support/factories.js';
import {
  DOOR_DIR,
  createCompanyMember,
  createModelWorld,
  minimalModel,
  uploadModel,
  zipFolder,
  windowYaml,
  type ModelWorld,
  type TestModel,
} from '../support/model.factories.js';
import { createCompany, createIntent } from '../support/org.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/**
 * window.yaml, 1200 × 1000 mm, PVC (default), white, double glazing (default), no extras:
 *   area 1.2 m², perimeter 4.4 m, not large.
 *   options: pvc 0 + white 0 + double 0                       =   0.00
 *   BOM: PVC profile 4.4 × 12.50 = 55.00; double glass 1.2 × 38.00 = 45.60;
 *        hardware kit 0 + handle 1 × 18.00 + hinges 2 × 6.50 = 31.00  → 131.60
 *   subtotal 150.00 + 0.00 + 131.60                            = 281.60
 *   trade discount −10 % of 281.60                             = −28.16
 *   total                                                      = 253.44
 */
const WINDOW_ANSWERS = {
  width: { values: [1200] },
  height: { values: [1000] },
  color: { values: ['white'] },
};

describe('cart lines: POST /v1/carts and /v1/carts/preview', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let windowModel: TestModel;

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
    windowModel = await uploadModel(
      ctx,
      world.supplier.id,
      world.supplierMember.token,
      windowYaml(),
    );
  });
  afterAll(() => ctx?.close());

  const addLine = (token: string, body: Record<string, unknown>) =>
    ctx.http.post('/v1/carts').set(bearer(token)).send(body);
  /** A line of the window for the world's company, answered with WINDOW_ANSWERS. */
  const windowLine = (extra: Record<string, unknown> = {}) => ({
    model_id: windowModel.id,
    company_id: world.company.id,
    questions: WINDOW_ANSWERS,
    ...extra,
  });

  it('adds a valid configuration to the default cart (created on the fly), priced to the cent', async () => {
    const user = world.companyMember;
    const res = await addLine(user.token, windowLine());
    const body = expectEnvelope(res, 201);
    expect(body.message).toBe('Configuration added to the cart');
    const line = body.data as Record<string, any>;
    expect(line).toEqual(
      expect.objectContaining({
        id: expect.any(Number),
        version_number: 1,
        cart_id: expect.any(String),
      }),
    );
    for (const member of [
      'general',
      'imports',
      'questions',
      'variables',
      'rules',
      'triggers',
      'bom_items',
      'pricing',
      'translation',
      'images',
      'cache',
    ]) {
      expect(line).toHaveProperty(member);
    }
    expect(line.general).toEqual(
      expect.objectContaining({ name: 'Casement window', model_id: windowModel.id }),
    );
    expect(line.pricing).toEqual(
      expect.objectContaining({
        currency: 'EUR',
        base_price: '150.00',
        options_total: '0.00',
        bom_total: '131.60',
        subtotal: '281.60',
        total: '253.44',
      }),
    );
    expect(line.pricing.adjustments).toEqual([
      expect.objectContaining({ key: 'trade_discount', amount: '-28.16' }),
    ]);

    const cart = expectEnvelope(
      await ctx.http.get(`/v1/carts/${line.cart_id}`).set(bearer(user.token)),
      200,
    );
    const data = cart.data as Record<string, any>;
    expect(data.default).toBe(true);
    expect(data.reference).toBe('default');
    expect(data.total).toBe('253.44');
    expect(data.lines).toHaveLength(1);
    expect(data.lines[0]).toEqual(
      expect.objectContaining({ id: line.id, model_id: windowModel.id }),
    );
  });

  it('refuses an invalid configuration with 401 and every problem, storing nothing', async () => {
    const user = await createCompanyMember(ctx, world);
    const res = await addLine(user.token, {
      model_id: windowModel.id,
      company_id: world.company.id,
      questions: { width: { values: [1205] }, color: { values: ['oak'] }, nope: { values: [1] } },
    });
    const paths = errorPaths(expectEnvelope(res, 401));
    expect(paths).toEqual(
      expect.arrayContaining(['questions.width.values[0]', 'questions.height', 'questions.nope']),
    );
    // Issue #6: oak has no completion with the default frame pvc, so the default is
    // suppressed (soft) and the required frame is missing (was: oak unavailable).
    expect(paths).toContain('questions.frame');
    expectEnvelope(await ctx.http.get('/v1/carts').set(bearer(user.token)), 400);
  });

  it('answers 401 for an invalid body and 403 without a credential', async () => {
    const user = world.companyMember;
    const bad = await addLine(user.token, { model_id: 'x', questions: [] });
    const paths = errorPaths(expectEnvelope(bad, 401));
    expect(paths).toEqual(expect.arrayContaining(['model_id', 'company_id', 'questions']));
    expectEnvelope(await ctx.http.post('/v1/carts').send({}), 403);
  });

  it('answers 403 when the company or the model is not accessible', async () => {
    const user = world.companyMember;
    const otherOwner = await createUser(ctx, world.admin);
    const foreignCompany = await createCompany(ctx, otherOwner);
    const ownUnlinked = await createCompany(ctx, user);
    const cases = [
      { model_id: windowModel.id, company_id: foreignCompany.id }, // not the caller's company
      { model_id: windowModel.id, company_id: ownUnlinked.id }, // supplier not linked to it
      { model_id: 999_999, company_id: world.company.id }, // no such model
    ];
    for (const target of cases) {
      expectEnvelope(await addLine(user.token, { ...target, questions: WINDOW_ANSWERS }), 403);
    }
  });

  it('puts the line in a named cart and refuses another user’s cart', async () => {
    const user = world.companyMember;
    const created = await ctx.http
      .post('/v1/carts/new')
      .set(bearer(user.token))
      .send({ reference: 'job 42' });
    const cartId = created.body.data.cart_id as string;
    const res = await addLine(user.token, windowLine({ cart_id: cartId }));
    expect(expectEnvelope(res, 201).data).toEqual(expect.objectContaining({ cart_id: cartId }));

    const stranger = await createCompanyMember(ctx, world);
    const refused = await addLine(stranger.token, windowLine({ cart_id: cartId }));
    expectEnvelope(refused, 404);
  });

  it('accepts an intent token for its company, with translated labels', async () => {
    const intent = await createIntent(ctx, world.companyMember, world.company.id);
    const body = windowLine({ language_code: 'nl' });
    // The user's default cart was made with a JWT (no company): the intent may not use
    // it, so its line goes to the user's cart for this company (made on first use).
    const first = expectEnvelope(await addLine(intent, body), 201).data as Record<string, any>;
    const own = await ctx.http.get(`/v1/carts/${first.cart_id}`).set(bearer(intent));
    expect(expectEnvelope(own, 200).data).toMatchObject({ company_id: world.company.id });
    // A cart the shop makes the default takes the next lines.
    const cart = await ctx.http
      .post('/v1/carts/new')
      .set(bearer(intent))
      .send({ reference: 'shop', default: true });
    expect(cart.status).toBe(201);
    const line = expectEnvelope(await addLine(intent, body), 201).data as Record<string, any>;
    expect(line.cart_id).toBe(cart.body.data.cart_id);
    expect(line.general.name).toBe('Draairaam');
    expect(line.translation.language).toBe('nl');
    expect(line.translation.missing).toContain('questions.glazing.label');
    expect(line.questions.find((q: { key: string }) => q.key === 'width').label).toBe('Breedte');
  });

  it('previews without storing: 200 with valid, errors and warnings', async () => {
    const user = await createCompanyMember(ctx, world);
    const preview = (questions: Record<string, unknown>) =>
      ctx.http
        .post('/v1/carts/preview')
        .set(bearer(user.token))
        .send({ model_id: windowModel.id, company_id: world.company.id, questions });

    const good = expectEnvelope(await preview(WINDOW_ANSWERS), 200).data as Record<string, any>;
    expect(good).toEqual(expect.objectContaining({ id: null, valid: true, errors: [] }));
    expect(good.pricing.total).toBe('253.44');

    const bad = expectEnvelope(await preview({ width: { values: [1200] } }), 200).data as Record<
      string,
      any
    >;
    expect(bad.valid).toBe(false);
    expect(bad.errors.map((e: { path?: string }) => e.path)).toEqual(
      expect.arrayContaining(['questions.height', 'questions.color']),
    );
    expectEnvelope(await ctx.http.get('/v1/carts').set(bearer(user.token)), 400);
    expectEnvelope(
      await ctx.http.post('/v1/carts/preview').set(bearer(user.token)).send({ model_id: 1 }),
      400,
    );
    expectEnvelope(await ctx.http.post('/v1/carts/preview').send({}), 401);
  });

  it('evaluates against the version current at the time, and records it', async () => {
    const model = await uploadModel(
      ctx,
      world.supplier.id,
      world.supplierMember.token,
      minimalModel('VERS'),
    );
    const answers = { size: { values: ['l'] } };
    const first = await addLine(world.companyMember.token, {
      model_id: model.id,
      company_id: world.company.id,
      questions: answers,
    });
    expect(expectEnvelope(first, 201).data).toEqual(expect.objectContaining({ version_number: 1 }));
    const v2 = { ...minimalModel('VERS'), pricing: { base_price: '200.00' } };
    const put = await ctx.http
      .put(`/v1/models/${model.id}`)
      .set(bearer(world.supplierMember.token))
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(v2));
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const second = await addLine(world.companyMember.token, {
      model_id: model.id,
      company_id: world.company.id,
      questions: answers,
    });
    const line = expectEnvelope(second, 201).data as Record<string, any>;
    expect(line.version_number).toBe(2);
    expect(line.pricing.total).toBe('210.00');
  });

  it('links images that the line’s users can load, an intent token too', async () => {
    const door = await uploadModel(
      ctx,
      world.supplier.id,
      world.supplierMember.token,
      await zipFolder(DOOR_DIR),
    );
    const intent = await createIntent(ctx, world.companyMember, world.company.id);
    const res = await ctx.http
      .post('/v1/carts/preview')
      .set(bearer(intent))
      .send({
        model_id: door.id,
        company_id: world.company.id,
        questions: { leaf_width: { values: [900] } },
      });
    const line = expectEnvelope(res, 200).data as Record<string, any>;
    expect(line.valid).toBe(true);
    expect(line.images.map((image: { key: string }) => image.key)).toEqual(['door']);
    const signed = line.images[0].url as string;
    expect(signed).toMatch(
      new RegExp(
        `^/v1/assets/${world.company.id}/${door.id}/1/images/door\\.svg\\?expires=\\d+&signature=[\\w-]{43}$`,
      ),
    );
    // Signed: it loads without Authorization, as an <img src> would.
    const bySignature = await ctx.http.get(signed).buffer(true);
    expect(bySignature.status).toBe(200);
    expect(bySignature.body.toString()).toContain('<svg');
    expect(bySignature.headers['content-security-policy']).toContain('sandbox');

    // The company's asset route serves the same file to a credential of the company.
    const url = `/v1/companies/${world.company.id}/models/${door.id}/assets/images/door.svg?version=1`;
    const image = await ctx.http.get(url).set(bearer(intent)).buffer(true);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toContain('image/svg+xml');
    expect(image.headers['content-security-policy']).toContain('sandbox');
    expect(image.body.toString()).toContain('<svg');

    // Someone whose company does not buy from the supplier cannot load it.
    const outsiderCompany = await createCompany(ctx, world.outsider);
    const foreign = url.replace(
      `/companies/${world.company.id}/`,
      `/companies/${outsiderCompany.id}/`,
    );
    expectEnvelope(await ctx.http.get(foreign).set(bearer(world.outsider.token)), 404);
    expectEnvelope(await ctx.http.get(url).set(bearer(world.outsider.token)), 404);
    expectEnvelope(await ctx.http.get(url), 401);
  });
});
