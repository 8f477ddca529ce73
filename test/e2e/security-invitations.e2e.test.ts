import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompanyInvitationEntity } from '../../src/memberships/company-invitation.entity.js';
import {
  bearer,
  createUser,
  expectEnvelope,
  loginAdmin,
  unique,
  type TestUser,
} from '../support/factories.js';
import { LogCapture, logDuring, STACK_OR_ERROR } from '../support/log-capture.js';
import {
  addSupplierMember,
  createCompany,
  createSupplier,
  type TestCompany,
} from '../support/org.factories.js';
import { rowSnapshot } from '../support/row-snapshot.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/** docs/security.md, "Memberships": invitations with no account oracle, removal, no email leaks. */
describe('invitations and member removal', () => {
  let ctx: TestContext;
  const logs = new LogCapture();
  let admin: TestUser;
  let owner: TestUser;
  let company: TestCompany;

  beforeAll(async () => {
    ctx = await createTestApp({}, undefined, { logs });
    admin = await loginAdmin(ctx);
    owner = await createUser(ctx, admin);
    company = await createCompany(ctx, owner);
  });
  afterAll(() => ctx?.close());

  const invite = (by: TestUser, email: string, companyId = company.id) =>
    ctx.http.post(`/v1/companies/${companyId}/invitations`).set(bearer(by.token)).send({ email });

  /** The answer without what differs by construction (the email the caller sent). */
  const shape = (res: { status: number; body: Record<string, unknown> }) => ({
    status: res.status,
    message: res.body.message,
    keys: Object.keys(res.body.data as object).sort(),
    headers: Object.keys(res.body).sort(),
  });

  it('answers 202 alike for a known and an unknown email (status, body, timing)', async () => {
    const known = await createUser(ctx, admin);
    const timings: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
    let knownShape: ReturnType<typeof shape> | null = null;
    let unknownShape: ReturnType<typeof shape> | null = null;
    for (let round = 0; round < 10; round++) {
      for (const kind of ['known', 'unknown'] as const) {
        const email = kind === 'known' ? known.email : `${unique('ghost')}@example.test`;
        const started = performance.now();
        const res = await invite(owner, email);
        timings[kind].push(performance.now() - started);
        expect(expectEnvelope(res, 202).data).toEqual({ company_id: company.id, email });
        if (kind === 'known') knownShape = shape(res);
        else unknownShape = shape(res);
      }
    }
    expect(knownShape).toEqual(unknownShape);
    // Within noise: inviting never looks the account up, so no lookup to time.
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
    const ratio = median(timings.known) / median(timings.unknown);
    expect(ratio).toBeGreaterThan(0.33);
    expect(ratio).toBeLessThan(3);
  });

  it('lets the invitee see and accept it, and only the invitee', async () => {
    const invitee = await createUser(ctx, admin);
    const stranger = await createUser(ctx, admin);
    // Case and spaces do not matter: emails are stored lower-cased.
    expectEnvelope(await invite(owner, `  ${invitee.email.toUpperCase()} `), 202);
    const mine = expectEnvelope(
      await ctx.http.get('/v1/invitations').set(bearer(invitee.token)),
      200,
    );
    const [invitation] = mine.data as { id: number; company_id: number }[];
    expect(invitation).toEqual(expect.objectContaining({ company_id: company.id }));
    expect(JSON.stringify(mine)).not.toContain(owner.email);
    const theirs = expectEnvelope(
      await ctx.http.get('/v1/invitations').set(bearer(stranger.token)),
      200,
    );
    expect(theirs.data).toEqual([]);

    const before = await rowSnapshot(ctx);
    const accept = (user: TestUser, id = invitation.id) =>
      ctx.http.post(`/v1/invitations/${id}/accept`).set(bearer(user.token));
    expectEnvelope(await accept(stranger), 404);
    expectEnvelope(await accept(stranger, 999999), 404);
    expect(await rowSnapshot(ctx)).toEqual(before);

    expectEnvelope(
      await ctx.http.get(`/v1/companies/${company.id}`).set(bearer(invitee.token)),
      404,
    );
    expectEnvelope(await accept(invitee), 200);
    expectEnvelope(
      await ctx.http.get(`/v1/companies/${company.id}`).set(bearer(invitee.token)),
      200,
    );
    // Spent: a second acceptance is a 404, and the list is empty.
    expectEnvelope(await accept(invitee), 404);
    const after = expectEnvelope(
      await ctx.http.get('/v1/invitations').set(bearer(invitee.token)),
      200,
    );
    expect(after.data).toEqual([]);
  });

  it('refuses invitations into a company the caller does not belong to (404), changing nothing', async () => {
    const outsider = await createUser(ctx, admin);
    const before = await rowSnapshot(ctx);
    expectEnvelope(await invite(outsider, 'someone@example.test'), 404);
    expectEnvelope(await invite(outsider, 'someone@example.test', 999999), 404);
    // An admin may invite into any company, but not into one that does not exist.
    expectEnvelope(await invite(admin, 'someone@example.test', 999999), 404);
    expectEnvelope(await invite(owner, 'not-an-email'), 400);
    expect(await rowSnapshot(ctx)).toEqual(before);
  });

  it('shows no other user’s email in member lists or add answers', async () => {
    const colleague = await createUser(ctx, admin);
    const added = await ctx.http
      .post(`/v1/companies/${company.id}/members`)
      .set(bearer(admin.token))
      .send({ user_id: colleague.id });
    expect(expectEnvelope(added, 201).data).toEqual(expect.objectContaining({ email: null }));
    const list = await ctx.http.get(`/v1/companies/${company.id}/members`).set(bearer(owner.token));
    const members = expectEnvelope(list, 200).data as { user_id: number; email: string | null }[];
    expect(members.find((m) => m.user_id === owner.id)?.email).toBe(owner.email);
    expect(members.filter((m) => m.user_id !== owner.id).every((m) => m.email === null)).toBe(true);
    expect(JSON.stringify(list.body)).not.toContain(colleague.email);
    expect(JSON.stringify(list.body)).not.toContain('admin@example.test');
  });

  it('removes members: an admin anyone, a member only themself', async () => {
    const team = await createCompany(ctx, owner);
    const [a, b] = [await createUser(ctx, admin), await createUser(ctx, admin)];
    for (const user of [a, b]) {
      await ctx.http
        .post(`/v1/companies/${team.id}/members`)
        .set(bearer(admin.token))
        .send({ user_id: user.id });
    }
    const remove = (by: TestUser, userId: number, companyId = team.id) =>
      ctx.http.delete(`/v1/companies/${companyId}/members/${userId}`).set(bearer(by.token));
    const outsider = await createUser(ctx, admin);
    const before = await rowSnapshot(ctx);
    const log = await logDuring(logs, async () => {
      expectEnvelope(await remove(a, b.id), 403);
      expectEnvelope(await remove(outsider, b.id), 404);
      expectEnvelope(await remove(outsider, b.id, 999999), 404);
      expectEnvelope(await remove(admin, outsider.id), 404);
      expectEnvelope(await remove(admin, b.id, 999999), 404);
    });
    expect(log.text).not.toMatch(STACK_OR_ERROR);
    expect(log.errors).toEqual([]);
    expect(await rowSnapshot(ctx)).toEqual(before);
    expectEnvelope(await remove(a, a.id), 200);
    expectEnvelope(await ctx.http.get(`/v1/companies/${team.id}`).set(bearer(a.token)), 404);
    expectEnvelope(await remove(admin, b.id), 200);
    expectEnvelope(await ctx.http.get(`/v1/companies/${team.id}`).set(bearer(b.token)), 404);
  });

  it('keeps a removal: the pending invitations to and from the removed member are withdrawn', async () => {
    const team = await createCompany(ctx, owner);
    const [member, accomplice, colleague] = [
      await createUser(ctx, admin),
      await createUser(ctx, admin),
      await createUser(ctx, admin),
    ];
    await ctx.http
      .post(`/v1/companies/${team.id}/members`)
      .set(bearer(admin.token))
      .send({ user_id: member.id });
    // The member invites themself and an accomplice; the owner invites the member too.
    expectEnvelope(await invite(member, member.email, team.id), 202);
    expectEnvelope(await invite(member, accomplice.email, team.id), 202);
    expectEnvelope(await invite(owner, colleague.email, team.id), 202);
    const pendingOf = async (user: TestUser) =>
      expectEnvelope(await ctx.http.get('/v1/invitations').set(bearer(user.token)), 200).data as {
        id: number;
        company_id: number;
      }[];
    const [toAccomplice] = await pendingOf(accomplice);
    expect(toAccomplice).toEqual(expect.objectContaining({ company_id: team.id }));

    expectEnvelope(
      await ctx.http
        .delete(`/v1/companies/${team.id}/members/${member.id}`)
        .set(bearer(admin.token)),
      200,
    );
    expect(await pendingOf(member)).toEqual([]);
    expect(await pendingOf(accomplice)).toEqual([]);
    const accept = (user: TestUser, id: number) =>
      ctx.http.post(`/v1/invitations/${id}/accept`).set(bearer(user.token));
    expectEnvelope(await accept(accomplice, toAccomplice.id), 404);
    for (const user of [member, accomplice]) {
      expectEnvelope(await ctx.http.get(`/v1/companies/${team.id}`).set(bearer(user.token)), 404);
    }
    // Invitations from members who stay are not touched.
    const [toColleague] = await pendingOf(colleague);
    expectEnvelope(await accept(colleague, toColleague.id), 200);
    expectEnvelope(
      await ctx.http.get(`/v1/companies/${team.id}`).set(bearer(colleague.token)),
      200,
    );
  });

  it('keeps the membership when the invitee accepts twice at once (a double click)', async () => {
    const team = await createCompany(ctx, owner);
    const clicker = await createUser(ctx, admin);
    expectEnvelope(await invite(owner, clicker.email, team.id), 202);
    const [invitation] = expectEnvelope(
      await ctx.http.get('/v1/invitations').set(bearer(clicker.token)),
      200,
    ).data as { id: number }[];
    for (let round = 0; round < 3; round++) {
      const statuses = (
        await Promise.all(
          [0, 1].map(() =>
            ctx.http.post(`/v1/invitations/${invitation.id}/accept`).set(bearer(clicker.token)),
          ),
        )
      ).map((res) => res.status);
      if (round === 0) expect(statuses).toContain(200);
      else expect(statuses).toEqual([404, 404]);
      expectEnvelope(
        await ctx.http.get(`/v1/companies/${team.id}`).set(bearer(clicker.token)),
        200,
      );
    }
  });

  it('lets an invitation lapse after INVITATION_TTL_DAYS; inviting again renews it', async () => {
    const late = await createUser(ctx, admin);
    expectEnvelope(await invite(owner, late.email), 202);
    const listed = async () =>
      expectEnvelope(await ctx.http.get('/v1/invitations').set(bearer(late.token)), 200).data as {
        id: number;
        created_at: string;
        expires_at: string;
      }[];
    const [fresh] = await listed();
    expect(Date.parse(fresh.expires_at) - Date.parse(fresh.created_at)).toBe(14 * 86_400_000);
    await ctx.app
      .get(DataSource)
      .getRepository(CompanyInvitationEntity)
      .update(fresh.id, { createdAt: new Date(Date.now() - 15 * 86_400_000) });
    expect(await listed()).toEqual([]);
    const accept = () =>
      ctx.http.post(`/v1/invitations/${fresh.id}/accept`).set(bearer(late.token));
    expectEnvelope(await accept(), 404);
    expectEnvelope(await invite(owner, late.email), 202);
    expect(await listed()).toEqual([expect.objectContaining({ id: fresh.id })]);
    expectEnvelope(await accept(), 200);
  });

  it('removes supplier members the same way', async () => {
    const supplier = await createSupplier(ctx, admin, company.id);
    const [a, b] = [await createUser(ctx, admin), await createUser(ctx, admin)];
    await addSupplierMember(ctx, admin, supplier.id, a.id);
    await addSupplierMember(ctx, admin, supplier.id, b.id);
    const remove = (by: TestUser, userId: number) =>
      ctx.http.delete(`/v1/suppliers/${supplier.id}/members/${userId}`).set(bearer(by.token));
    const before = await rowSnapshot(ctx);
    expectEnvelope(await remove(a, b.id), 403);
    expectEnvelope(await remove(owner, b.id), 404);
    expect(await rowSnapshot(ctx)).toEqual(before);
    expectEnvelope(await remove(a, a.id), 200);
    expectEnvelope(await remove(admin, b.id), 200);
    expectEnvelope(await remove(admin, b.id), 404);
  });
});
