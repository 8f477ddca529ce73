import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiFailure, dataOf, Session } from '../../web/src/api.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createTestApp,
  listenOnFreePort,
  type TestContext,
} from '../support/test-app.js';

/** The pages' session (web/src/api.ts), in Node: the same openapi-fetch client and fetch. */
describe("the pages' session: tokens in memory, refreshed before they lapse", () => {
  let ctx: TestContext;
  let base: string;

  beforeAll(async () => {
    // 10 s access tokens: always within the 30 s margin, so every call renews first.
    ctx = await createTestApp({ JWT_ACCESS_TTL: '10' });
    base = await listenOnFreePort(ctx);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('signs in, renews the access token with the refresh token, and concurrent calls share one renewal', async () => {
    // Counts the refreshes the session sends (openapi-fetch takes the global fetch when created).
    const realFetch = globalThis.fetch;
    const refreshes: string[] = [];
    globalThis.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.endsWith('/v1/refresh')) refreshes.push(url);
      return realFetch(input, init);
    };
    const session = await Session.login(base, ADMIN_EMAIL, ADMIN_PASSWORD);
    expect(session.kind).toBe('jwt');
    const first = await session.authorization();
    const me = dataOf(await session.client.GET('/v1/users/me', {}));
    expect(me.email).toBe(ADMIN_EMAIL);
    // A token signed in the same second as the last one has the same bytes: wait for the next.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = await session.authorization();
    expect(second).not.toBe(first);
    // Five calls at once: one refresh between them.
    const before = refreshes.length;
    const all = await Promise.all(
      Array.from({ length: 5 }, () => session.client.GET('/v1/users/me', {})),
    );
    expect(all.map((r) => r.response.status)).toEqual([200, 200, 200, 200, 200]);
    expect(refreshes.length - before).toBe(1);
    globalThis.fetch = realFetch;
    expect(dataOf(await session.client.GET('/v1/users/me', {})).email).toBe(ADMIN_EMAIL);

    await session.logout();
    const after = await session.client.GET('/v1/users/me', {});
    expect(after.response.status).toBe(401);
  });

  it('a wrong password is an ApiFailure with the API status and message', async () => {
    const failure = await Session.login(base, ADMIN_EMAIL, 'not-the-password').catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(ApiFailure);
    expect((failure as ApiFailure).status).toBe(403);
  });

  it('an intent session sends its token as it is, and never refreshes', async () => {
    const admin = await Session.login(base, ADMIN_EMAIL, ADMIN_PASSWORD);
    const company = dataOf(
      await admin.client.POST('/v1/companies', {
        body: {
          email: 'shop@example.test',
          name: 'Shop BV',
          vat_number: 'NL000000001B01',
          coc_number: '00000001',
        },
      }),
    );
    const intent = dataOf(
      await admin.client.POST('/v1/intents', { body: { company_id: company.id } }),
    );
    const session = new Session(base, intent.token);
    expect(session.kind).toBe('intent');
    expect(await session.authorization()).toBe(`Bearer ${intent.token}`);
    const companies = dataOf(await session.client.GET('/v1/companies', {}));
    expect(companies.map((c) => c.id)).toEqual([company.id]);
  });
});
