import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, loginAdmin, type TestUser } from '../support/factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/** Body validation: one problem per field, a missing field as `required`. */
describe('body validation problems', () => {
  let ctx: TestContext;
  let admin: TestUser;

  beforeAll(async () => {
    ctx = await createTestApp();
    admin = await loginAdmin(ctx);
  });
  afterAll(() => ctx?.close());

  it('names each missing field once, as required (POST /v1/companies: 401, the seed status)', async () => {
    const res = await ctx.http.post('/v1/companies').set(bearer(admin.token)).send({});
    expect(res.status).toBe(401);
    expect(res.body.errors).toEqual(
      ['email', 'name', 'vat_number', 'coc_number'].map((path) => ({
        code: 'required',
        message: `${path} is required`,
        path,
      })),
    );
  });

  it('gives a field that is present but wrong the first check it fails, once', async () => {
    const res = await ctx.http
      .post('/v1/companies')
      .set(bearer(admin.token))
      .send({
        email: 'not-an-email',
        name: 5,
        vat_number: '',
        coc_number: 'x'.repeat(65),
        extra: 1,
      });
    expect(res.status).toBe(401);
    const paths = (res.body.errors as { path: string }[]).map((problem) => problem.path);
    expect(paths).toEqual(['extra', 'email', 'name', 'vat_number', 'coc_number']);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ code: 'unknown_field', path: 'extra' }),
      expect.objectContaining({ code: 'is_email', path: 'email' }),
      expect.objectContaining({ code: 'is_string', path: 'name' }),
      expect.objectContaining({ code: 'is_not_empty', path: 'vat_number' }),
      expect.objectContaining({ code: 'max_length', path: 'coc_number' }),
    ]);
  });

  it('treats null like a missing field where a value is required (POST /v1/carts/preview: 400)', async () => {
    const res = await ctx.http
      .post('/v1/carts/preview')
      .set(bearer(admin.token))
      .send({ model_id: null, company_id: 'one' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { code: 'required', message: 'model_id is required', path: 'model_id' },
      expect.objectContaining({ code: 'is_int', path: 'company_id' }),
      { code: 'required', message: 'questions is required', path: 'questions' },
    ]);
  });
});
