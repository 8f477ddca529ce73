import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectEnvelope, problemsOf } from '../support/factories.js';
import {
  createModelWorld,
  uploadMinimalModel,
  type ModelWorld,
  type TestModel,
} from '../support/model.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/**
 * JSON bodies from 16 K characters on are parsed and walked as sliced work (waiting for
 * the event loop's shared slice, docs/ENGINE.md); smaller ones at once. Both must read
 * alike: every body here is sent as it is and padded past the threshold with trailing
 * whitespace (still the same JSON), and both get the same answer.
 */
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

  const LARGE_PADDING = ' '.repeat(20_000);

  interface Sent {
    status: number;
    body: Record<string, unknown>;
  }

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

  const codes = (sent: Sent) => problemsOf(sent.body).map((problem) => problem.code);

  it('refuses malformed JSON with the route’s invalid-body status', async () => {
    for (const sent of await bothSizes('/v1/login', '{"email": "a@b.c", ')) {
      expectEnvelope(sent, 400);
      expect(codes(sent)).toEqual(['malformed_json']);
    }
    const token = world.companyMember.token;
    for (const sent of await bothSizes('/v1/carts', '{"model_id": 1,', { token })) {
      expectEnvelope(sent, 401);
      expect(codes(sent)).toEqual(['malformed_json']);
    }
  });

  it('takes only an object or an array at the top, as body-parser’s strict mode', async () => {
    for (const text of ['"text"', '12', 'null', 'true']) {
      for (const sent of await bothSizes('/v1/login', text)) {
        expectEnvelope(sent, 400);
        expect(codes(sent)).toEqual(['malformed_json']);
      }
    }
  });

  it('refuses a charset that is not UTF with 415, and reads UTF-8 named in any case', async () => {
    const text = JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password' });
    const latin = await bothSizes('/v1/login', text, {
      contentType: 'application/json; charset=latin1',
    });
    for (const sent of latin) expectEnvelope(sent, 415);
    const utf8 = await bothSizes('/v1/login', text, {
      contentType: 'application/json; charset=UTF-8',
    });
    // Read and parsed: the credentials are simply wrong.
    for (const sent of utf8) expectEnvelope(sent, 403);
    expect(codes(utf8[1])).toEqual(codes(utf8[0]));
  });

  it('answers a Content-Type it cannot parse with 4xx, never a 500', async () => {
    const text = JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password' });
    for (const contentType of ['application/json; charset', 'application/json; ;', '/json']) {
      for (const sent of await bothSizes('/v1/login', text, { contentType })) {
        expect(sent.status, contentType).toBeGreaterThanOrEqual(400);
        expect(sent.status, contentType).toBeLessThan(500);
      }
    }
  });

  it('reads an empty JSON body as an empty object', async () => {
    const res = await ctx.http.post('/v1/login').set('Content-Type', 'application/json').send('');
    const answer = expectEnvelope(res, 400);
    // Validated as {}: each required field is named, nothing is malformed.
    expect(problemsOf(answer).map((problem) => problem.code)).not.toContain('malformed_json');
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
    const line = (sent: Sent): Record<string, unknown> => {
      const data = expectEnvelope(sent, 200).data as Record<string, unknown>;
      return { ...data, cache: undefined };
    };
    expect(line(large)).toEqual(line(small));
    expect(line(large).valid).toBe(true);
  });

  it('walks a large body for unsafe text and the answers’ shape as a small one', async () => {
    const token = world.companyMember.token;
    const unsafe = `{"model_id":${model.id},"company_id":${world.company.id},"questions":{"size":{"values":["l\\u0000"]}}}`;
    const [small, large] = await bothSizes('/v1/carts/preview', unsafe, { token });
    expectEnvelope(small, 400);
    expect(large.body).toEqual(small.body);
    const reserved = `{"model_id":${model.id},"company_id":${world.company.id},"questions":{"__proto__":{"values":["s"]}}}`;
    const [smallKey, largeKey] = await bothSizes('/v1/carts/preview', reserved, { token });
    expect(problemsOf(expectEnvelope(smallKey, 400)).map((p) => p.code)).toEqual(['reserved_key']);
    expect(largeKey.body).toEqual(smallKey.body);
  });
});
