import type { Request } from 'express';
import { describe, expect, it, vi } from 'vitest';
import { authenticatedByAdmission } from '../../src/auth/strategies/jwt-options.js';
import { handOverJwt } from '../../src/jwt/bearer-jwt.js';
import type { JwtClaims } from '../../src/jwt/jwt-claims.js';
import type { Principal } from '../../src/principal/principal.js';

const claims: JwtClaims = { sub: '7', typ: 'access', fam: 'f', exp: 2_000_000_000 };
const principal = { userId: 7 } as unknown as Principal;

const request = (token: string) =>
  ({ headers: { authorization: `Bearer ${token}` } }) as unknown as Request;
const strategy = () => ({ success: vi.fn(), fail: vi.fn(), error: vi.fn() });

describe('the JWT strategies take admission’s verdict (authenticatedByAdmission)', () => {
  it('passes the claims admission verified to the principal, without verifying again', async () => {
    const req = request('a.b.c');
    handOverJwt(req, 'a.b.c', claims);
    const outcome = strategy();
    const principalOf = vi.fn(() => Promise.resolve(principal));
    expect(authenticatedByAdmission(outcome, req, principalOf)).toBe(true);
    await vi.waitFor(() => expect(outcome.success).toHaveBeenCalledWith(principal));
    expect(principalOf).toHaveBeenCalledWith(claims);
  });

  it('fails a token admission found not genuine at once, with 401', () => {
    const req = request('forged.token.sig');
    handOverJwt(req, 'forged.token.sig', null);
    const outcome = strategy();
    const principalOf = vi.fn(() => Promise.resolve(principal));
    expect(authenticatedByAdmission(outcome, req, principalOf)).toBe(true);
    expect(outcome.fail).toHaveBeenCalledWith(401);
    expect(principalOf).not.toHaveBeenCalled();
  });

  it('leaves a token admission did not check to passport-jwt', () => {
    const unchecked = request('a.b.c');
    expect(authenticatedByAdmission(strategy(), unchecked, vi.fn())).toBe(false);
    // A verdict on another token (the header changed since) does not count.
    const changed = request('other.token.sig');
    handOverJwt(changed, 'a.b.c', claims);
    expect(authenticatedByAdmission(strategy(), changed, vi.fn())).toBe(false);
  });

  it('fails when the session is gone, and reports an error as an error', async () => {
    const req = request('a.b.c');
    handOverJwt(req, 'a.b.c', claims);
    const gone = strategy();
    authenticatedByAdmission(gone, req, () => Promise.resolve(false));
    await vi.waitFor(() => expect(gone.fail).toHaveBeenCalledWith(401));
    const failing = strategy();
    authenticatedByAdmission(failing, req, () => Promise.reject(new Error('database down')));
    await vi.waitFor(() => expect(failing.error).toHaveBeenCalled());
  });
});
