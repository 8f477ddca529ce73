import { createSecretKey } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { AdmissionKeys, RecognisedApiTokens } from '../../src/admission/admission-keys.js';
import { handedOverJwt } from '../../src/jwt/bearer-jwt.js';

const SECRET = 'a-secret-that-is-long-enough-0123456789';
const check = { key: createSecretKey(Buffer.from(SECRET)), issuer: 'cfg', audience: 'api' };
const NOW = 1_764_000_000;
const trustNobody = () => false;

function requestWith(authorization: string | undefined, address = '203.0.113.5'): IncomingMessage {
  return {
    headers: authorization === undefined ? {} : { authorization },
    socket: { remoteAddress: address },
  } as unknown as IncomingMessage;
}

const sign = (
  claims: Record<string, unknown>,
  options: jwt.SignOptions = {},
  secret: string = SECRET,
): string =>
  jwt.sign(withoutNulls({ sub: '7', typ: 'access', iat: NOW, exp: NOW + 60, ...claims }), secret, {
    algorithm: 'HS256',
    issuer: 'cfg',
    audience: 'api',
    ...options,
  });

/** `null` leaves a claim out. */
const withoutNulls = (claims: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(claims).filter(([, value]) => value !== null));

describe('AdmissionKeys', () => {
  const apiTokens = new RecognisedApiTokens();
  const keys = new AdmissionKeys(check, apiTokens, trustNobody, () => NOW);
  const address = { key: 'address:203.0.113.5', anonymous: true };

  it('counts a JWT of this service under the token', () => {
    const token = sign({});
    expect(keys.of(requestWith(`Bearer ${token}`))).toEqual({
      key: `credential:${token}`,
      anonymous: false,
    });
    const intent = sign({ typ: 'intent', cid: 3 });
    expect(keys.of(requestWith(`Bearer ${intent}`)).anonymous).toBe(false);
  });

  it('counts anything it cannot verify under the client address', () => {
    const refused = [
      undefined,
      'Bearer made-up',
      'Basic dXNlcjpwYXNz',
      `Bearer ${sign({}, {}, 'another-secret-that-is-long-enough-000')}`,
      `Bearer ${sign({ exp: NOW - 1 })}`,
      `Bearer ${sign({ exp: null })}`,
      `Bearer ${sign({}, { issuer: 'someone-else' })}`,
      `Bearer ${sign({}, { audience: 'another-api' })}`,
      `Bearer ${sign({}, { algorithm: 'HS512' })}`,
      `Bearer ${sign({ nbf: NOW + 10 })}`,
      `Bearer ${jwt.sign({ sub: '7', exp: NOW + 60, iss: 'cfg', aud: 'api' }, '', { algorithm: 'none' })}`,
      'Bearer cfg_not-seen-yet',
    ];
    for (const authorization of refused)
      expect(keys.of(requestWith(authorization))).toEqual(address);
  });

  it('groups an IPv6 client by its /64', () => {
    expect(keys.of(requestWith('Bearer made-up', '2001:db8:1:2:3:4:5:6')).key).toBe(
      'address:2001:db8:1:2::/64',
    );
  });

  it('counts an API token under the token once the pipeline accepted it, for a while', () => {
    let now = 0;
    const recognised = new RecognisedApiTokens();
    recognised.now = () => now;
    const withTokens = new AdmissionKeys(check, recognised, trustNobody, () => NOW);
    const secret = 'cfg_secret-of-an-api-token';
    expect(withTokens.of(requestWith(`Bearer ${secret}`))).toEqual(address);
    recognised.accepted(secret);
    expect(withTokens.of(requestWith(`Bearer ${secret}`))).toEqual({
      key: `credential:${secret}`,
      anonymous: false,
    });
    now = 11 * 60_000;
    expect(withTokens.of(requestWith(`Bearer ${secret}`))).toEqual(address);
  });

  it('hands its verdict on the bearer token to the JWT strategies with the request', () => {
    const token = sign({});
    const genuine = requestWith(`Bearer ${token}`);
    keys.of(genuine);
    expect(handedOverJwt(genuine, token)).toMatchObject({ sub: '7', typ: 'access', exp: NOW + 60 });
    // Only for the token it checked.
    expect(handedOverJwt(genuine, sign({ sub: '8' }))).toBeUndefined();

    const forgedToken = `${token.slice(0, token.lastIndexOf('.'))}.${'A'.repeat(43)}`;
    const forged = requestWith(`Bearer ${forgedToken}`);
    expect(keys.of(forged)).toEqual(address);
    expect(handedOverJwt(forged, forgedToken)).toBeNull();

    const apiToken = requestWith('Bearer cfg_an-api-token');
    keys.of(apiToken);
    expect(handedOverJwt(apiToken, 'cfg_an-api-token')).toBeNull();

    const none = requestWith(undefined);
    keys.of(none);
    expect(handedOverJwt(none, token)).toBeUndefined();
  });

  it('remembers a verified token until it expires, as jsonwebtoken counts (now < exp)', () => {
    let now = NOW;
    const clocked = new AdmissionKeys(check, new RecognisedApiTokens(), trustNobody, () => now);
    const token = sign({ exp: NOW + 2 });
    expect(clocked.of(requestWith(`Bearer ${token}`)).anonymous).toBe(false);
    now = NOW + 1.9;
    expect(clocked.of(requestWith(`Bearer ${token}`)).anonymous).toBe(false);
    now = NOW + 2;
    expect(clocked.of(requestWith(`Bearer ${token}`))).toEqual(address);
  });
});
