import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, startBuiltServer, type BuiltServer } from '../support/built-server.js';
import {
  bearer,
  createUser,
  expectEnvelope,
  problemsOf,
  unique,
  type TestUser,
} from '../support/factories.js';
import {
  createModelWorld,
  minimalModel,
  sendModel,
  uploadModel,
  type ModelWorld,
  type TestModel,
} from '../support/model.factories.js';
import { addCompanyMember, addSupplierMember } from '../support/org.factories.js';
import { startRedis, stopProcess } from '../support/processes.js';
import { testEnv, type HttpContext } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

const onPostgres = Boolean(process.env.DATABASE_URL);
const LOGIN_LIMIT = 3;
const CART_MAX_LINES = 25;

interface Instance extends HttpContext {
  server: BuiltServer;
}

/**
 * Three processes of the built service on one PostgreSQL and one Redis, every scenario's
 * requests spread over them (request i goes to instance i mod 3): nothing lost, nothing
 * doubled, no 5xx. SQLite is skipped: it is one process's embedded file, so several
 * instances are a PostgreSQL deployment (docs/OPERATIONS.md "Scaling out").
 */
describe.skipIf(!onPostgres)('three instances on one PostgreSQL and one Redis', () => {
  let database: TestDatabase;
  let redis: Awaited<ReturnType<typeof startRedis>>;
  const instances: Instance[] = [];
  let world: ModelWorld;
  let model: TestModel;
  const modelCode = unique('THREE');
  const statuses: number[] = [];

  /** Instance i mod 3, recording every status it answers. */
  const on = (i: number) => instances[i % instances.length].http;
  const record = <T extends { status: number }>(res: T): T => {
    statuses.push(res.status);
    return res;
  };
  const spread = <T extends { status: number }>(n: number, send: (i: number) => Promise<T>) =>
    Promise.all(Array.from({ length: n }, (_, i) => send(i).then(record)));

  beforeAll(async () => {
    ensureBuilt();
    database = await createTestDatabase();
    redis = await startRedis();
    const env = testEnv(database, {
      REDIS_URL: redis.url,
      LOGIN_RATE_LIMIT: String(LOGIN_LIMIT),
      LOGIN_CLIENT_RATE_LIMIT: '1000',
      TRUSTED_PROXIES: 'loopback',
      CART_MAX_LINES: String(CART_MAX_LINES),
      LOG_LEVEL: 'warn',
      SWAGGER_ENABLED: 'false',
      SHUTDOWN_DELAY: '0',
    });
    // All three start at once: the migration lock orders them.
    const servers = await Promise.all([0, 1, 2].map(() => startBuiltServer(env, database.dataDir)));
    for (const server of servers)
      instances.push({ server, http: supertest.agent(server.url) } as Instance);
    world = await createModelWorld(instances[0]);
    model = await uploadModel(
      instances[1],
      world.supplier.id,
      world.supplierMember.token,
      minimalModel(modelCode),
    );
  }, 240_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => stopProcess(instance.server.child)));
    await redis?.stop();
    await database?.drop();
    // No 5xx anywhere, in any scenario.
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
  });

  const member = (): TestUser => world.companyMember;
  const line = (extra: Record<string, unknown> = {}) => ({
    model_id: model.id,
    company_id: world.company.id,
    questions: { size: { values: ['s'] } },
    ...extra,
  });
  const cartsOf = async (token: string) => {
    const res = await on(0).get('/v1/carts?per_page=50').set(bearer(token));
    if (res.status === 400) return [];
    return expectEnvelope(res, 200).data as { cart_id: string; default: boolean }[];
  };
  const linesOf = async (token: string, cartId: string) =>
    (
      expectEnvelope(await on(2).get(`/v1/carts/${cartId}?per_page=50`).set(bearer(token)), 200)
        .data as { lines: { id: number }[] }
    ).lines;

  it('20 concurrent first carts: all 201, exactly one default', async () => {
    const user = await createUser(instances[0], world.admin);
    const answers = await spread(20, (i) =>
      on(i)
        .post('/v1/carts/new')
        .set(bearer(user.token))
        .send({ reference: `r${i}` }),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(20).fill(201));
    expect(answers.filter((res) => res.body.data.default === true)).toHaveLength(1);
    const carts = await cartsOf(user.token);
    expect(carts).toHaveLength(20);
    expect(carts.filter((cart) => cart.default)).toHaveLength(1);
  });

  it('20 concurrent lines without a cart: one default cart holding all 20', async () => {
    const user = await createUser(instances[1], world.admin);
    await addCompanyMember(instances[0], world.admin, world.company.id, user.id);
    const answers = await spread(20, (i) =>
      on(i).post('/v1/carts').set(bearer(user.token)).send(line()),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(20).fill(201));
    const carts = await cartsOf(user.token);
    expect(carts).toHaveLength(1);
    expect(carts[0].default).toBe(true);
    const lines = await linesOf(user.token, carts[0].cart_id);
    expect(new Set(lines.map((l) => l.id)).size).toBe(20);
  });

  it('10 replays of one Idempotency-Key: one line, every 201 the same answer', async () => {
    const cart = expectEnvelope(
      await on(0)
        .post('/v1/carts/new')
        .set(bearer(member().token))
        .send({ reference: unique('idem') })
        .then(record),
      201,
    ).data as { cart_id: string };
    const key = unique('key');
    const send = (i: number) =>
      on(i)
        .post('/v1/carts')
        .set(bearer(member().token))
        .set('Idempotency-Key', key)
        .send(line({ cart_id: cart.cart_id }));
    const answers = await spread(10, send);
    // Concurrent uses of a running key answer 409 with Retry-After; none is lost.
    for (const res of answers) expect([201, 409]).toContain(res.status);
    const created = answers.filter((res) => res.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    // A retry afterwards, on each instance, replays the same line.
    const replays = await spread(3, send);
    for (const res of [...created, ...replays]) {
      expectEnvelope(res, 201);
      expect(res.body.data.id).toBe(created[0].body.data.id);
    }
    expect(await linesOf(member().token, cart.cart_id)).toHaveLength(1);
  });

  it('5 parallel refreshes of one token: one and the same new pair, a live session', async () => {
    const user = await createUser(instances[2], world.admin);
    const answers = await spread(5, (i) =>
      on(i).post('/v1/refresh').send({ refresh_token: user.refreshToken }),
    );
    for (const res of answers) expectEnvelope(res, 201);
    const pairs = answers.map((res) => res.body.data as { refresh_token: string });
    expect(new Set(pairs.map((pair) => pair.refresh_token)).size).toBe(1);
    const next = await on(1).post('/v1/refresh').send({ refresh_token: pairs[0].refresh_token });
    expectEnvelope(record(next), 201);
  });

  it('concurrent model versions with If-Match: one wins; the edit lock holds on every instance', async () => {
    const colleague = await createUser(instances[0], world.admin);
    await addSupplierMember(instances[0], world.admin, world.supplier.id, colleague.id);
    const put = (i: number, token: string, headers: Record<string, string> = {}) =>
      sendModel(
        instances[i % 3],
        'put',
        `/v1/models/${model.id}`,
        token,
        minimalModel(modelCode),
        headers,
      );
    const current = (
      expectEnvelope(
        await on(2).get(`/v1/models/${model.id}`).set(bearer(member().token)).then(record),
        200,
      ).data as TestModel
    ).version_number;
    const racing = await spread(6, (i) =>
      put(i, i % 2 ? colleague.token : world.supplierMember.token, {
        'If-Match': String(current),
      }),
    );
    expect(racing.map((res) => res.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    // the new version is visible at once on every instance
    for (let i = 0; i < 3; i++) {
      const res = await on(i).get(`/v1/models/${model.id}`).set(bearer(member().token));
      expect((expectEnvelope(record(res), 200).data as TestModel).version_number).toBe(current + 1);
    }
    // the lock taken on one instance binds the others
    expectEnvelope(
      await on(0)
        .post(`/v1/models/${model.id}/lock`)
        .set(bearer(world.supplierMember.token))
        .then(record),
      200,
    );
    const blocked = record(await put(1, colleague.token));
    expect(problemsOf(expectEnvelope(blocked, 423))[0].code).toBe('locked');
    expectEnvelope(record(await put(2, world.supplierMember.token)), 200);
    expectEnvelope(
      await on(1)
        .delete(`/v1/models/${model.id}/lock`)
        .set(bearer(world.supplierMember.token))
        .then(record),
      200,
    );
    expectEnvelope(record(await put(2, colleague.token)), 200);
  });

  it('CART_MAX_LINES under 30 parallel adds over three instances', async () => {
    const cart = expectEnvelope(
      await on(1)
        .post('/v1/carts/new')
        .set(bearer(member().token))
        .send({ reference: unique('full') })
        .then(record),
      201,
    ).data as { cart_id: string };
    const answers = await spread(30, (i) =>
      on(i)
        .post('/v1/carts')
        .set(bearer(member().token))
        .send(line({ cart_id: cart.cart_id })),
    );
    const counts = answers.map((res) => res.status);
    expect(counts.filter((status) => status === 201)).toHaveLength(CART_MAX_LINES);
    const full = answers.filter((res) => res.status === 409);
    expect(full).toHaveLength(30 - CART_MAX_LINES);
    for (const res of full) expect(problemsOf(res.body)[0].code).toBe('cart_full');
    expect(await linesOf(member().token, cart.cart_id)).toHaveLength(CART_MAX_LINES);
  });

  it('the login limit is shared through Redis: rotating addresses and instances', async () => {
    const victim = await createUser(instances[0], world.admin);
    const answers = [];
    for (let i = 0; i < 9; i++) {
      answers.push(
        record(
          await on(i)
            .post('/v1/login')
            .set('X-Forwarded-For', `10.9.${i}.1`)
            .send({ email: victim.email, password: `guess-${i}` }),
        ),
      );
    }
    expect(answers.map((res) => res.status)).toEqual([
      ...Array(LOGIN_LIMIT).fill(403),
      ...Array(9 - LOGIN_LIMIT).fill(429),
    ]);
    // The owner's device token works on every instance (each login replaces it).
    let device = victim.deviceToken;
    for (let i = 0; i < 3; i++) {
      const res = record(
        await on(i)
          .post('/v1/login')
          .set('X-Forwarded-For', `10.9.${i}.1`)
          .send({ email: victim.email, password: victim.password, device_token: device }),
      );
      device = (expectEnvelope(res, 201).data as { device_token: string }).device_token;
    }
  });

  it('a user disabled on one instance is refused on the others at once', async () => {
    const user = await createUser(instances[1], world.admin);
    for (let i = 0; i < 3; i++)
      expectEnvelope(await on(i).get('/v1/users/me').set(bearer(user.token)).then(record), 200);
    expectEnvelope(
      await on(0)
        .patch(`/v1/users/${user.id}`)
        .set(bearer(world.admin.token))
        .send({ disabled: true })
        .then(record),
      200,
    );
    for (let i = 0; i < 3; i++) {
      const me = record(await on(i).get('/v1/users/me').set(bearer(user.token)));
      expect(me.status, `instance ${i}`).toBe(401);
      const refreshed = record(
        await on(i).post('/v1/refresh').send({ refresh_token: user.refreshToken }),
      );
      expect(refreshed.status, `instance ${i}`).toBe(401);
    }
  });
});
