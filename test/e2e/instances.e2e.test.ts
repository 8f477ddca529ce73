import { describe, expect, it } from 'vitest';
import { bearer, expectEnvelope, loginAdmin } from '../support/factories.js';
import { createTestApp } from '../support/test-app.js';
import { createTestDatabase } from '../support/test-database.js';

const onPostgres = Boolean(process.env.DATABASE_URL);

/** Three built processes on one PostgreSQL and one Redis, under races: three-instances.e2e.test.ts. */
describe('several instances on one database', () => {
  it('start together on a fresh database: migrations run once, both serve', async () => {
    const database = await createTestDatabase();
    try {
      // PostgreSQL is where several instances run: they start at the same moment and the
      // migration lock orders them. SQLite is one instance's embedded file: the second
      // instance starts after the first.
      const [first, second] = onPostgres
        ? await Promise.all([createTestApp({}, database), createTestApp({}, database)])
        : [await createTestApp({}, database), await createTestApp({}, database)];
      try {
        const admin = await loginAdmin(first);
        const me = await second.http.get('/v1/users/me').set(bearer(admin.token));
        expect(expectEnvelope(me, 200).data).toEqual(expect.objectContaining({ role: 'admin' }));
        expectEnvelope(await second.http.get('/health/ready'), 200);
      } finally {
        await first.close();
        await second.close();
      }
    } finally {
      await database.drop();
    }
  });
});
