import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  errorPaths,
  expectEnvelope,
  postRawJson,
  problemsOf,
} from '../support/factories.js';
import {
  createModelWorld,
  minimalModel,
  uploadMinimalModel,
  uploadModel,
  type ModelWorld,
  type TestModel,
} from '../support/model.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/**
 * A configuration's answers reach the engine as parsed (no class-transformer copy): the
 * pipe checks only their shape. Hostile keys and shapes are refused at the boundary, with
 * the route's invalid-body status (400; POST /v1/carts: 401, seed contract) and the path.
 */
describe('answers at the boundary: POST /v1/carts/preview and /v1/carts', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let model: TestModel;

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
    model = await uploadMinimalModel(ctx, world, 'answers-boundary');
  });
  afterAll(() => ctx?.close());

  /** Raw JSON text: a JavaScript object literal would make `__proto__` its prototype. */
  const body = (questions: string, extra = '') =>
    `{"model_id":${model.id},"company_id":${world.company.id},${extra}"questions":${questions}}`;
  const preview = (questions: string, extra?: string) =>
    postRawJson(ctx, '/v1/carts/preview', world.companyMember.token, body(questions, extra));

  it('evaluates plain answers as before', async () => {
    const res = await preview('{"size":{"values":["l"]}}');
    const data = expectEnvelope(res, 200).data as { valid: boolean };
    expect(data.valid).toBe(true);
  });

  it('refuses __proto__, constructor and prototype keys at any depth, naming each path', async () => {
    const res = await preview(
      '{"__proto__":{"values":["s"]},"constructor":{"values":[]},' +
        '"size":{"values":["s"],"prototype":{"x":1}}}',
    );
    const answer = expectEnvelope(res, 400);
    expect(errorPaths(answer).sort()).toEqual([
      'questions.__proto__',
      'questions.constructor',
      'questions.size.prototype',
    ]);
    expect(new Set(problemsOf(answer).map((p) => p.code))).toEqual(new Set(['reserved_key']));
  });

  it('refuses them on POST /v1/carts with 401 (seed contract), storing nothing', async () => {
    const res = await postRawJson(
      ctx,
      '/v1/carts',
      world.companyMember.token,
      body('{"size":{"values":["s"]},"__proto__":{"polluted":true}}'),
    );
    expect(errorPaths(expectEnvelope(res, 401))).toEqual(['questions.__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const carts = await ctx.http.get('/v1/carts').set(bearer(world.companyMember.token));
    expectEnvelope(carts, 400); // no cart was made for the refused line
  });

  it('reports the other fields’ problems beside the answers’', async () => {
    const res = await postRawJson(
      ctx,
      '/v1/carts/preview',
      world.companyMember.token,
      `{"model_id":"one","company_id":${world.company.id},"questions":{"prototype":{"values":[]}}}`,
    );
    expect(new Set(errorPaths(expectEnvelope(res, 400)))).toEqual(
      new Set(['model_id', 'questions.prototype']),
    );
  });

  it('refuses answers nested too deep, or wider than a model may be', async () => {
    const deep = await preview('{"size":{"values":[[[[[[[[["s"]]]]]]]]]}}');
    const deepProblems = problemsOf(expectEnvelope(deep, 400));
    expect(deepProblems.map((p) => [p.code, p.path])).toEqual([['too_deep', 'questions']]);

    const members = Array.from({ length: 20_001 }, (_, i) => `"q${i}":{"values":[]}`).join(',');
    const wide = await preview(`{${members}}`);
    const wideProblems = problemsOf(expectEnvelope(wide, 400));
    expect(wideProblems.map((p) => [p.code, p.path])).toEqual([['too_many_members', 'questions']]);
  });

  it('still words a value that is not an object as before', async () => {
    const res = await preview('["size"]');
    expect(errorPaths(expectEnvelope(res, 400))).toEqual(['questions']);
  });
});

describe('ETag: on GET answers only', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let model: TestModel;

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
    model = await uploadModel(
      ctx,
      world.supplier.id,
      world.supplierMember.token,
      minimalModel('etag'),
    );
  });
  afterAll(() => ctx?.close());

  it('answers POSTs without one (an added line: its own ETag, for PUT), GETs with a weak one that matches the body', async () => {
    const line = {
      model_id: model.id,
      company_id: world.company.id,
      questions: { size: { values: ['s'] } },
    };
    const token = world.companyMember.token;
    const preview = await ctx.http.post('/v1/carts/preview').set(bearer(token)).send(line);
    expectEnvelope(preview, 200);
    expect(preview.headers.etag).toBeUndefined();
    const added = await ctx.http.post('/v1/carts').set(bearer(token)).send(line);
    expectEnvelope(added, 201);
    // Not a hash of the answer: the new line's revision, the If-Match of its PUT.
    expect(added.headers.etag).toBe('"1"');

    const first = await ctx.http.get('/v1/carts/default').set(bearer(token));
    expectEnvelope(first, 200);
    expect(first.headers.etag).toMatch(/^W\/"[0-9a-f]+-[A-Za-z0-9+/]{27}"$/);
    const again = await ctx.http.get('/v1/carts/default').set(bearer(token));
    expect(again.headers.etag).toBe(first.headers.etag);
  });

  it('gives a large GET answer (a streamed page, held under the bound) express’s ETag', async () => {
    const token = world.companyMember.token;
    const line = {
      model_id: model.id,
      company_id: world.company.id,
      questions: { size: { values: ['l'] } },
    };
    for (let i = 0; i < 30; i++)
      expectEnvelope(await ctx.http.post('/v1/carts').set(bearer(token)).send(line), 201);
    const cart = expectEnvelope(await ctx.http.get('/v1/carts/default').set(bearer(token)), 200)
      .data as { cart_id: string };
    const path = `/v1/carts/${cart.cart_id}?per_page=50`;
    const page = await ctx.http.get(path).set(bearer(token));
    expectEnvelope(page, 200);
    const body = Buffer.from(page.text, 'utf8');
    // Many pieces (a StreamedPage's lines), joined and hashed by express when held whole.
    expect(body.length).toBeGreaterThan(32 * 1024);
    const expressEtag = express().get('etag fn') as (body: Buffer) => string;
    // Stored lines are snapshots (docs/adr/0051): each line's evaluated_in_ms is the one
    // measured when it was added, part of what is stored, so the whole body is hashed and
    // a second read of the unchanged cart has the same ETag.
    expect(page.headers.etag).toBe(expressEtag(body));
    const again = await ctx.http.get(path).set(bearer(token));
    expect(again.headers.etag).toBe(page.headers.etag);
  });

  it('answers 304 to a cart read again unchanged, 200 with a new ETag once it changed', async () => {
    const token = world.companyMember.token;
    const cart = expectEnvelope(
      await ctx.http
        .post('/v1/carts/new')
        .set(bearer(token))
        .send({ reference: 'etag cart', default: false }),
      201,
    ).data as { cart_id: string };
    const line = {
      cart_id: cart.cart_id,
      model_id: model.id,
      company_id: world.company.id,
      questions: { size: { values: ['s'] } },
    };
    const add = () => ctx.http.post('/v1/carts').set(bearer(token)).send(line);
    expectEnvelope(await add(), 201);
    const path = `/v1/carts/${cart.cart_id}`;
    const first = await ctx.http.get(path).set(bearer(token));
    expectEnvelope(first, 200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[0-9a-f]+-[A-Za-z0-9+/]{27}"$/);
    // The stored line is read again as it was stored: the same bytes, the same ETag.
    const again = await ctx.http.get(path).set(bearer(token)).set('If-None-Match', etag);
    expect(again.status).toBe(304);
    expect(again.text).toBeFalsy();
    // Another view is another answer.
    const compact = await ctx.http
      .get(`${path}?view=compact`)
      .set(bearer(token))
      .set('If-None-Match', etag);
    expectEnvelope(compact, 200);
    expect(compact.headers.etag).not.toBe(etag);

    expectEnvelope(await add(), 201);
    const changed = await ctx.http.get(path).set(bearer(token)).set('If-None-Match', etag);
    expectEnvelope(changed, 200);
    expect(changed.headers.etag).not.toBe(etag);
    expect((changed.body as { data: { lines: unknown[] } }).data.lines).toHaveLength(2);
  });
});
