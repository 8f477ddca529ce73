import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createUser,
  expectEnvelope,
  loginAdmin,
  type TestUser,
} from '../support/factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

interface Pair {
  access_token: string;
  refresh_token: string;
}

/**
 * docs/security.md, "Refresh grace window": parallel refreshes of one token (two tabs, a
 * network retry) leave exactly one live session; reuse after the window revokes the family.
 */
describe('refresh grace window', () => {
  let ctx: TestContext;
  let admin: TestUser;

  beforeAll(async () => {
    // A 2 s window keeps the "after the window" case short; the default is 10 s.
    ctx = await createTestApp({ REFRESH_GRACE_SECONDS: '2' });
    admin = await loginAdmin(ctx);
  });
  afterAll(() => ctx?.close());

  const refresh = (refresh_token: string) => ctx.http.post('/v1/refresh').send({ refresh_token });

  for (const parallel of [5, 20]) {
    it(`${parallel} parallel refreshes of one token answer one and the same new pair`, async () => {
      const user = await createUser(ctx, admin);
      const answers = await Promise.all(
        Array.from({ length: parallel }, () => refresh(user.refreshToken)),
      );
      for (const res of answers) expectEnvelope(res, 201);
      const pairs = answers.map((res) => res.body.data as Pair);
      expect(new Set(pairs.map((pair) => pair.refresh_token)).size).toBe(1);
      expect(new Set(pairs.map((pair) => pair.access_token)).size).toBe(1);
      const [pair] = pairs;
      // The one session is live: its access token works and its refresh token rotates.
      expectEnvelope(await ctx.http.get('/v1/users/me').set(bearer(pair.access_token)), 200);
      const next = expectEnvelope(await refresh(pair.refresh_token), 201).data as Pair;
      expectEnvelope(await ctx.http.get('/v1/users/me').set(bearer(next.access_token)), 200);
      // A token two generations back is reuse, even within the window: the family ends.
      expectEnvelope(await refresh(user.refreshToken), 401);
      expectEnvelope(await ctx.http.get('/v1/users/me').set(bearer(next.access_token)), 401);
      expectEnvelope(await refresh(next.refresh_token), 401);
    });
  }

  it('revokes the family when the replaced token comes back after the window', async () => {
    const user = await createUser(ctx, admin);
    const pair = expectEnvelope(await refresh(user.refreshToken), 201).data as Pair;
    const again = expectEnvelope(await refresh(user.refreshToken), 201).data as Pair;
    expect(again).toEqual(pair);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expectEnvelope(await refresh(user.refreshToken), 401);
    expectEnvelope(await ctx.http.get('/v1/users/me').set(bearer(pair.access_token)), 401);
    expectEnvelope(await refresh(pair.refresh_token), 401);
  });
});
