import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JwtService } from '@nestjs/jwt';
import jwt from 'jsonwebtoken';
import { afterAll, describe, expect, it } from 'vitest';
import { AppConfig } from '../../src/config/app-config.js';
import { TokenIssuer } from '../../src/jwt/token-issuer.service.js';

/**
 * The JWT secret is used as a KeyObject (jsonwebtoken skips its createPublicKey attempt):
 * the tokens are byte for byte those the string secret gives, so tokens issued before
 * stay valid and the string still verifies new ones.
 */
describe('TokenIssuer with a KeyObject secret', () => {
  const dir = mkdtempSync(join(tmpdir(), 'token-issuer-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const secret = 'a-secret-that-is-long-enough-0123456789-é';
  const config = new AppConfig({ DATA_DIR: dir, JWT_SECRET: secret });
  const issuer = new TokenIssuer(new JwtService({}), config);

  it('holds the secret’s UTF-8 bytes as a secret key', () => {
    expect(config.jwt.key.type).toBe('secret');
    expect(config.jwt.key.export()).toEqual(Buffer.from(secret, 'utf8'));
  });

  it('signs the same HS256 token as the string secret, which verifies it', async () => {
    const iat = 1_764_000_000;
    const token = await issuer.access(7, 'family-1', iat);
    const expected = jwt.sign({ sub: '7', typ: 'access', fam: 'family-1', iat }, secret, {
      algorithm: 'HS256',
      issuer: config.jwt.issuer,
      audience: config.jwt.audience,
      expiresIn: config.jwt.accessTtlSeconds,
    });
    expect(token).toBe(expected);
    const header = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString());
    expect(header.alg).toBe('HS256');
    const claims = jwt.verify(await issuer.access(7, 'family-1'), secret, {
      algorithms: ['HS256'],
    }) as jwt.JwtPayload;
    expect(claims.sub).toBe('7');
    const options = { algorithms: ['HS256' as const], ignoreExpiration: true };
    expect(jwt.verify(expected, config.jwt.key, options)).toMatchObject({
      fam: 'family-1',
    });
  });
});
