import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { UsersService } from '../users/users.service.js';
import { DeviceTokenRepository } from './device-token.repository.js';

/** A user keeps this many device tokens (browsers, apps); older ones are dropped. */
const TOKENS_PER_USER = 10;
const PREFIX = 'dev_';

const hashOf = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The trusted device of a login: the key its failures count under, and its row. */
export interface TrustedDevice {
  id: number;
  /** sha256 of the token: never the token itself in a rate-limit key. */
  hash: string;
}

/**
 * Device tokens (OWASP "Slow down online guessing with device cookies", adapted to an
 * API: the token travels in the login body instead of a cookie). Opaque, per user,
 * long-lived (LOGIN_DEVICE_TTL_DAYS), stored as sha256, rotated on every login that
 * presents one.
 */
@Injectable()
export class DeviceTokensService {
  constructor(
    private readonly tokens: DeviceTokenRepository,
    private readonly users: UsersService,
    private readonly config: AppConfig,
  ) {}

  /**
   * The device when `token` is a live device token of the user with this (normalized)
   * email; null for anything else (absent, malformed, unknown, expired, another user's),
   * so that a wrong token only loses the exemption.
   */
  async trusted(token: string | undefined, email: string): Promise<TrustedDevice | null> {
    if (token === undefined || !token.startsWith(PREFIX) || token.length > 100) return null;
    const hash = hashOf(token);
    const row = await this.tokens.findLive(hash, new Date());
    if (!row) return null;
    const user = await this.users.find(row.userId);
    return user && user.email === email ? { id: row.id, hash } : null;
  }

  /** A new device token for the user (replacing `previous`, the one the login presented). */
  async issue(userId: number, previous: TrustedDevice | null): Promise<string> {
    const token = PREFIX + randomBytes(32).toString('base64url');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.config.loginDeviceTtlDays * 86_400_000);
    if (previous) await this.tokens.delete(previous.id);
    await this.tokens.insert(userId, hashOf(token), expiresAt);
    await this.tokens.prune(userId, TOKENS_PER_USER, now);
    return token;
  }
}
