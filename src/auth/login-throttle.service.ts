import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { clientKey } from '../rate-limit/client-key.js';
import { RateLimiterService, tooManyRequests } from '../rate-limit/rate-limiter.service.js';
import type { TrustedDevice } from './device-tokens.service.js';

/**
 * Login limits (docs/security.md "Login limits"; OWASP's device cookies adapted to an
 * API). Only failures count, in windows of LOGIN_RATE_WINDOW; checked before the password
 * is, so a refused attempt costs no hashing and tells nothing.
 *
 * A login that presents a live device token of the account counts its failures only on
 * that device (LOGIN_RATE_LIMIT), and is exempt from every other limit: whoever guesses
 * elsewhere, from a NAT the owner shares or from a thousand addresses, the owner's device
 * still logs in. Once the device itself has failed that often it is untrusted for the
 * window and falls under the limits below.
 *
 * Any other login counts under three keys, and is refused when one is full:
 * - per email, across all addresses: LOGIN_RATE_LIMIT (rotating addresses stop there);
 * - per (client, email): LOGIN_RATE_LIMIT (a neighbour behind the same NAT guessing
 *   another account does not touch yours);
 * - per client: LOGIN_CLIENT_RATE_LIMIT, looser, against stuffing many accounts from one
 *   client.
 * A client is its address, IPv6 grouped by /64 (clientKey).
 */
@Injectable()
export class LoginThrottle {
  constructor(
    private readonly limiter: RateLimiterService,
    private readonly config: AppConfig,
  ) {}

  /** Throws 429 when the login may not be tried; answers the device still trusted, if any. */
  async check(
    ip: string,
    email: string,
    device: TrustedDevice | null,
  ): Promise<TrustedDevice | null> {
    const { max } = this.config.loginRateLimit;
    if (device) {
      const [onDevice] = await this.limiter.counts([deviceKey(device)]);
      if (onDevice.count < max) return device;
    }
    const [byEmail, pair, byClient] = await this.limiter.counts(keys(clientKey(ip), email));
    const blocking = [byEmail, pair].filter((counter) => counter.count >= max);
    if (byClient.count >= this.config.loginClientRateLimit) blocking.push(byClient);
    if (blocking.length > 0) {
      throw tooManyRequests(Math.max(...blocking.map((counter) => counter.resetInSeconds)));
    }
    return null;
  }

  /** Records a failed login under the keys `check` read (the device's alone when trusted). */
  failed(ip: string, email: string, device: TrustedDevice | null): Promise<void> {
    const { windowSeconds } = this.config.loginRateLimit;
    const counted = device ? [deviceKey(device)] : keys(clientKey(ip), email);
    return this.limiter.record(counted, windowSeconds);
  }
}

function keys(client: string, email: string): string[] {
  return [
    `login:fail:email:${email}`,
    `login:fail:pair:${client}:${email}`,
    `login:fail:client:${client}`,
  ];
}

const deviceKey = (device: TrustedDevice): string => `login:fail:device:${device.hash}`;
