import { createHash } from 'node:crypto';
import { DataSource, type Repository } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiTokenStrategy } from '../../src/auth/strategies/api-token.strategy.js';
import { ApiTokenEntity } from '../../src/tokens/api-token.entity.js';
import {
  bearer,
  createUser,
  errorPaths,
  expectEnvelope,
  loginAdmin,
  postRawJson,
  unique,
  type TestUser,
} from '../support/factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

interface TokenData {
  id: number;
  name: string;
  prefix: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  token?: string;
}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const inOneDay = () => new Date(Date.now() + 24 * 3600 * 1000).toISOString();
/** A route that accepts API tokens; no such supplier, so 404 once authenticated. */
const API_ROUTE = '/v1/suppliers/999999';

describe('API tokens: POST/GET /v1/tokens, DELETE /v1/tokens/{id}', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let user: TestUser;
  let repo: Repository<ApiTokenEntity>;
  let strategy: ApiTokenStrategy;

  const createToken = (by: TestUser, body: Record<string, unknown>) =>
    ctx.http.post('/v1/tokens').set(bearer(by.token)).send(body);
  /** Does the API-token strategy (used on /suppliers and /models routes) accept this secret? */
  const accepted = async (secret: string) => (await strategy.validate(secret)) !== false;

  beforeAll(async () => {
    ctx = await createTestApp();
    admin = await loginAdmin(ctx);
    user = await createUser(ctx, admin);
    repo = ctx.app.get(DataSource).getRepository(ApiTokenEntity);
    strategy = ctx.app.get(ApiTokenStrategy);
  });
  afterAll(() => ctx?.close());

  it('creates a token: 201, the cfg_ secret shown once, only its sha256 stored', async () => {
    const name = unique('erp');
    const body = expectEnvelope(await createToken(user, { name }), 201);
    expect(body.message).toBe('API token created');
    const data = body.data as TokenData;
    expect(data).toEqual({
      id: expect.any(Number),
      name,
      prefix: expect.stringMatching(/^cfg_/),
      created_at: expect.stringMatching(ISO_MS),
      expires_at: null,
      last_used_at: null,
      token: expect.stringMatching(/^cfg_[A-Za-z0-9_-]{43}$/),
    });
    expect(data.token?.startsWith(data.prefix)).toBe(true);

    const row = await repo.findOneByOrFail({ id: data.id });
    expect(row.tokenHash).toBe(createHash('sha256').update(data.token!).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(data.token!);
    expect(await accepted(data.token!)).toBe(true);
  });

  it('keeps a future expires_at, normalised to ISO 8601 UTC with milliseconds', async () => {
    const expiresAt = '2099-06-01T12:00:00+02:00';
    const res = await createToken(user, { name: unique('exp'), expires_at: expiresAt });
    const data = expectEnvelope(res, 201).data as TokenData;
    expect(data.expires_at).toBe('2099-06-01T10:00:00.000Z');
  });

  it('answers 400 with every problem for an invalid body', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{}, ['name']],
      [{ name: '' }, ['name']],
      [{ name: '   ' }, ['name']],
      [{ name: 'x'.repeat(101) }, ['name']],
      [{ name: 42 }, ['name']],
      [{ name: 'ok', expires_at: 'tomorrow' }, ['expires_at']],
      [{ name: 'ok', expires_at: '2099-02-30T00:00:00Z' }, ['expires_at']],
      [{ name: 'ok', expires_at: '2001-01-01T00:00:00.000Z' }, ['expires_at']],
      [{ name: 'ok', extra: true }, ['extra']],
      [{ expires_at: 'x', other: 1 }, ['name', 'expires_at', 'other']],
    ];
    for (const [input, paths] of cases) {
      const body = expectEnvelope(await createToken(user, input), 400);
      expect(errorPaths(body), JSON.stringify(input)).toEqual(expect.arrayContaining(paths));
    }
    expectEnvelope(await postRawJson(ctx, '/v1/tokens', user.token, '{"name":'), 400);
  });

  it('accepts a name of exactly 100 characters', async () => {
    const name = unique('n').padEnd(100, 'x');
    expect((expectEnvelope(await createToken(user, { name }), 201).data as TokenData).name).toBe(
      name,
    );
  });

  it('answers 403 on POST without a usable JWT access token (seed contract)', async () => {
    const apiToken = (
      expectEnvelope(await createToken(user, { name: unique('t') }), 201).data as TokenData
    ).token!;
    const attempts = [
      ctx.http.post('/v1/tokens').send({ name: 'a' }),
      ctx.http.post('/v1/tokens').set(bearer('not-a-token')).send({ name: 'a' }),
      ctx.http.post('/v1/tokens').set('Authorization', user.token).send({ name: 'a' }),
      ctx.http.post('/v1/tokens').set(bearer(apiToken)).send({ name: 'a' }),
      ctx.http.post('/v1/tokens').set(bearer(user.refreshToken)).send({ name: 'a' }),
    ];
    for (const attempt of attempts) {
      const body = expectEnvelope(await attempt, 403);
      expect(body.errors).toEqual([expect.objectContaining({ code: 'unauthenticated' })]);
    }
    // The token-issuing route never mints a token for a bad credential.
    expect(await repo.countBy({ name: 'a' })).toBe(0);
  });

  it('answers 409 for a second live token with the same name; other users and revoked names are free', async () => {
    const name = unique('dup');
    const first = expectEnvelope(await createToken(user, { name }), 201).data as TokenData;
    const again = expectEnvelope(await createToken(user, { name }), 409);
    expect(again.errors).toEqual([expect.objectContaining({ code: 'duplicate', path: 'name' })]);
    expectEnvelope(await createToken(user, { name: ` ${name} ` }), 409);
    expectEnvelope(await createToken(admin, { name }), 201);

    expectEnvelope(await ctx.http.delete(`/v1/tokens/${first.id}`).set(bearer(user.token)), 200);
    expectEnvelope(await createToken(user, { name }), 201);
  });

  it('lists only the caller’s live tokens, without secrets, with pagination links', async () => {
    const owner = await createUser(ctx, admin);
    const names = [unique('a'), unique('b'), unique('c')];
    const secrets: string[] = [];
    for (const name of names) {
      secrets.push(
        (expectEnvelope(await createToken(owner, { name }), 201).data as TokenData).token!,
      );
    }
    const revoked = expectEnvelope(await createToken(owner, { name: unique('gone') }), 201)
      .data as TokenData;
    await ctx.http.delete(`/v1/tokens/${revoked.id}`).set(bearer(owner.token));
    expectEnvelope(await createToken(user, { name: unique('other-user') }), 201);

    const page1 = await ctx.http.get('/v1/tokens?per_page=2').set(bearer(owner.token));
    const body1 = expectEnvelope(page1, 200);
    expect(body1.message).toBe('API tokens found');
    expect((body1.data as TokenData[]).map((t) => t.name)).toEqual(names.slice(0, 2));
    expect(body1.links).toEqual({
      self: '/v1/tokens?per_page=2&page=1',
      first: '/v1/tokens?per_page=2&page=1',
      next: '/v1/tokens?per_page=2&page=2',
      last: '/v1/tokens?per_page=2&page=2',
    });
    const page2 = await ctx.http.get('/v1/tokens?page=2&per_page=2').set(bearer(owner.token));
    const body2 = expectEnvelope(page2, 200);
    expect((body2.data as TokenData[]).map((t) => t.name)).toEqual([names[2]]);
    expect(body2.links).toEqual(expect.objectContaining({ prev: '/v1/tokens?page=1&per_page=2' }));
    expect(body2.links).not.toHaveProperty('next');

    const listed = [...(body1.data as TokenData[]), ...(body2.data as TokenData[])];
    for (const token of listed) {
      expect(Object.keys(token).sort()).toEqual(
        ['created_at', 'expires_at', 'id', 'last_used_at', 'name', 'prefix'].sort(),
      );
    }
    const raw = JSON.stringify([body1, body2]);
    for (const secret of secrets) expect(raw).not.toContain(secret);
  });

  it('shows last_used_at once a token has been used', async () => {
    const owner = await createUser(ctx, admin);
    const created = expectEnvelope(await createToken(owner, { name: unique('used') }), 201)
      .data as TokenData;
    expect(await accepted(created.token!)).toBe(true);
    const list = expectEnvelope(await ctx.http.get('/v1/tokens').set(bearer(owner.token)), 200);
    const [listed] = list.data as TokenData[];
    expect(listed.last_used_at).toMatch(ISO_MS);
  });

  it('answers 400 for bad paging and 401 on the list without a JWT access token', async () => {
    expectEnvelope(await ctx.http.get('/v1/tokens?per_page=201').set(bearer(user.token)), 400);
    expectEnvelope(await ctx.http.get('/v1/tokens?page=0').set(bearer(user.token)), 400);
    expectEnvelope(await ctx.http.get('/v1/tokens'), 401);
    const secret = (
      expectEnvelope(await createToken(user, { name: unique('l') }), 201).data as TokenData
    ).token!;
    expectEnvelope(await ctx.http.get('/v1/tokens').set(bearer(secret)), 401);
  });

  it('revokes a token: 200, it stops authenticating and leaves the list', async () => {
    const created = expectEnvelope(await createToken(user, { name: unique('rev') }), 201)
      .data as TokenData;
    expect(await accepted(created.token!)).toBe(true);

    const res = await ctx.http.delete(`/v1/tokens/${created.id}`).set(bearer(user.token));
    const body = expectEnvelope(res, 200);
    expect(body.message).toBe('API token revoked');
    expect(body.data).toBeNull();

    expect(await accepted(created.token!)).toBe(false);
    const list = expectEnvelope(
      await ctx.http.get('/v1/tokens?per_page=200').set(bearer(user.token)),
      200,
    );
    expect((list.data as TokenData[]).map((t) => t.id)).not.toContain(created.id);
    expectEnvelope(await ctx.http.delete(`/v1/tokens/${created.id}`).set(bearer(user.token)), 404);
  });

  it('authenticates on GET /v1/suppliers/{id} until revoked, then 401', async () => {
    const created = expectEnvelope(await createToken(user, { name: unique('route') }), 201)
      .data as TokenData;
    // Authenticated: the supplier does not exist (404), instead of a refused credential.
    expectEnvelope(await ctx.http.get(API_ROUTE).set(bearer(created.token!)), 404);
    await ctx.http.delete(`/v1/tokens/${created.id}`).set(bearer(user.token));
    expectEnvelope(await ctx.http.get(API_ROUTE).set(bearer(created.token!)), 401);
    expectEnvelope(await ctx.http.get(API_ROUTE), 401);
  });

  it('answers 404 when revoking another user’s token, an unknown id or a non-id; 401 without JWT', async () => {
    const mine = expectEnvelope(await createToken(user, { name: unique('mine') }), 201)
      .data as TokenData;
    const other = await createUser(ctx, admin);
    for (const path of [`/v1/tokens/${mine.id}`, '/v1/tokens/999999', '/v1/tokens/abc']) {
      expectEnvelope(await ctx.http.delete(path).set(bearer(other.token)), 404);
    }
    expectEnvelope(await ctx.http.delete(`/v1/tokens/${mine.id}`), 401);
    expectEnvelope(await ctx.http.delete(`/v1/tokens/${mine.id}`).set(bearer(mine.token!)), 401);
    expect(await accepted(mine.token!)).toBe(true);
  });

  it('refuses an expired token, hides it from the list and frees its name', async () => {
    const owner = await createUser(ctx, admin);
    const name = unique('short');
    const created = expectEnvelope(await createToken(owner, { name, expires_at: inOneDay() }), 201)
      .data as TokenData;
    expect(await accepted(created.token!)).toBe(true);

    await repo.update({ id: created.id }, { expiresAt: new Date(Date.now() - 1000) });
    expect(await accepted(created.token!)).toBe(false);
    expectEnvelope(await ctx.http.get(API_ROUTE).set(bearer(created.token!)), 401);
    const list = expectEnvelope(await ctx.http.get('/v1/tokens').set(bearer(owner.token)), 200);
    expect(list.data).toEqual([]);
    expect(list.links).toEqual(expect.objectContaining({ self: expect.any(String) }));

    const again = expectEnvelope(await createToken(owner, { name }), 201).data as TokenData;
    expect(again.id).not.toBe(created.id);
    expect(await accepted(created.token!)).toBe(false);
  });
});
