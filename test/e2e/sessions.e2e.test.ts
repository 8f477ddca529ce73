import { JwtService } from '@nestjs/jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createUser,
  expectEnvelope,
  login,
  loginAdmin,
  type TestUser,
} from '../support/factories.js';
import { createApiToken, createCompany, createIntent } from '../support/org.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

interface TokenPair {
  access_token: string;
  refresh_token: string;
}

describe('sessions: refresh rotation, logout, credential kinds', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let jwt: JwtService;

  const refresh = (refreshToken: unknown) =>
    ctx.http.post('/v1/refresh').send({ refresh_token: refreshToken });
  const me = (token: string) => ctx.http.get('/v1/users/me').set(bearer(token));
  /** A JWT signed like the service's own (same secret, issuer, audience) unless overridden. */
  const sign = (claims: Record<string, unknown>, options: Record<string, unknown> = {}) =>
    jwt.sign(claims, {
      secret: ctx.config.jwt.secret,
      algorithm: 'HS256',
      issuer: ctx.config.jwt.issuer,
      audience: ctx.config.jwt.audience,
      ...options,
    });

  beforeAll(async () => {
    ctx = await createTestApp();
    admin = await loginAdmin(ctx);
    jwt = new JwtService();
  });
  afterAll(() => ctx?.close());

  it('rotates: 201 with a new pair, and the new access token works', async () => {
    const user = await createUser(ctx, admin);
    const body = expectEnvelope(await refresh(user.refreshToken), 201);
    expect(body.message).toBe('Tokens refreshed');
    const pair = body.data as TokenPair;
    expect(pair).toEqual(
      expect.objectContaining({ access_token: expect.any(String), token_type: 'Bearer' }),
    );
    expect(pair.refresh_token).not.toBe(user.refreshToken);
    const who = expectEnvelope(await me(pair.access_token), 200);
    expect(who.data).toEqual(expect.objectContaining({ id: user.id }));
    // A chain of rotations: each newest token works once.
    const next = expectEnvelope(await refresh(pair.refresh_token), 201).data as TokenPair;
    expectEnvelope(await refresh(next.refresh_token), 201);
  });

  it('detects reuse: an already used refresh token revokes the whole family', async () => {
    const user = await createUser(ctx, admin);
    const first = expectEnvelope(await refresh(user.refreshToken), 201).data as TokenPair;
    // Two rotations: the login's token is no longer the one just replaced (grace window).
    const second = expectEnvelope(await refresh(first.refresh_token), 201).data as TokenPair;

    const replay = expectEnvelope(await refresh(user.refreshToken), 401);
    expect(replay.errors).toEqual([expect.objectContaining({ code: 'invalid_refresh_token' })]);
    // The newest token of the family is dead too: the thief and the owner both start over.
    expectEnvelope(await refresh(second.refresh_token), 401);

    // Other sessions of the same user are untouched.
    const other = await login(ctx, user.email, user.password);
    expectEnvelope(await refresh(other.refreshToken), 201);
  });

  it('answers two concurrent uses of a refresh token with one and the same pair', async () => {
    const user = await createUser(ctx, admin);
    const results = await Promise.all([refresh(user.refreshToken), refresh(user.refreshToken)]);
    expect(results.map((r) => r.status)).toEqual([201, 201]);
    expect(results[0].body.data).toEqual(results[1].body.data);
  });

  it('answers 401 for a missing, malformed or foreign refresh token and 400 for extra fields', async () => {
    const user = await createUser(ctx, admin);
    expectEnvelope(await ctx.http.post('/v1/refresh'), 401);
    expectEnvelope(await refresh('not-a-jwt'), 401);
    expectEnvelope(await refresh(42), 401);
    // An access token is not a refresh token, in the body or the header.
    expectEnvelope(await refresh(user.token), 401);
    expectEnvelope(await ctx.http.post('/v1/refresh').set(bearer(user.refreshToken)), 401);
    const extra = await ctx.http
      .post('/v1/refresh')
      .send({ refresh_token: user.refreshToken, remember: true });
    expectEnvelope(extra, 400);
  });

  it('logs out with the access token: its refresh token and the access token itself stop working', async () => {
    const user = await createUser(ctx, admin);
    const other = await login(ctx, user.email, user.password);
    const res = await ctx.http.post('/v1/logout').set(bearer(user.token));
    const body = expectEnvelope(res, 200);
    expect(body.message).toBe('Logged out');
    expect(body.data).toBeNull();
    expectEnvelope(await refresh(user.refreshToken), 401);
    expectEnvelope(await ctx.http.get('/v1/users/me').set(bearer(user.token)), 401);
    expectEnvelope(await ctx.http.get('/v1/users/me').set(bearer(other.token)), 200);
  });

  it('logs out with {refresh_token}: that family is revoked, other sessions live on', async () => {
    const user = await createUser(ctx, admin);
    const other = await login(ctx, user.email, user.password);
    const rotated = expectEnvelope(await refresh(user.refreshToken), 201).data as TokenPair;
    const res = await ctx.http.post('/v1/logout').send({ refresh_token: rotated.refresh_token });
    expectEnvelope(res, 200);
    expectEnvelope(await refresh(rotated.refresh_token), 401);
    expectEnvelope(await refresh(other.refreshToken), 201);
  });

  it('answers 401 on logout without a usable credential', async () => {
    const user = await createUser(ctx, admin);
    expectEnvelope(await ctx.http.post('/v1/logout'), 401);
    expectEnvelope(await ctx.http.post('/v1/logout').send({ refresh_token: 'nope' }), 401);
    expectEnvelope(await ctx.http.post('/v1/logout').set(bearer(user.refreshToken)), 401);
    const apiToken = await createApiToken(ctx, user);
    expectEnvelope(await ctx.http.post('/v1/logout').set(bearer(apiToken)), 401);
    expectEnvelope(await refresh(user.refreshToken), 201);
  });

  it('never accepts a token of one kind as another', async () => {
    const user = await createUser(ctx, admin);
    const company = await createCompany(ctx, user);
    const intent = await createIntent(ctx, user, company.id);
    const apiToken = await createApiToken(ctx, user);

    expectEnvelope(await me(user.token), 200);
    for (const other of [user.refreshToken, apiToken, intent]) {
      expectEnvelope(await me(other), 401);
    }
    // /v1/tokens is a seed endpoint: a wrong kind answers 403 there.
    for (const other of [user.refreshToken, apiToken, intent]) {
      const res = await ctx.http.post('/v1/tokens').set(bearer(other)).send({ name: 'x' });
      expectEnvelope(res, 403);
    }
    expectEnvelope(await refresh(intent), 401);
    // A refresh token cannot open an intent-only or API-token path either.
    const companyPath = `/v1/companies/${company.id}`;
    expectEnvelope(await ctx.http.get(companyPath).set(bearer(user.refreshToken)), 403);
    expectEnvelope(await ctx.http.get('/v1/suppliers/1').set(bearer(user.refreshToken)), 401);
  });

  it('refuses forged, expired and tampered JWTs', async () => {
    const user = await createUser(ctx, admin);
    // Access tokens name their live session (refresh family); reuse the user's own.
    const { fam } = JSON.parse(Buffer.from(user.token.split('.')[1], 'base64url').toString());
    const claims = { sub: String(user.id), typ: 'access', fam };
    const now = Math.floor(Date.now() / 1000);

    // The control: a token signed exactly like the service's own is accepted.
    expectEnvelope(await me(sign(claims, { expiresIn: 60 })), 200);

    const refused = {
      expired: sign({ ...claims, iat: now - 120, exp: now - 60 }),
      otherSecret: sign(claims, { secret: 'another-secret-that-is-long-enough-0123456789' }),
      otherAlgorithm: sign(claims, { algorithm: 'HS512', expiresIn: 60 }),
      otherIssuer: sign(claims, { issuer: 'someone-else', expiresIn: 60 }),
      otherAudience: sign(claims, { audience: 'another-api', expiresIn: 60 }),
      noType: sign({ sub: String(user.id) }, { expiresIn: 60 }),
      unknownUser: sign({ ...claims, sub: '999999' }, { expiresIn: 60 }),
      algNone: unsigned({ ...claims, iss: ctx.config.jwt.issuer, aud: ctx.config.jwt.audience }),
      tampered: retarget(user.token, 1),
    };
    for (const [name, token] of Object.entries(refused)) {
      const res = await me(token);
      expect(res.status, name).toBe(401);
      expectEnvelope(res, 401);
    }
    // On a seed endpoint the same refusal is a 403.
    const res = await ctx.http.post('/v1/tokens').set(bearer(refused.expired)).send({ name: 'x' });
    expectEnvelope(res, 403);
  });

  it('gives access tokens the lifetime JWT_ACCESS_TTL sets (expiry itself: see above)', async () => {
    const shortLived = await createTestApp({ JWT_ACCESS_TTL: '10' });
    try {
      const res = await shortLived.http
        .post('/v1/login')
        .send({ email: 'admin@example.test', password: 'admin-password-for-tests' });
      const pair = expectEnvelope(res, 201).data as TokenPair & { expires_in: number };
      expect(pair.expires_in).toBe(10);
      const claims = JSON.parse(
        Buffer.from(pair.access_token.split('.')[1], 'base64url').toString('utf8'),
      ) as { iat: number; exp: number };
      expect(claims.exp - claims.iat).toBe(10);
    } finally {
      await shortLived.close();
    }
  });
});

/** An `alg: none` JWT: claims without a signature. */
function unsigned(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ iat: now, exp: now + 60, ...claims })}.`;
}

/** The same token with its `sub` changed but the original signature kept. */
function retarget(token: string, userId: number): string {
  const [header, payload, signature] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  const forged = Buffer.from(JSON.stringify({ ...claims, sub: String(userId) })).toString(
    'base64url',
  );
  return `${header}.${forged}.${signature}`;
}
