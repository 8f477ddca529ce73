import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { RateLimiterService, tooManyRequests } from '../rate-limit/rate-limiter.service.js';

/**
 * Login limits that stop guessing without letting a stranger lock an account out
 * (docs/api.md, "The seed contract"; docs/security.md, "Login limits"). Only failures count,
 * each limit being LOGIN_RATE_LIMIT failures per LOGIN_RATE_WINDOW:
 * - per (client, email): a client that failed that often on an email stops there;
 * - per client: a client that failed that often, whatever the emails, stops (spraying);
 * - per email: once an email has had that many failures from anywhere, only clients
 *   with no failure on it may still try, so the owner's correct password from a clean
 *   client passes while every address that already guessed wrong is refused.
 * Checked before the password is, so a refused attempt costs no hashing and tells nothing.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    private readonly limiter: RateLimiterService,
    private readonly config: AppConfig,
  ) {}

  async check(client: string, email: string): Promise<void> {
    const { max } = this.config.loginRateLimit;
    const [pair, byClient, byEmail] = await this.limiter.counts(this.keys(client, email));
    const blocking = [pair, byClient].filter((counter) => counter.count >= max);
    if (byEmail.count >= max && pair.count > 0) blocking.push(byEmail);
    if (blocking.length > 0) {
      throw tooManyRequests(Math.max(...blocking.map((counter) => counter.resetInSeconds)));
    }
  }

  failed(client: string, email: string): Promise<void> {
    return this.limiter.record(this.keys(client, email), this.config.loginRateLimit.windowSeconds);
  }

  private keys(client: string, email: string): string[] {
    return [
      `login:fail:pair:${client}:${email}`,
      `login:fail:client:${client}`,
      `login:fail:email:${email}`,
    ];
  }
}
