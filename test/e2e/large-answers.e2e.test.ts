import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateModel } from '../../tools/gen-model.mjs';
import { bearer, expectEnvelope } from '../support/factories.js';
import {
  createModelWorld,
  minimalModel,
  sendModel,
  uploadModel,
  type ModelWorld,
  type TestModel,
} from '../support/model.factories.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { createTestApp, type TestContext } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

/** The text of an answer without the engine's measurements (each line's evaluated_in_ms). */
const withoutMeasurements = (text: string): string =>
  text.replace(/"evaluated_in_ms":[0-9.e+-]+/g, '"evaluated_in_ms":0');

/**
 * Answers past ANSWER_STREAM_BYTES are streamed as they are written (chunked, no
 * Content-Length, no ETag); the stored lines of a cart page are inflated one at a time as
 * the page is sent (StreamedPage). The same cart read from a service streaming everything above
 * 1 KB and from one holding every answer whole: the same answer.
 */
describe('large answers: streamed past ANSWER_STREAM_BYTES', () => {
  let database: TestDatabase;
  let streaming: TestContext;
  let holding: TestContext;
  let world: ModelWorld;
  let model: TestModel;
  let cartPath: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    holding = await createTestApp({}, database);
    streaming = await createTestApp({ ANSWER_STREAM_BYTES: '1024' }, database);
    world = await createModelWorld(holding);
    model = await uploadModel(
      holding,
      world.supplier.id,
      world.supplierMember.token,
      minimalModel('streamed'),
    );
    const token = world.companyMember.token;
    const line = {
      model_id: model.id,
      company_id: world.company.id,
      questions: { size: { values: ['s'] } },
    };
    for (let i = 0; i < 12; i++)
      expectEnvelope(await holding.http.post('/v1/carts').set(bearer(token)).send(line), 201);
    const cart = expectEnvelope(await holding.http.get('/v1/carts/default').set(bearer(token)), 200)
      .data as { cart_id: string };
    cartPath = `/v1/carts/${cart.cart_id}?per_page=12`;
  });
  /** A GET as the company member, uncompressed (so that Content-Length shows). */
  const read = (ctx: TestContext, path: string) =>
    ctx.http.get(path).set(bearer(world.companyMember.token)).set('Accept-Encoding', 'identity');

  afterAll(async () => {
    await streaming?.close();
    await holding?.close();
    await database?.drop();
  });

  it('streams the page without Content-Length or ETag: the same answer as held whole', async () => {
    const held = await read(holding, cartPath);
    expectEnvelope(held, 200);
    expect(Number(held.headers['content-length'])).toBe(Buffer.byteLength(held.text));
    expect(held.headers.etag).toBeDefined();

    const streamed = await read(streaming, cartPath);
    const body = expectEnvelope(streamed, 200);
    expect(streamed.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(streamed.headers['transfer-encoding']).toBe('chunked');
    expect(streamed.headers['content-length']).toBeUndefined();
    expect(streamed.headers.etag).toBeUndefined();
    expect((body.data as { lines: unknown[] }).lines).toHaveLength(12);
    expect(withoutMeasurements(streamed.text)).toBe(withoutMeasurements(held.text));
    // What every /v1 answer carries, streamed or not.
    expect(streamed.headers['cache-control']).toBe('no-store');
    expect(streamed.headers['x-request-id']).toBeDefined();
  });

  it('compresses a streamed answer as Accept-Encoding asks', async () => {
    const token = world.companyMember.token;
    const held = await holding.http.get(cartPath).set(bearer(token));
    const streamed = await streaming.http
      .get(cartPath)
      .set(bearer(token))
      .set('Accept-Encoding', 'gzip');
    expect(streamed.status).toBe(200);
    expect(streamed.headers['content-encoding']).toBe('gzip');
    // supertest has gunzipped it.
    expect(withoutMeasurements(streamed.text)).toBe(withoutMeasurements(held.text));
  });

  it('streams a page of model descriptions as well: the same answer', async () => {
    // Two generated models: their descriptions pass the 16 K characters at which the
    // serializer turns text into bytes (and looks at the bound).
    const generated: number[] = [];
    for (const code of ['gen-a', 'gen-b']) {
      const { model: document } = generateModel(60);
      document.general = { ...(document.general as Record<string, unknown>), code };
      const uploaded = await sendModel(
        holding,
        'post',
        `/v1/suppliers/${world.supplier.id}/models`,
        world.supplierMember.token,
        document as Record<string, unknown>,
      );
      generated.push((expectEnvelope(uploaded, 201).data as { id: number }).id);
    }
    const path = `/v1/companies/${world.company.id}/models`;
    const held = await read(holding, path);
    expectEnvelope(held, 200);
    expect(held.headers.etag).toBeDefined();
    const streamed = await read(streaming, path);
    const body = expectEnvelope(streamed, 200);
    expect(streamed.headers['transfer-encoding']).toBe('chunked');
    expect(streamed.headers.etag).toBeUndefined();
    const ids = (body.data as Array<{ id: number }>).map((item) => item.id);
    expect(ids.sort()).toEqual([model.id, ...generated].sort());
    expect(streamed.text).toBe(held.text);
  });

  it('answers HEAD with the headers only', async () => {
    const token = world.companyMember.token;
    const head = await streaming.http.head(cartPath).set(bearer(token));
    expect(head.status).toBe(200);
    expect(head.text).toBeFalsy();
  });

  it('holds an answer up to the bound whole, with Content-Length and ETag', async () => {
    const small = await read(streaming, '/v1/carts/default');
    expectEnvelope(small, 200);
    expect(small.headers.etag).toBeDefined();
    expect(Number(small.headers['content-length'])).toBe(Buffer.byteLength(small.text));
  });

  it('streams the large answer of any method: the cart a line removal answers', async () => {
    const token = world.companyMember.token;
    const cartId = cartPath.split('/')[3].split('?')[0];
    const page = expectEnvelope(await read(holding, cartPath), 200).data as {
      lines: Array<{ id: number }>;
    };
    const removed = await streaming.http
      .delete(`/v1/carts/${cartId}/lines/${page.lines[0].id}`)
      .set(bearer(token))
      .set('Accept-Encoding', 'identity');
    const body = expectEnvelope(removed, 200);
    expect(removed.headers['transfer-encoding']).toBe('chunked');
    expect(removed.headers['content-length']).toBeUndefined();
    expect((body.data as { lines: unknown[] }).lines).toHaveLength(10);
  });
});

/**
 * The attack: a buyer fills a cart with lines of the largest model the limits allow and
 * reads 50 of them at once (~215 MB of JSON). Held whole, with every line evaluated
 * first, that answer took the heap of a 512Mi pod past its limit and the process died.
 * Replayed against the built server with a 256 MB old space: it answers, and lives.
 */
describe('a page of 50 lines of a 5,000-question model, built server, 256 MB heap', () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServerProcess({ NODE_OPTIONS: '--max-old-space-size=256' });
  }, 60_000);
  afterAll(() => server?.close());

  it('is streamed in full while the process lives', async () => {
    const world = await createModelWorld(server);
    const generated = generateModel(5000);
    const uploaded = await sendModel(
      server,
      'post',
      `/v1/suppliers/${world.supplier.id}/models`,
      world.supplierMember.token,
      generated.model as Record<string, unknown>,
    );
    const modelId = (expectEnvelope(uploaded, 201).data as { id: number }).id;
    const token = world.companyMember.token;
    const line = JSON.stringify({
      model_id: modelId,
      company_id: world.company.id,
      questions: generated.answers,
    });
    for (let i = 0; i < 50; i++) {
      const res = await fetch(`${server.baseUrl}/v1/carts?view=compact`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: line,
      });
      expect(res.status).toBe(201);
      await res.arrayBuffer();
    }
    const cart = expectEnvelope(await server.http.get('/v1/carts/default').set(bearer(token)), 200)
      .data as { cart_id: string };

    const res = await fetch(`${server.baseUrl}/v1/carts/${cart.cart_id}?per_page=50`, {
      headers: { Authorization: `Bearer ${token}`, 'Accept-Encoding': 'identity' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBeNull();
    // Read as it comes, counted and not kept: the beginning, the end, the size.
    let bytes = 0;
    let head = '';
    let tail = Buffer.alloc(0);
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      if (head.length < 64) head += Buffer.from(chunk).toString('utf8').slice(0, 64);
      tail = Buffer.concat([tail, Buffer.from(chunk)]).subarray(-256);
      bytes += chunk.length;
    }
    expect(head.startsWith('{"code":200,')).toBe(true);
    expect(tail.toString('utf8')).toMatch(/"errors":\[\]\}$/);
    expect(bytes).toBeGreaterThan(150 * 1024 * 1024);
    expect(server.alive()).toBe(true);
    expect((await fetch(`${server.baseUrl}/health/live`)).status).toBe(200);
  }, 180_000);
});
