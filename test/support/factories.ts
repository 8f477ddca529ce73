import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type HttpContext } from './test-app.js';

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A value unique to this run, for emails, VAT numbers and names. */
export const unique = (prefix = 'x'): string => `${prefix}-${randomBytes(5).toString('hex')}`;

export interface TestUser {
  id: number;
  email: string;
  password: string;
  token: string;
  refreshToken: string;
  /** The device token the login answered (`device_token`). */
  deviceToken?: string;
}

export async function login(ctx: HttpContext, email: string, password: string): Promise<TestUser> {
  const res = await ctx.http.post('/v1/login').send({ email, password });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const token = res.body.data.access_token as string;
  const me = await ctx.http.get('/v1/users/me').set(bearer(token));
  expect(me.status).toBe(200);
  return {
    id: me.body.data.id,
    email,
    password,
    token,
    refreshToken: res.body.data.refresh_token,
    deviceToken: res.body.data.device_token,
  };
}

/** The admin created at start-up from ADMIN_EMAIL / ADMIN_PASSWORD. */
export function loginAdmin(ctx: HttpContext): Promise<TestUser> {
  return login(ctx, ADMIN_EMAIL, ADMIN_PASSWORD);
}

/** A new user (member unless `role` says admin), created by the admin, logged in. */
export async function createUser(
  ctx: HttpContext,
  admin: TestUser,
  options: { role?: 'admin' | 'member'; email?: string } = {},
): Promise<TestUser> {
  const email = options.email ?? `${unique('user')}@example.test`;
  const password = `pw-${unique()}`;
  const res = await ctx.http
    .post('/v1/users')
    .set(bearer(admin.token))
    .send({ email, password, role: options.role ?? 'member' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return login(ctx, email, password);
}

/** A problem of an error envelope. */
export interface Problem {
  code: string;
  message: string;
  path?: string;
}

/** The problems (`errors`) of an envelope. */
export const problemsOf = (body: Record<string, unknown>): Problem[] => body.errors as Problem[];

/** The paths of the problems of an envelope. */
export const errorPaths = (body: Record<string, unknown>): (string | undefined)[] =>
  problemsOf(body).map((problem) => problem.path);

/** The ids of the items of a list. */
export const idsOf = (data: unknown): number[] => (data as { id: number }[]).map((item) => item.id);

/** POST `text` as-is with Content-Type application/json (for malformed JSON). */
export function postRawJson(ctx: HttpContext, path: string, token: string, text: string) {
  return ctx.http.post(path).set(bearer(token)).set('Content-Type', 'application/json').send(text);
}

/** Asserts the envelope's shape and returns the body. */
export function expectEnvelope(
  res: { status: number; body: Record<string, unknown> },
  status: number,
): Record<string, unknown> {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toEqual(
    expect.objectContaining({
      code: status,
      message: expect.any(String),
      links: expect.any(Object),
    }),
  );
  expect(Array.isArray(res.body.errors)).toBe(true);
  expect('data' in res.body).toBe(true);
  if (status < 400) expect(res.body.errors).toEqual([]);
  else expect(res.body.data).toBeNull();
  return res.body;
}
