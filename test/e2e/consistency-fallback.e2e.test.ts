import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectEnvelope } from '../support/factories.js';
import {
  createModelWorld,
  uploadModel,
  type ModelWorld,
  type TestModel,
} from '../support/model.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

const option = (key: string) => ({ key, label: key });

/**
 * A bike whose frame, wheel and lights interact through two tables; the 20" wheel fits
 * no frame (dead). Compiled with MODEL_CONSISTENCY_MS=0: no diagram, propagation only.
 */
const bike = {
  general: { name: 'Bike', code: 'BIKE-GAC' },
  questions: [
    { key: 'frame', type: 'choice', label: 'Frame', options: ['road', 'mtb'].map(option) },
    {
      key: 'wheel',
      type: 'choice',
      label: 'Wheel',
      required: true,
      options: ['w28', 'w29', 'w20'].map(option),
    },
    { key: 'lights', type: 'boolean', label: 'Lights' },
  ],
  rules: [
    {
      key: 'frame_wheel',
      message: 'frame and wheel',
      allowed: {
        columns: ['frame', 'wheel'],
        rows: [
          ['road', 'w28'],
          ['mtb', 'w29'],
        ],
      },
    },
    {
      key: 'wheel_lights',
      message: 'only 28" wheels take lights',
      allowed: {
        columns: ['wheel', 'lights'],
        rows: [
          ['w28', true],
          ['w28', false],
          ['w29', false],
        ],
      },
    },
  ],
};

type Line = Record<string, any>;

describe('consistency past the compile budget (MODEL_CONSISTENCY_MS=0): propagation', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let model: TestModel & { warnings?: unknown };

  beforeAll(async () => {
    ctx = await createTestApp({ MODEL_CONSISTENCY_MS: '0' });
    world = await createModelWorld(ctx);
    model = await uploadModel(ctx, world.supplier.id, world.supplierMember.token, bike);
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

  it('the upload is accepted, not exact; dead options found by propagation', async () => {
    expect(model.warnings).toEqual([
      expect.objectContaining({ code: 'dead_option', path: 'questions.wheel.options.w20' }),
    ]);
    const res = await ctx.http
      .get(`/v1/models/${model.id}`)
      .set(bearer(world.supplierMember.token));
    const analysis = (expectEnvelope(res, 200).data as Line).analysis;
    expect(analysis).toEqual(
      expect.objectContaining({
        exact: false,
        reason: expect.stringMatching(/availability by propagation/),
        dead_options: ['questions.wheel.options.w20'],
      }),
    );
    // Not exact: no count, and the upper bound in its own member: frame (3) × wheel (w28,
    // w29) × lights (3).
    expect(analysis.configurations).toBeNull();
    expect(analysis.configurations_at_most).toBe('18');
  });

  it('previews availability by propagation through both tables, with conflicts_with', async () => {
    const line = await preview({ frame: { values: ['mtb'] } });
    expect(line.consistency).toEqual({
      exact: false,
      reason: expect.stringMatching(/budget/),
      // Not exact, so no count: a bound (mtb, w29, lights false or unanswered).
      configurations: null,
      configurations_at_most: '2',
    });
    const [, wheel, lights] = line.questions;
    expect(wheel.options.map((o: Line) => [o.key, o.available, o.conflicts_with])).toEqual([
      ['w28', false, ['frame']],
      ['w29', true, []],
      ['w20', false, []],
    ]);
    // Lights need a 28" wheel, which an mtb frame excludes: two tables away.
    expect(lights.unavailable_values).toEqual([true]);
    const conflicting = await preview({ frame: { values: ['mtb'] }, lights: { values: [true] } });
    // One cause, on each answer: both answers and the two tables between them (issue #32).
    const conflict = {
      answers: [
        { question: 'frame', values: ['mtb'] },
        { question: 'lights', values: [true] },
      ],
      rules: ['frame_wheel', 'wheel_lights'],
    };
    expect(conflicting.errors.filter((e: Line) => e.code === 'conflict')).toEqual([
      expect.objectContaining({ ...conflict, path: 'questions.frame' }),
      expect.objectContaining({ ...conflict, path: 'questions.lights' }),
    ]);
  });
});
