import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionsService } from '../../../src/auth/sessions.service.js';
import { TOKEN_TYPES, type JwtClaims } from '../../../src/jwt/jwt-claims.js';
import { TokensService } from '../../../src/tokens/tokens.service.js';
import { refusalStatus } from '../../support/cart.factories.js';
import { createServiceContext, type ServiceContext } from '../../support/service-context.js';

/** Who a credential is: the services the auth strategies ask, on the test database. */
describe('credentials behind the strategies', () => {
  let ctx: ServiceContext;

  beforeAll(async () => {
    ctx = await createServiceContext();
  });
  afterAll(() => ctx?.close());

  /** The claims of a token: only what the services read of them. */
  const claimsOf = (jwt: string): JwtClaims =>
    JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8')) as JwtClaims;

  it('rotates a refresh token once: 8 concurrent uses get the same pair, then reuse revokes', async () => {
    const sessions = ctx.get(SessionsService);
    const user = await ctx.newMember();
    const login = await sessions.start(user.userId);
    const refresh = claimsOf(login.refresh_token);
    const access = claimsOf(login.access_token);
    expect(access.typ).toBe(TOKEN_TYPES.access);
    expect((await sessions.userOfAccess(access))?.id).toBe(user.userId);

    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () =>
        refusalStatus(sessions.rotate(user.userId, refresh.fam ?? '', refresh.jti ?? '')),
      ),
    );
    // Within the grace window the losers get the winner's pair: one session survives.
    expect(outcomes.filter((o) => o === 'resolved')).toHaveLength(8);
    expect((await sessions.userOfAccess(access))?.id).toBe(user.userId);
    const pair = await sessions.rotate(user.userId, refresh.fam ?? '', refresh.jti ?? '');
    const next = claimsOf(pair.refresh_token);
    await sessions.rotate(user.userId, next.fam ?? '', next.jti ?? '');
    // The login's token is now two generations back: reuse, so the whole session ends.
    expect(
      await refusalStatus(sessions.rotate(user.userId, refresh.fam ?? '', refresh.jti ?? '')),
    ).toBe(401);
    expect(await sessions.userOfAccess(access)).toBeNull();
  });

  it('ends a session on logout; another user cannot rotate it', async () => {
    const sessions = ctx.get(SessionsService);
    const [user, other] = [await ctx.newMember(), await ctx.newMember()];
    const login = await sessions.start(user.userId);
    const refresh = claimsOf(login.refresh_token);
    expect(
      await refusalStatus(sessions.rotate(other.userId, refresh.fam ?? '', refresh.jti ?? '')),
    ).toBe(401);
    await sessions.end(refresh.fam ?? '');
    expect(await sessions.userOfAccess(claimsOf(login.access_token))).toBeNull();
  });

  it('authenticates an API token until it is revoked; a wrong secret is nobody', async () => {
    const tokens = ctx.get(TokensService);
    const user = await ctx.newMember();
    const created = await tokens.create(user, 'erp', null);
    expect(await tokens.authenticate(created.token)).toEqual({
      userId: user.userId,
      tokenId: created.id,
    });
    expect(await tokens.authenticate(`${created.token}x`)).toBeNull();
    expect(await tokens.authenticate('not-a-cfg-token')).toBeNull();
    await tokens.revoke(user, created.id);
    expect(await tokens.authenticate(created.token)).toBeNull();
  });
});
