import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createUser,
  expectEnvelope,
  loginAdmin,
  type TestUser,
} from '../support/factories.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createTestApp,
  type TestContext,
} from '../support/test-app.js';

describe('auth: login, users, envelope', () => {
  let ctx: TestContext;
  let admin: TestUser;

  beforeAll(async () => {
    ctx = await createTestApp();
    admin = await loginAdmin(ctx);
  });
  afterAll(() => ctx?.close());

  it('logs the bootstrap admin in (201, tokens, message)', async () => {
    const res = await ctx.http
      .post('/v1/login')
      .send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    const body = expectEnvelope(res, 201);
    expect(body.message).toBe('User logged in');
    expect(body.data).toEqual(
      expect.objectContaining({
        access_token: expect.any(String),
        refresh_token: expect.any(String),
      }),
    );
  });

  it('takes the email as any DTO does: trimmed, any case (EmailAddress)', async () => {
    const res = await ctx.http
      .post('/v1/login')
      .send({ email: `  ${ADMIN_EMAIL.toUpperCase()} `, password: ADMIN_PASSWORD });
    expectEnvelope(res, 201);
  });

  it('answers 403 alike for an unknown email and a wrong password', async () => {
    const unknown = await ctx.http
      .post('/v1/login')
      .send({ email: 'nobody@example.test', password: 'whatever-1' });
    const wrong = await ctx.http
      .post('/v1/login')
      .send({ email: ADMIN_EMAIL, password: 'wrong-password' });
    expectEnvelope(unknown, 403);
    expectEnvelope(wrong, 403);
    expect(unknown.body).toEqual(wrong.body);
  });

  it('answers 400 with every problem for an invalid login body', async () => {
    const res = await ctx.http.post('/v1/login').send({ email: 'not-an-email', extra: 1 });
    const body = expectEnvelope(res, 400);
    const paths = (body.errors as { path?: string }[]).map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['email', 'password', 'extra']));
  });

  it('answers 400 for malformed JSON on login', async () => {
    const res = await ctx.http
      .post('/v1/login')
      .set('Content-Type', 'application/json')
      .send('{"email":');
    expectEnvelope(res, 400);
  });

  it('answers 413 for a JSON body over the limit', async () => {
    const res = await ctx.http
      .post('/v1/login')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(1_100_000) }));
    expectEnvelope(res, 413);
  });

  it('answers 404 in the envelope for an unknown route', async () => {
    expectEnvelope(await ctx.http.get('/v1/nothing-here'), 404);
  });

  it('creates users (admin only) and tells who is calling', async () => {
    const member = await createUser(ctx, admin);
    const me = expectEnvelope(await ctx.http.get('/v1/users/me').set(bearer(member.token)), 200);
    expect(me.data).toEqual(
      expect.objectContaining({ id: member.id, email: member.email, role: 'member' }),
    );
    expect(JSON.stringify(me.data)).not.toContain('password');

    const refused = await ctx.http
      .post('/v1/users')
      .set(bearer(member.token))
      .send({ email: 'x@example.test', password: 'long-enough-1' });
    expectEnvelope(refused, 403);
    const duplicate = await ctx.http
      .post('/v1/users')
      .set(bearer(admin.token))
      .send({ email: member.email, password: 'long-enough-1' });
    expectEnvelope(duplicate, 409);
    expectEnvelope(await ctx.http.get('/v1/users/me'), 401);
  });

  it('serves the health probes without credentials', async () => {
    expectEnvelope(await ctx.http.get('/health/live'), 200);
    const ready = expectEnvelope(await ctx.http.get('/health/ready'), 200);
    expect(ready.data).toEqual(expect.objectContaining({ status: 'ok' }));
  });
});
