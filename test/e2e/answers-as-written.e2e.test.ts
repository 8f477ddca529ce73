import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectEnvelope, problemsOf } from '../support/factories.js';
import {
  createModelWorld,
  uploadModel,
  type ModelWorld,
  type TestModel,
} from '../support/model.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/**
 * Answers parsed from a body cross to the worker as the body wrote them (docs/adr/0240):
 * written forms JSON.stringify once normalised (-0, 1e400) must still evaluate alike, and
 * the written width bound must be read from the member the parsed value came from.
 */
describe('answers as written: the same meaning as the parsed value', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let model: TestModel;

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
    model = await uploadModel(ctx, world.supplier.id, world.supplierMember.token, {
      general: { name: 'Signed zero', code: 'SIGNED-ZERO' },
      questions: [{ key: 'len', type: 'number', label: 'Length', min: 0, max: 10 }],
      variables: [{ key: 'shown', expr: 'string(len)', label: 'Shown', display: true }],
      bom_items: [
        {
          key: 'panel',
          sku: 'P',
          description: 'Panel',
          when: 'len != null',
          quantity: 'len',
          unit_price: '2.00',
        },
      ],
      pricing: { base_price: '1.00' },
    });
  });
  afterAll(() => ctx?.close());

  const send = (path: string, questions: string) =>
    ctx.http
      .post(path)
      .set(bearer(world.companyMember.token))
      .set('Content-Type', 'application/json')
      .send(`{"model_id":${model.id},"company_id":${world.company.id},${questions}}`);
  const previewLine = async (questions: string) => {
    const data = expectEnvelope(await send('/v1/carts/preview', questions), 200).data as object;
    return { ...data, cache: undefined };
  };

  it('previews -0 and 1e400 as their stringified forms 0 and null', async () => {
    expect(await previewLine('"questions":{"len":{"values":[-0]}}')).toEqual(
      await previewLine('"questions":{"len":{"values":[0]}}'),
    );
    expect(await previewLine('"questions":{"len":{"values":[1e400]}}')).toEqual(
      await previewLine('"questions":{"len":{"values":[null]}}'),
    );
  });

  it('reads the width bound from questions, not from a U+FEFF-led key like it', async () => {
    const wide = Array.from({ length: 20_001 }, (_, i) => `"q${i}":{"values":[1]}`).join(',');
    const sent = await send('/v1/carts/preview', `"questions":{${wide}},"\uFEFFquestions":{}`);
    const codes = problemsOf(expectEnvelope(sent, 400)).map((p) => `${p.code}@${p.path}`);
    expect(codes).toContain('too_many_members@questions');
  });

  it('previews a BOM-led UTF-8 body and a UTF-16 body as a plain one', async () => {
    const text = `{"model_id":${model.id},"company_id":${world.company.id},"questions":{"len":{"values":[2]}}}`;
    const sendBytes = (bytes: Buffer, contentType: string) =>
      ctx.http
        .post('/v1/carts/preview')
        .set(bearer(world.companyMember.token))
        .set('Content-Type', contentType)
        // As bytes: superagent would serialize a Buffer given for a JSON type.
        .serialize((raw) => raw as string)
        .send(bytes);
    const lineOf = (sent: { status: number; body: Record<string, unknown> }) => ({
      ...(expectEnvelope(sent, 200).data as object),
      cache: undefined,
    });
    const plain = lineOf(await sendBytes(Buffer.from(text), 'application/json'));
    const bom = await sendBytes(Buffer.from(`\uFEFF${text}`), 'application/json');
    const utf16 = await sendBytes(
      Buffer.from(text, 'utf16le'),
      'application/json; charset=utf-16le',
    );
    expect(lineOf(bom)).toEqual(plain);
    expect(lineOf(utf16)).toEqual(plain);
  });
});
