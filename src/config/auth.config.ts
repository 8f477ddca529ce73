import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EnvReader } from './env-reader.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './password-rules.js';

/** Tokens, their lifetimes, the first admin and the login limits. */
export interface AuthConfig {
  jwt: {
    secret: string;
    /**
     * The secret as a KeyObject, built once: jsonwebtoken first tries `createPublicKey` on a
     * string or Buffer secret (it throws; 0.5 ms per request); a KeyObject is used as is.
     */
    key: KeyObject;
    issuer: string;
    audience: string;
    accessTtlSeconds: number;
    refreshTtlSeconds: number;
    refreshGraceSeconds: number;
  };
  intent: { defaultTtlSeconds: number };
  admin: { email: string; password: string } | null;
  loginRateLimit: { max: number; windowSeconds: number };
  /** Failed logins per client (any emails) per window: looser, against stuffing. */
  loginClientRateLimit: number;
  /** Days a device token (returned by login) stays valid. */
  loginDeviceTtlDays: number;
}

/** Where the JWT secret may come from (see resolveJwtSecret). */
export interface SecretHome {
  dataDir: string;
  isProduction: boolean;
}

export function readAuthConfig(read: EnvReader, home: SecretHome): AuthConfig {
  const { env } = read;
  const secret = resolveJwtSecret(read, home);
  const loginRateLimit = {
    max: read.int('LOGIN_RATE_LIMIT', 10, 1, 100_000),
    windowSeconds: read.int('LOGIN_RATE_WINDOW', 60, 1, 86_400),
  };
  return {
    jwt: {
      secret,
      key: createSecretKey(Buffer.from(secret, 'utf8')),
      issuer: env.JWT_ISSUER ?? 'configurator',
      audience: env.JWT_AUDIENCE ?? 'configurator-api',
      accessTtlSeconds: read.int('JWT_ACCESS_TTL', 15 * 60, 10, 24 * 3600),
      refreshTtlSeconds: read.int('JWT_REFRESH_TTL', 30 * 24 * 3600, 60, 365 * 24 * 3600),
      // How long the refresh token just replaced still answers the same new pair.
      refreshGraceSeconds: read.int('REFRESH_GRACE_SECONDS', 10, 0, 60),
    },
    intent: {
      // The bounds a client's `expires_in` has too (POST /v1/intents).
      defaultTtlSeconds: read.int('INTENT_TTL', 3600, 60, 24 * 3600),
    },
    admin: readAdmin(read),
    loginRateLimit,
    loginClientRateLimit: read.int(
      'LOGIN_CLIENT_RATE_LIMIT',
      loginRateLimit.max * 10,
      1,
      1_000_000,
    ),
    loginDeviceTtlDays: read.int('LOGIN_DEVICE_TTL_DAYS', 180, 1, 3650),
  };
}

function readAdmin(read: EnvReader): AuthConfig['admin'] {
  const adminEmail = read.env.ADMIN_EMAIL?.trim();
  const adminPassword = read.env.ADMIN_PASSWORD;
  if (Boolean(adminEmail) !== Boolean(adminPassword)) {
    read.report('ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  }
  // The first admin is held to every account's password rules.
  if (
    adminPassword &&
    (adminPassword.length < MIN_PASSWORD_LENGTH || adminPassword.length > MAX_PASSWORD_LENGTH)
  ) {
    read.report(
      `ADMIN_PASSWORD must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters long`,
    );
  }
  return adminEmail && adminPassword ? { email: adminEmail, password: adminPassword } : null;
}

/**
 * Production must be given a secret; elsewhere one is generated once and kept in
 * DATA_DIR so that tokens survive a restart.
 */
function resolveJwtSecret(read: EnvReader, { dataDir, isProduction }: SecretHome): string {
  const given = read.env.JWT_SECRET;
  if (given !== undefined) {
    if (given.length < 32) read.report('JWT_SECRET must be at least 32 characters');
    return given;
  }
  if (isProduction) {
    read.report('JWT_SECRET is required when NODE_ENV=production');
    return '';
  }
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
