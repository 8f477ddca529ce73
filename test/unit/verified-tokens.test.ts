import { describe, expect, it } from 'vitest';
import { VerifiedTokens } from '../../src/jwt/verified-tokens.js';
import type { JwtClaims } from '../../src/jwt/jwt-claims.js';

describe('VerifiedTokens', () => {
  const claims = (exp: number): JwtClaims => ({ sub: '1', typ: 'access', fam: 'f', exp });

  it('answers a remembered token until its exp, as jsonwebtoken does (now < exp)', () => {
    let now = 1000;
    const tokens = new VerifiedTokens(10, () => now);
    tokens.remember('a', claims(1002));
    expect(tokens.get('a')).toMatchObject({ sub: '1', exp: 1002 });
    now = 1001;
    expect(tokens.get('a')).toBeDefined();
    now = 1002;
    expect(tokens.get('a')).toBeUndefined();
    expect(tokens.size).toBe(0);
    expect(tokens.get('never seen')).toBeUndefined();
  });

  it('remembers only tokens with a numeric exp, by their exact text', () => {
    const tokens = new VerifiedTokens(10, () => 0);
    tokens.remember('no-exp', { sub: '1', typ: 'access' });
    expect(tokens.get('no-exp')).toBeUndefined();
    tokens.remember('a', claims(5));
    expect(tokens.get('a ')).toBeUndefined();
    expect(tokens.get('A')).toBeUndefined();
  });

  it('holds at most its capacity, forgetting the oldest first', () => {
    const tokens = new VerifiedTokens(2, () => 0);
    tokens.remember('a', claims(5));
    tokens.remember('b', claims(5));
    tokens.remember('c', claims(5));
    expect(tokens.size).toBe(2);
    expect(tokens.get('a')).toBeUndefined();
    expect(tokens.get('b')).toBeDefined();
    expect(tokens.get('c')).toBeDefined();
  });
});
