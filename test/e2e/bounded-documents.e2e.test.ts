import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_MAX_LENGTHS } from '../../src/engine/limits.js';
import { expectEnvelope, problemsOf } from '../support/factories.js';
import {
  createModelWorld,
  minimalModel,
  sendModel,
  uploadModel,
  type ModelWorld,
} from '../support/model.factories.js';
import { rowSnapshot } from '../support/row-snapshot.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/** One anchored string of `bytes` characters, used as the label of `questions` questions. */
function anchoredLabels(bytes: number, questions: number): string {
  const lines = ['general: {name: Amplified, code: AMP}', 'questions:'];
  for (let i = 0; i < questions; i++) {
    const label = i === 0 ? `&big "${'x'.repeat(bytes)}"` : '*big';
    lines.push(`  - {key: q${i}, type: boolean, label: ${label}}`);
  }
  return `${lines.join('\n')}\n`;
}

describe('bounded model documents: expanded size and text lengths', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let url: string;

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
    url = `/v1/suppliers/${world.supplier.id}/models`;
  });
  afterAll(() => ctx?.close());

  it('refuses a 1 MB anchor used as the label of 100 questions by its expanded size, at once', async () => {
    const before = await rowSnapshot(ctx);
    const document = anchoredLabels(1024 * 1024, 100);
    expect(document.length).toBeLessThan(1.1 * 1024 * 1024);
    const started = performance.now();
    const res = await sendModel(ctx, 'post', url, world.supplierMember.token, document);
    const elapsed = performance.now() - started;
    expect(problemsOf(expectEnvelope(res, 400))[0]).toMatchObject({
      code: 'limit_exceeded',
      message: expect.stringContaining(`beyond ${10 * 1024 * 1024} characters`),
    });
    expect(elapsed).toBeLessThan(5_000);
    expect(await rowSnapshot(ctx)).toEqual(before);
  });

  it('refuses the same anchor used once: a label over its length, with its path', async () => {
    const res = await sendModel(
      ctx,
      'post',
      url,
      world.supplierMember.token,
      anchoredLabels(1024 * 1024, 1),
    );
    expect(problemsOf(expectEnvelope(res, 400))).toEqual([
      expect.objectContaining({ code: 'too_long', path: 'questions.q0.label' }),
    ]);
  });

  it('accepts aliases whose expansion stays small', async () => {
    await uploadModel(ctx, world.supplier.id, world.supplierMember.token, anchoredLabels(100, 100));
  });

  it('holds each text member to its documented length, naming the path', async () => {
    const model = minimalModel('TEXTS');
    const question = (model.questions as Record<string, unknown>[])[0];
    const atLimit: Record<string, unknown> = {
      ...model,
      general: { name: 'n'.repeat(TEXT_MAX_LENGTHS.name), code: 'AT-LIMIT' },
      questions: [
        {
          ...question,
          label: 'l'.repeat(TEXT_MAX_LENGTHS.label),
          description: 'd'.repeat(TEXT_MAX_LENGTHS.description),
        },
      ],
    };
    await uploadModel(ctx, world.supplier.id, world.supplierMember.token, atLimit);

    const over = {
      general: { name: 'n'.repeat(TEXT_MAX_LENGTHS.name + 1), code: 'OVER' },
      questions: [
        {
          ...question,
          label: 'l'.repeat(TEXT_MAX_LENGTHS.label + 1),
          description: 'd'.repeat(TEXT_MAX_LENGTHS.description + 1),
          options: [
            { key: 's', label: 'Small', description: 'o'.repeat(TEXT_MAX_LENGTHS.description + 1) },
          ],
        },
      ],
      rules: [{ key: 'r', assert: 'true', message: 'm'.repeat(TEXT_MAX_LENGTHS.message + 1) }],
      translation: { de: { 'questions.size.label': 'ü'.repeat(TEXT_MAX_LENGTHS.label + 1) } },
    };
    const res = await sendModel(ctx, 'post', url, world.supplierMember.token, over);
    const tooLong = problemsOf(expectEnvelope(res, 400))
      .filter((problem) => problem.code === 'too_long')
      .map((problem) => problem.path)
      .sort();
    expect(tooLong).toEqual(
      [
        'general.name',
        'questions.size.label',
        'questions.size.description',
        'questions.size.options.s.description',
        'rules.r.message',
        'translation.de.questions.size.label',
      ].sort(),
    );
  });
});
