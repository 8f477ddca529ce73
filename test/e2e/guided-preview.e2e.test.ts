import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectEnvelope } from '../support/factories.js';
import { answers, deskModel } from '../support/guided.factories.js';
import { createModelWorld, uploadModel, type ModelWorld } from '../support/model.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

type Line = Record<string, any>;

/** Guided configuration through POST /v1/carts/preview: resolve, complete, bounds, ranges. */
describe('POST /v1/carts/preview: guided configuration', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let deskId: number;

  const preview = (body: Record<string, unknown>, view = '') =>
    ctx.http
      .post(`/v1/carts/preview${view}`)
      .set(bearer(world.companyMember.token))
      .send({ model_id: deskId, company_id: world.company.id, ...body });
  const question = (line: Line, key: string) =>
    (line.questions as Line[]).find((q) => q.key === key)!;

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
    const desk = await uploadModel(ctx, world.supplier.id, world.supplierMember.token, deskModel());
    deskId = desk.id;
  });
  afterAll(() => ctx?.close());

  it('picks an unavailable option and changes the fewest other answers (resolve: {question, value})', async () => {
    const line = expectEnvelope(
      await preview({
        questions: answers({ size: 's', top: 'oak' }),
        resolve: { question: 'top', value: 'glass' },
      }),
      200,
    ).data as Line;
    // Glass only fits a large desk: the size changes, the pick is kept.
    expect(line.resolution.changes).toEqual(
      expect.arrayContaining([{ question: 'size', from: ['s'], to: ['l'] }]),
    );
    expect(line.resolution.changes).not.toContainEqual(
      expect.objectContaining({ question: 'legs' }),
    );
    expect(line.resolution.exact).toBe(true);
    expect(question(line, 'size').values).toEqual(['l']);
    expect(question(line, 'top').values).toEqual(['glass']);
    expect(line.valid).toBe(true);
    expect(line.pricing.total).toBe('230.00');
  });

  it('repairs conflicting answers with one change (resolve: true), and only when asked', async () => {
    const conflicting = answers({ size: 's', top: 'glass' });
    const plain = expectEnvelope(await preview({ questions: conflicting }), 200).data as Line;
    expect(plain.valid).toBe(false);
    expect(plain).not.toHaveProperty('resolution');
    const line = expectEnvelope(await preview({ questions: conflicting, resolve: true }), 200)
      .data as Line;
    expect(line.resolution.changes).toHaveLength(1);
    expect(['size', 'top']).toContain(line.resolution.changes[0].question);
    expect(line.valid).toBe(true);
    expect(line.errors).toEqual([]);
  });

  it('fills the unanswered questions with a cheapest valid completion (complete: "cheapest")', async () => {
    const line = expectEnvelope(
      await preview({ questions: answers({ size: 's' }), complete: 'cheapest' }),
      200,
    ).data as Line;
    expect(question(line, 'top')).toMatchObject({ values: ['pine'], source: 'completion' });
    expect(question(line, 'size')).toMatchObject({ values: ['s'], source: 'user' });
    expect(line.valid).toBe(true);
    expect(line.pricing.total).toBe('120.00');
  });

  it('gives price bounds per option, the line’s price range, and admissible integer ranges', async () => {
    const line = expectEnvelope(await preview({ questions: answers({ size: 's' }) }), 200)
      .data as Line;
    expect(line.price_range).toEqual({ min: '120.00', max: '160.00' });
    expect(line.price_bounds).toEqual({ exact: true });
    const tops = question(line, 'top').options as Line[];
    expect(tops.find((o) => o.key === 'oak')).toMatchObject({
      available: true,
      price_from: '160.00',
      price_to: '160.00',
    });
    expect(tops.find((o) => o.key === 'pine')).toMatchObject({
      price_from: '120.00',
      price_to: '120.00',
    });
    // Unavailable: no bounds.
    expect(tops.find((o) => o.key === 'glass')).not.toHaveProperty('price_from');
    expect(question(line, 'legs').allowed).toEqual([[2, 4]]);
    const compact = expectEnvelope(
      await preview({ questions: answers({ size: 'l' }) }, '?view=compact'),
      200,
    ).data as Line;
    expect(compact.price_range).toEqual({ min: '200.00', max: '230.00' });
    expect(question(compact, 'top').option_prices).toEqual({
      oak: { from: '200.00', to: '200.00' },
      glass: { from: '230.00', to: '230.00' },
    });
    expect(question(compact, 'legs').allowed).toEqual([[4, 6]]);
  });

  it('refuses a malformed resolve or complete with 400 naming the field', async () => {
    const questions = answers({ size: 's' });
    for (const [body, field] of [
      [{ resolve: false }, 'resolve'],
      [{ resolve: { question: 'top' } }, 'resolve'],
      [{ resolve: { question: 'top', value: 'oak', extra: 1 } }, 'resolve'],
      [{ resolve: { question: 'top', value: ['oak'] } }, 'resolve'],
      [{ complete: 'dearest' }, 'complete'],
    ] as const) {
      const res = expectEnvelope(await preview({ questions, ...body }), 400);
      expect((res.errors as Array<{ path: string }>).map((p) => p.path)).toContain(field);
    }
  });
});
