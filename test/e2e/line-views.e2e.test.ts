import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CartLineEntity } from '../../src/carts/cart-line.entity.js';
import { bearer, expectEnvelope } from '../support/factories.js';
import {
  createModelWorld,
  uploadModel,
  windowYaml,
  type ModelWorld,
  type TestModel,
} from '../support/model.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/**
 * `?view=compact` (docs/model-format.md "The cart line") on POST /v1/carts, POST
 * /v1/carts/preview and GET /v1/carts/{cart_id}. Every answer is also checked against
 * openapi.json by the test app (the compact schemas included).
 *
 * window.yaml, 1600 × 1500 mm, wood, oak, an insect screen: area 2.4 m² is large, so the
 * trigger sets triple glazing; oak rules out PVC and aluminium (frame_colors), wood rules
 * out anthracite (frame_colors) and the security lock (its available_if); every rule
 * passes or is skipped; the hardware kit has two children without children.
 */
const WOOD = {
  width: { values: [1600] },
  height: { values: [1500] },
  frame: { values: ['wood'] },
  color: { values: ['oak'] },
  extras: { values: ['screen'] },
};
const COMPACT_QUESTION_MEMBERS = [
  'key',
  'values',
  'source',
  'visible',
  'required',
  'discarded',
  'suppressed',
  'options',
  'unavailable_values',
  // Guided configuration: admissible ranges and price bounds.
  'allowed',
  'option_prices',
  'value_prices',
];

type Line = Record<string, any>;

describe('cart line views: ?view=compact', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let window: TestModel;

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
    window = await uploadModel(ctx, world.supplier.id, world.supplierMember.token, windowYaml());
  });
  afterAll(() => ctx?.close());

  const body = (questions: Record<string, unknown> = WOOD) => ({
    model_id: window.id,
    company_id: world.company.id,
    questions,
  });
  const preview = (query: string, questions?: Record<string, unknown>) =>
    ctx.http
      .post(`/v1/carts/preview${query}`)
      .set(bearer(world.companyMember.token))
      .send(body(questions));

  /** Everything but the evaluation time, which differs from one evaluation to the next. */
  const withoutTiming = (line: Line) => ({ ...line, cache: { ...line.cache, evaluated_in_ms: 0 } });

  it('previews without what the model says: answers, unavailable options, fired triggers', async () => {
    const full = expectEnvelope(await preview(''), 200).data as Line;
    const compact = expectEnvelope(await preview('?view=compact'), 200).data as Line;
    expect(full.valid).toBe(true);

    for (const question of compact.questions as Line[]) {
      for (const member of Object.keys(question))
        expect(COMPACT_QUESTION_MEMBERS).toContain(member);
    }
    const byKey = Object.fromEntries((compact.questions as Line[]).map((q) => [q.key, q]));
    // Price bounds of available options, when the line has them (guided-preview.e2e.test.ts).
    const { option_prices: _framePrices, ...frame } = byKey.frame;
    expect(frame).toEqual({
      key: 'frame',
      values: ['wood'],
      source: 'user',
      visible: true,
      required: true,
      options: [
        {
          key: 'pvc',
          available: false,
          unavailable_because: ['frame_colors'],
          conflicts_with: ['color'],
        },
        {
          key: 'alu',
          available: false,
          unavailable_because: ['frame_colors'],
          conflicts_with: ['color'],
        },
      ],
    });
    expect(byKey.color.options).toEqual([
      {
        key: 'anthracite',
        available: false,
        unavailable_because: ['frame_colors'],
        conflicts_with: ['frame'],
      },
    ]);
    expect(byKey.glazing).toEqual(
      expect.objectContaining({ values: ['triple'], source: 'trigger', options: [] }),
    );
    expect(byKey.extras.options).toEqual([
      expect.objectContaining({ key: 'lock', unavailable_because: ['lock'] }),
    ]);
    // A finite integer: its unavailable values, as in the full view.
    // Its admissible ranges too (guided-preview.e2e.test.ts).
    const { allowed: _widthAllowed, ...width } = byKey.width;
    expect(width).toEqual({
      key: 'width',
      values: [1600],
      source: 'user',
      visible: true,
      required: true,
      unavailable_values: [],
    });
    expect(byKey.engraving).toEqual(expect.objectContaining({ visible: true, values: [] }));

    // Every rule passed or was skipped; the one trigger fired.
    expect((full.rules as Line[]).map((rule) => rule.status)).not.toContain('failed');
    expect(compact.rules).toEqual([]);
    expect(compact.triggers).toEqual(full.triggers);
    expect(compact.triggers).toEqual([expect.objectContaining({ key: 'triple_for_large' })]);

    // The BOM as in the full view, without empty children.
    const kit = (compact.bom_items as Line[]).find((item) => item.key === 'hardware_kit')!;
    expect(kit.children.map((child: Line) => child.key)).toEqual(['handle', 'hinges']);
    for (const child of kit.children) expect(child).not.toHaveProperty('children');
    const glass = (compact.bom_items as Line[]).find((item) => item.key === 'glass_triple')!;
    expect(glass).not.toHaveProperty('children');
    const { children: _, ...fullGlass } = (full.bom_items as Line[]).find(
      (item) => item.key === 'glass_triple',
    )!;
    expect(glass).toEqual(fullGlass);

    // Each line says its view; the rest of the line is the full view's.
    expect([full.view, compact.view]).toEqual(['full', 'compact']);
    const rest = (line: Line) => {
      const { questions: _q, rules: _r, triggers: _t, bom_items: _b, view: _v, ...others } = line;
      return withoutTiming(others);
    };
    expect(rest(compact)).toEqual(rest(full));
    expect(compact.consistency).toEqual(full.consistency);
    expect(JSON.stringify(compact).length).toBeLessThan(JSON.stringify(full).length);
    expect(full.triggers).toEqual([
      expect.objectContaining({ fired: true, set: { glazing: 'triple' } }),
    ]);
  });

  it('keeps failed rules with their messages, and the errors', async () => {
    const res = await preview('?view=compact', {
      width: { values: [2000] },
      height: { values: [1000] },
      frame: { values: ['pvc'] },
      color: { values: ['white'] },
    });
    const compact = expectEnvelope(res, 200).data as Line;
    expect(compact.valid).toBe(false);
    expect(compact.rules).toEqual([
      {
        key: 'max_pvc_width',
        status: 'failed',
        severity: 'error',
        message: 'PVC frames are at most 1800 mm wide',
      },
    ]);
    // The width and the frame conflict through that rule: on each answer, a problem names
    // both answers and the rule (its message included), not a rule_failed besides (#32).
    const conflict = {
      code: 'conflict',
      message: expect.stringContaining('PVC frames are at most 1800 mm wide'),
      answers: [
        { question: 'width', values: [2000] },
        { question: 'frame', values: ['pvc'] },
      ],
      rules: ['max_pvc_width'],
    };
    expect(compact.errors).toEqual([
      expect.objectContaining({ ...conflict, path: 'questions.width' }),
      expect.objectContaining({ ...conflict, path: 'questions.frame' }),
    ]);
    expect(compact.triggers).toEqual([]);
  });

  it('adds a line with ?view=compact, and reads the cart in either view', async () => {
    const user = world.companyMember;
    const added = await ctx.http
      .post('/v1/carts?view=compact')
      .set(bearer(user.token))
      .send(body());
    const line = expectEnvelope(added, 201).data as Line;
    expect(line.id).toEqual(expect.any(Number));
    expect(line.view).toBe('compact');
    expect(line.questions[0]).not.toHaveProperty('label');
    expect(line.rules).toEqual([]);

    const cartUrl = `/v1/carts/${line.cart_id}`;
    const full = expectEnvelope(await ctx.http.get(cartUrl).set(bearer(user.token)), 200)
      .data as Line;
    const compact = await ctx.http.get(`${cartUrl}?view=compact`).set(bearer(user.token));
    const cart = expectEnvelope(compact, 200).data as Line;
    expect(cart.total).toBe(full.total);
    expect(cart.lines).toHaveLength(full.lines.length);
    const stored = (cart.lines as Line[]).find((one) => one.id === line.id)!;
    for (const member of ['questions', 'rules', 'triggers', 'bom_items', 'pricing', 'general'])
      expect(stored[member]).toEqual(line[member]);
    expect(stored.answers).toEqual(WOOD);
    expect(stored.view).toBe('compact');
    expect((full.lines as Line[]).map((one) => one.view)).toEqual(full.lines.map(() => 'full'));
    expect((full.lines as Line[]).find((one) => one.id === line.id)!.questions[0]).toHaveProperty(
      'label',
    );
    // The page links keep the view.
    expect(compact.body.links.self).toContain('view=compact');
  });

  it('serves a line stored whole (rows from before compact storage) in either view', async () => {
    const user = world.companyMember;
    const added = expectEnvelope(
      await ctx.http.post('/v1/carts').set(bearer(user.token)).send(body()),
      201,
    ).data as Line;
    const {
      id,
      cart_id,
      model_id: _model,
      company_id: _company,
      warnings: _w,
      ...evaluated
    } = added;
    // What such a row holds: the evaluated line itself, here with a mark of its own.
    const storedWhole = { ...evaluated, cache: { ...evaluated.cache, evaluated_in_ms: 123.5 } };
    await ctx.app.get(DataSource).getRepository(CartLineEntity).update(id, {
      line: storedWhole,
      snapshot: null,
      compactSnapshot: null,
      engineVersion: null,
    });

    const read = async (query: string) => {
      const res = await ctx.http.get(`/v1/carts/${cart_id}${query}`).set(bearer(user.token));
      return ((expectEnvelope(res, 200).data as Line).lines as Line[]).find((l) => l.id === id)!;
    };
    const full = await read('');
    expect(full.cache.evaluated_in_ms).toBe(123.5);
    expect(full.questions).toEqual(evaluated.questions);
    const compact = await read('?view=compact');
    expect(compact.cache.evaluated_in_ms).toBe(123.5);
    const fresh = expectEnvelope(await preview('?view=compact'), 200).data as Line;
    for (const member of ['questions', 'rules', 'triggers', 'bom_items'])
      expect(compact[member]).toEqual(fresh[member]);
  });

  it('refuses any other view with 400, POST /v1/carts too (not its 401 for a bad body)', async () => {
    const token = world.companyMember.token;
    const cart = expectEnvelope(
      await ctx.http.post('/v1/carts').set(bearer(token)).send(body()),
      201,
    ).data as Line;
    const answers = [
      await preview('?view=short'),
      await preview('?view=compact&view=full'),
      await ctx.http.post('/v1/carts?view=').set(bearer(token)).send(body()),
      await ctx.http.get(`/v1/carts/${cart.cart_id}?view=COMPACT`).set(bearer(token)),
    ];
    for (const res of answers) {
      const envelope = expectEnvelope(res, 400);
      expect(envelope.errors).toEqual([expect.objectContaining({ code: 'is_in', path: 'view' })]);
    }
    // view=full is the default, spelled out.
    const full = await preview('?view=full');
    expect((expectEnvelope(full, 200).data as Line).questions[0]).toHaveProperty('label');
  });
});
