import { createHmac } from 'node:crypto';
import { Agent } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createUser,
  expectEnvelope,
  loginAdmin,
  type TestUser,
} from '../support/factories.js';
import { holdRequest, type HeldRequest } from '../support/held-requests.js';
import { createApiToken } from '../support/org.factories.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../support/test-app.js';
import { createTestApp, listenOnFreePort, type TestContext } from '../support/test-app.js';

const CLIENT_LIMIT = 3;
const ANONYMOUS_LIMIT = 5;
const SERVER_LIMIT = 8;

const from = (address: string) => ({ 'X-Forwarded-For': address });
const invented = (i: number) => ({ Authorization: `Bearer made-up-${i}` });

describe('admission keys: verified credentials, else the client address, in an anonymous share', () => {
  let ctx: TestContext;
  let base: string;
  let admin: TestUser;
  let other: TestUser;
  let held: HeldRequest[] = [];
  const agent = new Agent({ keepAlive: false });

  beforeAll(async () => {
    ctx = await createTestApp({
      CLIENT_IN_FLIGHT_LIMIT: String(CLIENT_LIMIT),
      ANONYMOUS_IN_FLIGHT_LIMIT: String(ANONYMOUS_LIMIT),
      SERVER_IN_FLIGHT_LIMIT: String(SERVER_LIMIT),
      TRUSTED_PROXIES: 'loopback',
    });
    base = await listenOnFreePort(ctx);
    admin = await loginAdmin(ctx);
    other = await createUser(ctx, admin);
  });
  afterEach(async () => {
    await Promise.all(held.map((request) => request.finish()));
    held = [];
  });
  afterAll(async () => {
    agent.destroy();
    await ctx?.close();
  });

  const hold = async (path: string, headers: Record<string, string>) => {
    const request = await holdRequest(base, agent, path, headers);
    held.push(request);
    return request;
  };
  const codes = (res: { status: number; body: Record<string, unknown> }) =>
    (expectEnvelope(res, res.status).errors as { code: string }[]).map((p) => p.code);

  it('counts requests with invented credentials under their client address, not under each value', async () => {
    for (let i = 0; i < CLIENT_LIMIT; i++)
      await hold('/v1/login', { ...from('203.0.113.7'), ...invented(i) });

    const another = await ctx.http
      .post('/v1/login')
      .set({ ...from('203.0.113.7'), ...invented(99) })
      .send({});
    expect(another.status).toBe(429);
    expect(codes(another)).toEqual(['too_many_in_flight']);
    // A login from that address counts there too; a genuine token from it has its own allowance.
    const anonymous = await ctx.http.post('/v1/login').set(from('203.0.113.7')).send({});
    expect(anonymous.status).toBe(429);
    const genuine = await ctx.http
      .get('/v1/users/me')
      .set({ ...from('203.0.113.7'), ...bearer(admin.token) });
    expect(genuine.status).toBe(200);
  });

  it('counts an IPv6 client by its /64', async () => {
    for (let i = 0; i < CLIENT_LIMIT; i++)
      await hold('/v1/login', { ...from(`2001:db8:1:2::${i}`), ...invented(i) });
    const sameSlash64 = await ctx.http.post('/v1/login').set(from('2001:db8:1:2:ffff::1')).send({});
    expect(sameSlash64.status).toBe(429);
    const nextSlash64 = await ctx.http.post('/v1/login').set(from('2001:db8:1:3::1')).send({});
    expect(nextSlash64.status).toBe(400);
  });

  it('keeps requests without a verified credential within their share, while verified ones are admitted', async () => {
    for (let i = 0; i < ANONYMOUS_LIMIT; i++)
      await hold('/v1/login', { ...from(`198.51.100.${i}`), ...invented(i) });

    const stranger = await ctx.http.post('/v1/login').set(from('198.51.100.200')).send({});
    expect(stranger.status).toBe(503);
    expect(codes(stranger)).toEqual(['server_busy']);
    expect((await ctx.http.get('/v1/users/me').set(bearer(other.token))).status).toBe(200);
    const metrics = await ctx.http.get('/metrics');
    expect(metrics.text).toMatch(/http_admission_refusals_total\{reason="anonymous"\} 1\b/);

    // Once one of them ends, strangers are admitted again.
    expect(await held.shift()!.finish()).toBe(403);
    const login = await ctx.http
      .post('/v1/login')
      .set(from('198.51.100.200'))
      .send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(login.status).toBe(201);
  });

  it('counts an expired or foreign-signed JWT under the address', async () => {
    const [head, payload] = admin.token.split('.');
    const forged = `${head}.${payload}.${'A'.repeat(43)}`;
    for (let i = 0; i < CLIENT_LIMIT; i++)
      await hold('/v1/login', { ...from('203.0.113.9'), ...bearer(forged) });
    const anonymous = await ctx.http.post('/v1/login').set(from('203.0.113.9')).send({});
    expect(anonymous.status).toBe(429);
  });

  it('refuses a forged token with 401 after keying it under the address: the signature is checked once, at admission', async () => {
    const [head, payload] = admin.token.split('.');
    const forgedTokens = [
      `${head}.${payload}.${'A'.repeat(43)}`,
      // The admin's claims, signed with another key.
      `${head}.${payload}.${createHmac('sha256', 'another-key').update(`${head}.${payload}`).digest('base64url')}`,
      // The admin's claims without a signature (alg none).
      `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`,
    ];
    for (const forged of forgedTokens) {
      const refused = await ctx.http.get('/v1/users/me').set(bearer(forged));
      expect(refused.status, forged).toBe(401);
      expect(codes(refused)).toEqual(['unauthenticated']);
    }
    // Keyed under the address: the forged tokens of one client share its allowance.
    for (let i = 0; i < CLIENT_LIMIT; i++) {
      const forged = forgedTokens[i % forgedTokens.length];
      await hold('/v1/login', { ...from('203.0.113.12'), ...bearer(forged) });
    }
    const past = await ctx.http
      .get('/v1/users/me')
      .set({ ...from('203.0.113.12'), ...bearer(forgedTokens[0]) });
    expect(past.status).toBe(429);
    // The genuine token is still accepted, from another address and from that one.
    expect((await ctx.http.get('/v1/users/me').set(bearer(admin.token))).status).toBe(200);
    const genuine = await ctx.http
      .get('/v1/users/me')
      .set({ ...from('203.0.113.12'), ...bearer(admin.token) });
    expect(genuine.status).toBe(200);
  });

  it('counts an API token under the token once the pipeline has accepted it', async () => {
    const secret = await createApiToken(ctx, other);
    // Unknown to admission until the pipeline accepts it once.
    expect((await ctx.http.get('/v1/models/999999').set(bearer(secret))).status).toBe(404);
    for (let i = 0; i < CLIENT_LIMIT; i++)
      await hold('/v1/login', { ...from('203.0.113.10'), ...bearer(secret) });
    const past = await ctx.http
      .get('/v1/models/999999')
      .set({ ...from('203.0.113.11'), ...bearer(secret) });
    expect(past.status).toBe(429);
    // The address it came from is still free for anonymous requests.
    const anonymous = await ctx.http.post('/v1/login').set(from('203.0.113.10')).send({});
    expect(anonymous.status).toBe(400);
  });
});
