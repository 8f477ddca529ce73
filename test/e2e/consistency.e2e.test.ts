import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ENGINE_VERSION,
  deserializeConsistency,
  serializeConsistency,
} from '../../src/engine/work.js';
import { loadConsistency, storeConsistency } from '../../src/models/version-bytes.repository.js';
import { bearer, errorPaths, expectEnvelope } from '../support/factories.js';
import {
  createModelWorld,
  sendModel,
  uploadModel,
  type ModelWorld,
  type TestModel,
} from '../support/model.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

const option = (key: string) => ({ key, label: key });

/**
 * A bike: road frames take 28" wheels and slicks, mtb frames 29" and knobby tyres;
 * the 20" wheel fits no frame (a dead option). Two valid configurations.
 */
const bike = (code: string, extraRules: unknown[] = []) => ({
  general: { name: 'Bike', code },
  questions: [
    {
      key: 'frame',
      type: 'choice',
      label: 'Frame',
      required: true,
      options: ['road', 'mtb'].map(option),
    },
    {
      key: 'wheel',
      type: 'choice',
      label: 'Wheel',
      required: true,
      options: ['w28', 'w29', 'w20'].map(option),
    },
    {
      key: 'tyre',
      type: 'choice',
      label: 'Tyre',
      required: true,
      default: 'slick',
      options: ['slick', 'knobby'].map(option),
    },
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
      key: 'wheel_tyre',
      message: 'wheel and tyre',
      allowed: {
        columns: ['wheel', 'tyre'],
        rows: [
          ['w28', 'slick'],
          ['w29', 'knobby'],
        ],
      },
    },
    ...extraRules,
  ],
});

type Line = Record<string, any>;

describe('consistency: analysis, exact availability, stored compiled form', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let model: TestModel & { warnings?: unknown };

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
    model = await uploadModel(ctx, world.supplier.id, world.supplierMember.token, bike('BIKE'));
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

  it('the upload answer warns about dead options; GET carries the analysis', async () => {
    expect(model.warnings).toEqual([
      {
        code: 'dead_option',
        message: 'no valid configuration can use this option',
        path: 'questions.wheel.options.w20',
      },
    ]);
    const res = await ctx.http
      .get(`/v1/models/${model.id}`)
      .set(bearer(world.supplierMember.token));
    const data = expectEnvelope(res, 200).data as Line;
    expect(data.analysis).toEqual({
      exact: true,
      configurations: '2',
      dead_options: ['questions.wheel.options.w20'],
      compile_ms: expect.any(Number),
      size: { nodes: expect.any(Number), edges: expect.any(Number), bytes: expect.any(Number) },
    });
  });

  it('previews with consistency, conflicts_with and a suppressed default', async () => {
    const line = await preview({ frame: { values: ['mtb'] } });
    expect(line.consistency).toEqual({ exact: true, configurations: '1' });
    const [, wheel, tyre] = line.questions;
    expect(wheel.options.map((o: Line) => [o.key, o.available, o.conflicts_with])).toEqual([
      ['w28', false, ['frame']],
      ['w29', true, []],
      ['w20', false, []],
    ]);
    // The default slick has no completion with an mtb frame: left out, not an error.
    expect(tyre).toEqual(
      expect.objectContaining({ values: [], source: 'none', suppressed: ['default'] }),
    );
    expect(tyre.options[0]).toEqual(
      expect.objectContaining({ key: 'slick', available: false, conflicts_with: ['frame'] }),
    );
    expect(line.errors.map((e: Line) => e.code)).toEqual(['required', 'required']);
  });

  it('conflicting answers are errors naming a minimal set; only a valid line is added', async () => {
    const conflicting = await preview({ frame: { values: ['mtb'] }, tyre: { values: ['slick'] } });
    expect(conflicting.valid).toBe(false);
    expect(conflicting.consistency.configurations).toBe('0');
    // One cause, on each answer: both answers and the rules between them (issue #32).
    const conflict = {
      answers: [
        { question: 'frame', values: ['mtb'] },
        { question: 'tyre', values: ['slick'] },
      ],
      rules: ['frame_wheel', 'wheel_tyre'],
    };
    expect(conflicting.errors.filter((e: Line) => e.code === 'conflict')).toEqual([
      expect.objectContaining({ ...conflict, path: 'questions.frame' }),
      expect.objectContaining({ ...conflict, path: 'questions.tyre' }),
    ]);
    expect(conflicting.errors.map((e: Line) => e.code)).not.toContain('option_unavailable');

    const add = (questions: Record<string, unknown>) =>
      ctx.http
        .post('/v1/carts')
        .set(bearer(world.companyMember.token))
        .send({ model_id: model.id, company_id: world.company.id, questions });
    const refused = await add({ frame: { values: ['mtb'] }, tyre: { values: ['slick'] } });
    expect(refused.status).not.toBe(201);
    expect(errorPaths(refused.body)).toEqual(expect.arrayContaining(['questions.frame']));
    const added = await add({
      frame: { values: ['mtb'] },
      wheel: { values: ['w29'] },
      tyre: { values: ['knobby'] },
    });
    const line = expectEnvelope(added, 201).data as Line;
    expect(line.consistency).toEqual({ exact: true, configurations: '1' });
    expect(line.questions[2]).toEqual(
      expect.objectContaining({ values: ['knobby'], source: 'user', suppressed: [] }),
    );
  });

  it('refuses a model with no valid configuration (400 inconsistent_model, naming the rules)', async () => {
    const inconsistent = bike('BIKE-BAD', [
      { key: 'only_road', message: 'road only', allowed: { columns: ['frame'], rows: [['road']] } },
      { key: 'no_road', message: 'no road', assert: "frame != 'road'" },
    ]);
    const res = await sendModel(
      ctx,
      'post',
      `/v1/suppliers/${world.supplier.id}/models`,
      world.supplierMember.token,
      inconsistent,
    );
    const body = expectEnvelope(res, 400);
    const problems = body.errors as Line[];
    expect(new Set(problems.map((problem) => problem.code))).toEqual(
      new Set(['inconsistent_model']),
    );
    expect(problems.map((problem) => problem.path)).toEqual(
      expect.arrayContaining(['rules.only_road', 'rules.no_road']),
    );
  });

  it('stores the compiled form with the version; another instance loads it, a new engine rebuilds it', async () => {
    const dataSource = ctx.app.get(DataSource);
    const stored = await loadConsistency(dataSource, model.id, 1);
    const [row] = await dataSource.query(
      'SELECT "consistency_engine" AS "engine" FROM "model_versions" WHERE "model_id" = ' +
        (dataSource.options.type === 'postgres' ? '$1' : '?'),
      [model.id],
    );
    expect(row.engine).toBe(ENGINE_VERSION);
    const form = deserializeConsistency(stored as Uint8Array);
    expect(form?.analysis.configurations).toBe('2');

    // A marked copy: if the other instance shows the mark, it loaded instead of compiling.
    const marked = { ...form!, analysis: { ...form!.analysis, configurations: '2 (stored)' } };
    await storeConsistency(dataSource, model.id, 1, serializeConsistency(marked));
    const other = await createTestApp({}, ctx.database);
    try {
      const get = () =>
        other.http.get(`/v1/models/${model.id}`).set(bearer(world.supplierMember.token));
      expect((expectEnvelope(await get(), 200).data as Line).analysis.configurations).toBe(
        '2 (stored)',
      );

      // Built by another engine version: recompiled lazily and stored again.
      const bytes = serializeConsistency(marked);
      const text = new TextDecoder().decode(bytes);
      const old = new TextEncoder().encode(
        text.replace(
          `"engine":"${ENGINE_VERSION}"`,
          `"engine":"${'0'.repeat(ENGINE_VERSION.length)}"`,
        ),
      );
      await dataSource.query(
        dataSource.options.type === 'postgres'
          ? 'UPDATE "model_versions" SET "consistency" = $1 WHERE "model_id" = $2'
          : 'UPDATE "model_versions" SET "consistency" = ? WHERE "model_id" = ?',
        [Buffer.from(old), model.id],
      );
      const third = await createTestApp({}, ctx.database);
      try {
        const res = await third.http
          .get(`/v1/models/${model.id}`)
          .set(bearer(world.supplierMember.token));
        expect((expectEnvelope(res, 200).data as Line).analysis.configurations).toBe('2');
        const rebuilt = await loadConsistency(dataSource, model.id, 1);
        expect(deserializeConsistency(rebuilt as Uint8Array)?.analysis.configurations).toBe('2');
      } finally {
        await third.close();
      }
    } finally {
      await other.close();
    }
  });
});
