import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGenerator } from '../../bench/run-generator.js';
import { MODEL_GENERATOR } from '../support/examples.js';
import { bearer, expectEnvelope, problemsOf } from '../support/factories.js';
import { LogCapture } from '../support/log-capture.js';
import {
  createModelWorld,
  uploadMinimalModel,
  uploadModel,
  type ModelWorld,
  type TestModel,
} from '../support/model.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/**
 * JSON bodies are read by express's JSON parser, then checked for depth. Small and large
 * bodies must read alike (they once took different paths): every body here is sent as it
 * is and padded past 16 K characters with trailing whitespace (still the same JSON), and
 * both get the same answer.
 */
const LARGE_PADDING = ' '.repeat(20_000);

interface Sent {
  status: number;
  body: Record<string, unknown>;
}

/** A preview's line without its cache facts (timings), for comparing two previews. */
function previewLine(sent: Sent): Record<string, unknown> {
  const data = expectEnvelope(sent, 200).data as Record<string, unknown>;
  return { ...data, cache: undefined };
}

describe('JSON bodies, small and large alike', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let model: TestModel;

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
    model = await uploadMinimalModel(ctx, world, 'json-bodies');
  });
  afterAll(() => ctx?.close());

  /** The same body small and padded past the threshold; headers as given. */
  async function bothSizes(
    path: string,
    text: string,
    { token, contentType = 'application/json' }: { token?: string; contentType?: string } = {},
  ): Promise<[Sent, Sent]> {
    const send = (body: string) => {
      const req = ctx.http.post(path).set('Content-Type', contentType);
      if (token) req.set(bearer(token));
      return req.send(body);
    };
    const small = await send(text);
    const large = await send(text + LARGE_PADDING);
    return [small, large];
  }

  /** The problem codes of an envelope. */
  const codes = (body: Record<string, unknown>) => problemsOf(body).map((problem) => problem.code);

  it('refuses malformed JSON with the route’s invalid-body status', async () => {
    for (const sent of await bothSizes('/v1/login', '{"email": "a@b.c", ')) {
      expectEnvelope(sent, 400);
      expect(codes(sent.body)).toEqual(['malformed_json']);
    }
    const token = world.companyMember.token;
    for (const sent of await bothSizes('/v1/carts', '{"model_id": 1,', { token })) {
      expectEnvelope(sent, 401);
      expect(codes(sent.body)).toEqual(['malformed_json']);
    }
  });

  it('takes only an object or an array at the top, as body-parser’s strict mode', async () => {
    for (const text of ['"text"', '12', 'null', 'true']) {
      for (const sent of await bothSizes('/v1/login', text)) {
        expectEnvelope(sent, 400);
        expect(codes(sent.body)).toEqual(['malformed_json']);
      }
    }
  });

  it('refuses a charset that is not UTF with 415, and reads UTF-8 named in any case', async () => {
    const text = JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password' });
    const latin = await bothSizes('/v1/login', text, {
      contentType: 'application/json; charset=latin1',
    });
    for (const sent of latin) {
      expectEnvelope(sent, 415);
      expect(codes(sent.body)).toEqual(['unsupported_media_type']);
    }
    // Read and parsed: the credentials are simply wrong. `charset=` names no charset.
    for (const contentType of ['application/json; charset=UTF-8', 'application/json; charset=']) {
      const [small, large] = await bothSizes('/v1/login', text, { contentType });
      expect(codes(expectEnvelope(small, 403)), contentType).toEqual(['invalid_credentials']);
      expect(large.body).toEqual(small.body);
    }
  });

  it('answers odd Content-Types as body-parser did, never with a 500', async () => {
    const text = JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password' });
    const expected: Array<[string, number]> = [
      // A parameter without a value is ignored: read as JSON.
      ['application/json; charset', 403],
      ['application/json; ;', 403],
      // Not a media type: the body is not read as JSON.
      ['/json', 415],
    ];
    for (const [contentType, status] of expected) {
      const [small, large] = await bothSizes('/v1/login', text, { contentType });
      expect(small.status, contentType).toBe(status);
      expect(large.body, contentType).toEqual(small.body);
    }
  });

  it('inflates a gzip-encoded large body before parsing it', async () => {
    const text = `{"model_id":${model.id},"company_id":${world.company.id},"questions":{}}`;
    const res = await ctx.http
      .post('/v1/carts/preview')
      .set(bearer(world.companyMember.token))
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      // As bytes: superagent would serialize a Buffer given for a JSON type.
      .serialize((bytes) => bytes)
      .send(gzipSync(text + LARGE_PADDING));
    const data = expectEnvelope(res, 200).data as { version_number: number; questions: unknown[] };
    expect(data.version_number).toBe(1);
    expect(data.questions.length).toBeGreaterThan(0);
  });

  it('previews the same line from a large body as from a small one', async () => {
    const text = `{"model_id":${model.id},"company_id":${world.company.id},"questions":{"size":{"values":["l"]}}}`;
    const [small, large] = await bothSizes('/v1/carts/preview', text, {
      token: world.companyMember.token,
    });
    expect(previewLine(large)).toEqual(previewLine(small));
    expect(previewLine(large).valid).toBe(true);
  });

  it('evaluates the answers as written, spaced or with repeated keys, as JSON.parse reads them', async () => {
    const token = world.companyMember.token;
    const send = (text: string) =>
      ctx.http
        .post('/v1/carts/preview')
        .set(bearer(token))
        .set('Content-Type', 'application/json')
        .send(text);
    const head = `"model_id":${model.id},"company_id":${world.company.id}`;
    const plain = await send(`{${head},"questions":{"size":{"values":["l"]}}}`);
    const spaced = await send(
      `{ ${head} , "questions" : {\n "size" : { "values" : [ "l" ] }\n } }`,
    );
    // JSON.parse keeps the last of a repeated key, at the top and inside the answers.
    const repeated = await send(
      `{"questions":{"size":{"values":["s"]}},${head},"questions":{"size":{"values":["s"]},"size":{"values":["l"]}}}`,
    );
    expect(previewLine(plain).valid).toBe(true);
    expect(previewLine(spaced)).toEqual(previewLine(plain));
    expect(previewLine(repeated)).toEqual(previewLine(plain));
    // 20,001 members as written, one as parsed: as wide as the parsed value, as before.
    const copies = Array.from({ length: 20_001 }, () => '"size":{"values":["l"]}').join(',');
    expect(previewLine(await send(`{${head},"questions":{${copies}}}`))).toEqual(
      previewLine(plain),
    );
  });

  it('walks a large body for unsafe text and the answers’ shape as a small one', async () => {
    const token = world.companyMember.token;
    const unsafe = `{"model_id":${model.id},"company_id":${world.company.id},"questions":{"size":{"values":["l\\u0000"]}}}`;
    const [small, large] = await bothSizes('/v1/carts/preview', unsafe, { token });
    expect(codes(expectEnvelope(small, 400))).toEqual(['invalid_text']);
    expect(large.body).toEqual(small.body);
    const reserved = `{"model_id":${model.id},"company_id":${world.company.id},"questions":{"__proto__":{"values":["s"]}}}`;
    const [smallKey, largeKey] = await bothSizes('/v1/carts/preview', reserved, { token });
    expect(codes(expectEnvelope(smallKey, 400))).toEqual(['reserved_key']);
    expect(largeKey.body).toEqual(smallKey.body);
  });
});

describe('large bodies read while evaluations run', () => {
  const logs = new LogCapture();
  const dir = mkdtempSync(join(tmpdir(), 'json-bodies-'));
  let ctx: TestContext;
  let token: string;
  let body: string;

  beforeAll(async () => {
    // Eight previews of a 300-question model at once: bodies are read while the workers
    // evaluate the ones before.
    ctx = await createTestApp({ LOG_LEVEL: 'log' }, undefined, {
      logs,
    });
    const world = await createModelWorld(ctx);
    token = world.companyMember.token;
    const { document, answers } = runGenerator(MODEL_GENERATOR, 300, dir);
    const model = await uploadModel(
      ctx,
      world.supplier.id,
      world.supplierMember.token,
      document as Record<string, unknown>,
    );
    body =
      JSON.stringify({ model_id: model.id, company_id: world.company.id, questions: answers }) +
      LARGE_PADDING;
  });
  afterAll(async () => {
    await ctx?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const preview = (requestId: string) =>
    ctx.http
      .post('/v1/carts/preview')
      .set(bearer(token))
      .set('Content-Type', 'application/json')
      .set('X-Request-Id', requestId)
      .send(body);

  it('answers eight at once as one alone, each logged with its own request id', async () => {
    const alone = previewLine(await preview('alone'));
    expect(alone.valid).toBe(true);
    const ids = Array.from({ length: 8 }, (_, i) => `waiting-${i}`);
    const answers = await Promise.all(ids.map((id) => preview(id)));
    for (const answer of answers) expect(previewLine(answer)).toEqual(alone);
    for (const id of ids) {
      const lines = logs.lines().filter((l) => l.request_id === id && l.route !== undefined);
      expect(lines, id).toEqual([
        expect.objectContaining({ route: '/v1/carts/preview', status: 200 }),
      ]);
    }
  });
});
