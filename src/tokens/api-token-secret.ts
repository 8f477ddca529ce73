import { createHash, randomBytes } from 'node:crypto';

/** Every API token secret starts with this, so it is recognisable (and scannable in leaks). */
export const API_TOKEN_PREFIX = 'cfg_';

export function generateApiTokenSecret(): string {
  return `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** A fast hash is right here: the secret has 256 bits of entropy, unlike a password. */
export function hashApiToken(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
