import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectEnvelope } from '../support/factories.js';
import {
  createModelWorld,
  sendModel,
  uploadModel,
  type ModelWorld,
  type TestModel,
} from '../support/model.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

type Line = Record<string, any>;

/** A small feature model written with logical rules (docs/model-format.md "Logical rules"). */
const features = {
  general: { name: 'Features', code: 'FEATURES' },
  questions: ['base', 'gui', 'cli', 'themes'].map((key) => ({
    key,
    type: 'boolean',
    label: key,
    required: true,
  })),
  rules: [
    { key: 'base_always', clause: ['base'] },
    { key: 'one_front_end', at_least: { count: 1, of: ['gui', 'cli'] } },
    { key: 'themes_need_gui', requires: ['themes', 'gui'], message: 'Themes need the GUI' },
    { key: 'gui_or_cli_only', excludes: ['gui', 'cli'] },
  ],
};

describe('logical rules over HTTP: upload, analysis, preview', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let model: TestModel;

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
    model = await uploadModel(ctx, world.supplier.id, world.supplierMember.token, features);
  });
  afterAll(() => ctx?.close());

  const preview = async (questions: Record<string, unknown>): Promise<Line> =>
    expectEnvelope(
      await ctx.http
        .post('/v1/carts/preview')
        .set(bearer(world.companyMember.token))
        .send({ model_id: model.id, company_id: world.company.id, questions }),
      200,
    ).data as Line;

  it('counts the configurations: base, exactly one front end, themes only with the GUI', async () => {
    const res = await ctx.http
      .get(`/v1/models/${model.id}`)
      .set(bearer(world.supplierMember.token));
    const data = expectEnvelope(res, 200).data as Line;
    // gui (themes or not) or cli (no themes): 3.
    expect(data.analysis).toEqual(
      expect.objectContaining({ exact: true, configurations: '3', dead_options: [] }),
    );
  });

  it('a value the rules exclude is unavailable; answers breaking a rule conflict, naming it', async () => {
    const withCli = await preview({ cli: { values: [true] } });
    const gui = withCli.questions.find((q: Line) => q.key === 'gui');
    expect(gui.unavailable_values).toEqual([true]);
    const themes = withCli.questions.find((q: Line) => q.key === 'themes');
    expect(themes.unavailable_values).toEqual([true]);
    expect(withCli.consistency).toEqual({ exact: true, configurations: '1' });

    const broken = await preview({ cli: { values: [true] }, themes: { values: [true] } });
    expect(broken.valid).toBe(false);
    const conflict = broken.errors.find((e: Line) => e.code === 'conflict');
    expect(conflict.rules).toEqual(expect.arrayContaining(['themes_need_gui']));
  });

  it('refuses a literal naming an unknown option at its path', async () => {
    const res = await sendModel(
      ctx,
      'post',
      `/v1/suppliers/${world.supplier.id}/models`,
      world.supplierMember.token,
      {
        ...features,
        general: { name: 'Bad', code: 'BAD' },
        rules: [{ key: 'bad', clause: ['gui = maybe'] }],
      },
    );
    const body = expectEnvelope(res, 400) as Line;
    expect(JSON.stringify(body)).toContain('"path":"rules.bad.clause[0]"');
    expect(JSON.stringify(body)).toContain('"pointer":"/rules/0/clause/0"');
  });
});
