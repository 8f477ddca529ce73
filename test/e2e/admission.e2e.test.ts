import { once } from 'node:events';
import { Agent, type IncomingMessage, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createUser,
  expectEnvelope,
  loginAdmin,
  type TestUser,
} from '../support/factories.js';
import { holdRequest } from '../support/held-requests.js';
import { createTestApp, listenOnFreePort, type TestContext } from '../support/test-app.js';

const CLIENT_LIMIT = 3;
const SERVER_LIMIT = 5;

describe('admission before the pipeline (CLIENT_IN_FLIGHT_LIMIT, SERVER_IN_FLIGHT_LIMIT)', () => {
  let ctx: TestContext;
  let base: string;
  let admin: TestUser;
  let other: TestUser;
  let third: TestUser;
  const agent = new Agent({ keepAlive: false });

  beforeAll(async () => {
    ctx = await createTestApp({
      CLIENT_IN_FLIGHT_LIMIT: String(CLIENT_LIMIT),
      SERVER_IN_FLIGHT_LIMIT: String(SERVER_LIMIT),
      ANONYMOUS_IN_FLIGHT_LIMIT: String(SERVER_LIMIT),
      TRUSTED_PROXIES: 'loopback',
    });
    base = await listenOnFreePort(ctx);
    admin = await loginAdmin(ctx);
    other = await createUser(ctx, admin);
    third = await createUser(ctx, admin);
  });
  afterAll(async () => {
    agent.destroy();
    await ctx?.close();
  });

  /** A request in flight for as long as the test wants (held-requests.ts). */
  const hold = (path: string, headers: Record<string, string>) =>
    holdRequest(base, agent, path, headers);

  /** A GET sent with its path as written (a URL would resolve `..`); its status. */
  async function rawGet(path: string, headers: Record<string, string>): Promise<number> {
    const req = request(`${base}/`, { path, agent, headers });
    req.end();
    const [res] = (await once(req, 'response')) as [IncomingMessage];
    res.resume();
    return res.statusCode ?? 0;
  }

  const refused = (res: { status: number; body: Record<string, unknown>; headers: object }) => {
    const headers = res.headers as Record<string, string>;
    expect(headers['retry-after']).toBe('1');
    expect(headers['content-type']).toMatch(/^application\/json/);
    expect(headers['x-request-id']).toBeTruthy();
    return (expectEnvelope(res, res.status).errors as { code: string }[]).map((p) => p.code);
  };

  it('refuses a credential past its limit with 429, serves other credentials and the probes, and admits again once one finishes', async () => {
    const held = [];
    for (let i = 0; i < CLIENT_LIMIT; i++)
      held.push(await hold('/v1/carts/preview', bearer(admin.token)));

    const past = await ctx.http.post('/v1/carts/preview').set(bearer(admin.token)).send({});
    expect(past.status).toBe(429);
    expect(refused(past)).toEqual(['too_many_in_flight']);
    expect((await ctx.http.get('/v1/users/me').set(bearer(other.token))).status).toBe(200);
    expect((await ctx.http.get('/health/live')).status).toBe(200);
    expect((await ctx.http.get('/health/ready')).status).toBe(200);
    // Only the probes' exact paths pass uncounted.
    expect(await rawGet('/health/../v1/users/me', bearer(admin.token))).toBe(429);

    // One finishes (its answer is the pipeline's: the half-sent body is no preview): the
    // credential is admitted again.
    expect(await held[0].finish()).toBe(400);
    const again = await ctx.http.get('/v1/users/me').set(bearer(admin.token));
    expect(again.status).toBe(200);
    for (const request of held.slice(1)) expect(await request.finish()).toBe(400);
  });

  it('refuses anyone with 503 when the process has SERVER_IN_FLIGHT_LIMIT in flight', async () => {
    const held = [];
    for (let i = 0; i < CLIENT_LIMIT; i++)
      held.push(await hold('/v1/carts/preview', bearer(admin.token)));
    for (let i = CLIENT_LIMIT; i < SERVER_LIMIT; i++)
      held.push(await hold('/v1/carts/preview', bearer(other.token)));

    const busy = await ctx.http.get('/v1/users/me').set(bearer(third.token));
    expect(busy.status).toBe(503);
    expect(refused(busy)).toEqual(['server_busy']);
    expect((await ctx.http.get('/health/live')).status).toBe(200);
    const metrics = await ctx.http.get('/metrics');
    expect(metrics.text).toMatch(/http_admission_refusals_total\{reason="server"\} 1\b/);
    // The two of the first test.
    expect(metrics.text).toMatch(/http_admission_refusals_total\{reason="client"\} 2\b/);

    for (const request of held) expect(await request.finish()).toBe(400);
    expect((await ctx.http.get('/v1/users/me').set(bearer(third.token))).status).toBe(200);
  });

  it('keys a request without a credential by its client address (X-Forwarded-For from a trusted proxy)', async () => {
    const from = (address: string) => ({ 'X-Forwarded-For': address });
    const held = [];
    for (let i = 0; i < CLIENT_LIMIT; i++) held.push(await hold('/v1/login', from('203.0.113.7')));

    const past = await ctx.http.post('/v1/login').set(from('203.0.113.7')).send({});
    expect(past.status).toBe(429);
    expect(refused(past)).toEqual(['too_many_in_flight']);
    // Another address, and a credential from the same address, are other clients.
    expect((await ctx.http.post('/v1/login').set(from('203.0.113.8')).send({})).status).toBe(400);
    const withToken = ctx.http.get('/v1/users/me').set(from('203.0.113.7'));
    expect((await withToken.set(bearer(admin.token))).status).toBe(200);

    for (const request of held) expect(await request.finish()).toBe(403);
  });
});
