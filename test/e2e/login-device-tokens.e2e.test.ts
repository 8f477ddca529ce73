import { randomInt } from 'node:crypto';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUser,
  expectEnvelope,
  loginAdmin,
  unique,
  type TestUser,
} from '../support/factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

const someClient = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
/** An address in a /64 of its own, and others in the same /64. */
const somePrefix = () =>
  `2001:db8:${randomInt(65536).toString(16)}:${randomInt(65536).toString(16)}`;

/**
 * docs/security.md "Login limits": OWASP's device cookies adapted to an API. LIMIT
 * failures per email (all addresses) and per (client, email); CLIENT_LIMIT per client.
 */
const LIMIT = 3;
const CLIENT_LIMIT = 6;

describe('login limits with device tokens', () => {
  let ctx: TestContext;
  let admin: TestUser;

  beforeAll(async () => {
    ctx = await createTestApp({
      LOGIN_RATE_LIMIT: String(LIMIT),
      LOGIN_CLIENT_RATE_LIMIT: String(CLIENT_LIMIT),
      TRUSTED_PROXIES: 'loopback',
    });
    admin = await loginAdmin(ctx);
  });
  afterAll(() => ctx?.close());

  const attempt = (email: string, password: string, client: string, deviceToken?: string) =>
    ctx.http
      .post('/v1/login')
      .set('X-Forwarded-For', client)
      .send(
        deviceToken === undefined
          ? { email, password }
          : { email, password, device_token: deviceToken },
      );

  it('a successful login answers a device token, stored only as its sha256', async () => {
    const user = await createUser(ctx, admin);
    expect(user.deviceToken).toMatch(/^dev_[A-Za-z0-9_-]{43}$/);
    const rows = (await ctx.app
      .get(DataSource)
      .query(`SELECT "token_hash" FROM "device_tokens" WHERE "user_id" = ${user.id}`)) as {
      token_hash: string;
    }[];
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(user.deviceToken);
  });

  it('rotating addresses: the per-email limit counts across all of them', async () => {
    const email = `${unique('victim')}@example.test`;
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await attempt(email, `guess-${i}`, someClient())).status);
    expect(statuses).toEqual([...Array(LIMIT).fill(403), ...Array(12 - LIMIT).fill(429)]);
  });

  it('the owner: refused without the device token, let in with it, whatever the attack', async () => {
    const owner = await createUser(ctx, admin);
    for (let i = 0; i < 10; i++) await attempt(owner.email, `guess-${i}`, someClient());
    // Without a device token (a new device, or an attacker with the right password): 429.
    const bare = await attempt(owner.email, owner.password, someClient());
    expectEnvelope(bare, 429);
    expect(Number(bare.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // With it, from any address, even one that guessed: 201 and a new device token.
    const trusted = await attempt(owner.email, owner.password, someClient(), owner.deviceToken);
    const data = expectEnvelope(trusted, 201).data as Record<string, string>;
    expect(data.device_token).toMatch(/^dev_/);
    expect(data.device_token).not.toBe(owner.deviceToken);
    // The presented token was replaced: it no longer exempts; the new one does.
    expectEnvelope(
      await attempt(owner.email, owner.password, someClient(), owner.deviceToken),
      429,
    );
    expectEnvelope(
      await attempt(owner.email, owner.password, someClient(), data.device_token),
      201,
    );
  });

  it('a device token of another account, or an unknown one, exempts nothing', async () => {
    const owner = await createUser(ctx, admin);
    const other = await createUser(ctx, admin);
    for (let i = 0; i < LIMIT; i++) await attempt(owner.email, `guess-${i}`, someClient());
    expectEnvelope(
      await attempt(owner.email, owner.password, someClient(), other.deviceToken),
      429,
    );
    expectEnvelope(await attempt(owner.email, owner.password, someClient(), 'dev_unknown'), 429);
    expectEnvelope(await attempt(owner.email, owner.password, someClient(), 'x'.repeat(201)), 400);
  });

  it('a device token guessing wrong is limited on that device, then untrusted', async () => {
    const owner = await createUser(ctx, admin);
    const client = someClient();
    for (let i = 0; i < LIMIT; i++)
      expectEnvelope(await attempt(owner.email, `guess-${i}`, client, owner.deviceToken), 403);
    // The device failed LIMIT times: it counts as none, and its failures did not touch the
    // email's counter, so a fresh client may still try.
    const fresh = await attempt(owner.email, owner.password, someClient(), owner.deviceToken);
    expectEnvelope(fresh, 201);
  });

  it('NAT neighbours: failures on other emails from one address do not stop another account', async () => {
    const nat = someClient();
    // The case: 10 failed logins for one unknown email from the shared address.
    const unknown = `${unique('unknown')}@example.test`;
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await attempt(unknown, 'wrong', nat)).status);
    expect(statuses).toEqual([...Array(LIMIT).fill(403), ...Array(10 - LIMIT).fill(429)]);
    // Behind the same NAT, without a device token: the (client, email) pair and the email
    // are clean, and the client is below its looser limit.
    const owner = await createUser(ctx, admin);
    expectEnvelope(await attempt(owner.email, owner.password, nat), 201);
    expectEnvelope(await attempt(admin.email, admin.password, nat), 201);
  });

  it('one client spraying many emails stops at the looser per-client limit', async () => {
    const client = someClient();
    for (let i = 0; i < CLIENT_LIMIT; i++)
      expectEnvelope(await attempt(`${unique('spray')}@example.test`, 'wrong', client), 403);
    expectEnvelope(await attempt(`${unique('spray')}@example.test`, 'wrong', client), 429);
    // The owner of an account, with their device token, is not that client's victim.
    const owner = await createUser(ctx, admin);
    expectEnvelope(await attempt(owner.email, owner.password, client, owner.deviceToken), 201);
  });

  it('IPv6: every address of a /64 is one client; another /64 is another', async () => {
    const prefix = somePrefix();
    for (let i = 0; i < CLIENT_LIMIT; i++) {
      const address = `${prefix}:${randomInt(65536).toString(16)}::${i + 1}`;
      expectEnvelope(await attempt(`${unique('v6')}@example.test`, 'wrong', address), 403);
    }
    expectEnvelope(
      await attempt(`${unique('v6')}@example.test`, 'wrong', `${prefix}:ffff:ffff:ffff:ffff`),
      429,
    );
    expectEnvelope(
      await attempt(`${unique('v6')}@example.test`, 'wrong', `${somePrefix()}::1`),
      403,
    );
    // the per-(client, email) pair is per /64 too
    const email = `${unique('v6pair')}@example.test`;
    const pairPrefix = somePrefix();
    for (let i = 0; i < LIMIT; i++)
      expectEnvelope(await attempt(email, 'wrong', `${pairPrefix}::${i + 1}`), 403);
    expectEnvelope(await attempt(email, 'wrong', `${pairPrefix}::99`), 429);
  });
});
