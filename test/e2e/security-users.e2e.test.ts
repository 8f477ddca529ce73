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
import { rowSnapshot } from '../support/row-snapshot.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/** docs/security.md, "User lifecycle": PATCH /v1/users/me and PATCH /v1/users/{id}. */
describe('user lifecycle', () => {
  let ctx: TestContext;
  let admin: TestUser;

  beforeAll(async () => {
    ctx = await createTestApp();
    admin = await loginAdmin(ctx);
  });
  afterAll(() => ctx?.close());

  const patchMe = (user: TestUser, body: Record<string, unknown>) =>
    ctx.http.patch('/v1/users/me').set(bearer(user.token)).send(body);

  it('changes one’s name, and the password only with the current one', async () => {
    const user = await createUser(ctx, admin);
    const named = expectEnvelope(await patchMe(user, { name: 'New Name' }), 200);
    expect(named.data).toEqual(expect.objectContaining({ id: user.id, name: 'New Name' }));

    const before = await rowSnapshot(ctx);
    expectEnvelope(await patchMe(user, { password: 'another-password' }), 403);
    const wrong = await patchMe(user, { password: 'another-password', current_password: 'nope' });
    expect(expectEnvelope(wrong, 403).errors).toEqual([
      expect.objectContaining({ path: 'current_password' }),
    ]);
    expectEnvelope(
      await patchMe(user, { password: 'short', current_password: user.password }),
      400,
    );
    expectEnvelope(await patchMe(user, { role: 'admin' }), 400);
    expect(await rowSnapshot(ctx)).toEqual(before);
    await login(ctx, user.email, user.password);

    const otherSession = await login(ctx, user.email, user.password);
    const changed = await patchMe(user, {
      password: 'another-password',
      current_password: user.password,
    });
    expectEnvelope(changed, 200);
    // The session that changed it goes on; the user's other sessions end.
    expectEnvelope(await ctx.http.get('/v1/users/me').set(bearer(user.token)), 200);
    expectEnvelope(await ctx.http.get('/v1/users/me').set(bearer(otherSession.token)), 401);
    expectEnvelope(
      await ctx.http.post('/v1/login').send({ email: user.email, password: user.password }),
      403,
    );
    await login(ctx, user.email, 'another-password');
  });

  it('lets only admins change roles, and not their own', async () => {
    const user = await createUser(ctx, admin);
    const other = await createUser(ctx, admin);
    const before = await rowSnapshot(ctx);
    expectEnvelope(
      await ctx.http.patch(`/v1/users/${other.id}`).set(bearer(user.token)).send({ role: 'admin' }),
      403,
    );
    expectEnvelope(
      await ctx.http
        .patch(`/v1/users/${admin.id}`)
        .set(bearer(admin.token))
        .send({ disabled: true }),
      409,
    );
    expectEnvelope(
      await ctx.http.patch('/v1/users/999999').set(bearer(admin.token)).send({ role: 'admin' }),
      404,
    );
    expect(await rowSnapshot(ctx)).toEqual(before);
    const promoted = await ctx.http
      .patch(`/v1/users/${user.id}`)
      .set(bearer(admin.token))
      .send({ role: 'admin' });
    expect(expectEnvelope(promoted, 200).data).toEqual(
      expect.objectContaining({ role: 'admin', disabled: false }),
    );
  });

  it('disabling ends every session, API token and intent token at once; no login after', async () => {
    const user = await createUser(ctx, admin);
    const second = await login(ctx, user.email, user.password);
    const company = await createCompany(ctx, user);
    const apiToken = await createApiToken(ctx, user);
    const intent = await createIntent(ctx, user, company.id);
    expectEnvelope(await ctx.http.get('/v1/users/me').set(bearer(second.token)), 200);
    expectEnvelope(await ctx.http.get(`/v1/companies/${company.id}`).set(bearer(intent)), 200);

    const res = await ctx.http
      .patch(`/v1/users/${user.id}`)
      .set(bearer(admin.token))
      .send({ disabled: true });
    expect(expectEnvelope(res, 200).data).toEqual(expect.objectContaining({ disabled: true }));

    expectEnvelope(await ctx.http.get('/v1/users/me').set(bearer(user.token)), 401);
    expectEnvelope(await ctx.http.get('/v1/users/me').set(bearer(second.token)), 401);
    expectEnvelope(
      await ctx.http.post('/v1/refresh').send({ refresh_token: user.refreshToken }),
      401,
    );
    expectEnvelope(await ctx.http.get('/v1/suppliers/1').set(bearer(apiToken)), 401);
    expectEnvelope(await ctx.http.get(`/v1/companies/${company.id}`).set(bearer(intent)), 403);
    const refused = await ctx.http
      .post('/v1/login')
      .send({ email: user.email, password: user.password });
    expectEnvelope(refused, 403);

    // Enabled again, the user logs in anew; the old credentials stay revoked.
    expectEnvelope(
      await ctx.http
        .patch(`/v1/users/${user.id}`)
        .set(bearer(admin.token))
        .send({ disabled: false }),
      200,
    );
    await login(ctx, user.email, user.password);
    expectEnvelope(await ctx.http.get('/v1/users/me').set(bearer(second.token)), 401);
    expectEnvelope(await ctx.http.get(`/v1/companies/${company.id}`).set(bearer(intent)), 403);
    expectEnvelope(await ctx.http.get('/v1/suppliers/1').set(bearer(apiToken)), 401);
  });
});
