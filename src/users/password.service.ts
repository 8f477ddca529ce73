import { Injectable, type OnModuleInit } from '@nestjs/common';
import { hash, verify } from '@node-rs/argon2';

export { MAX_PASSWORD_LENGTH } from '../config/password-rules.js';

/**
 * argon2id password hashes (library defaults: 19 MiB, 2 passes, OWASP's baseline).
 * `verifyOrWaste` spends the same work when there is no user, so that login takes
 * as long for an unknown email as for a wrong password.
 */
@Injectable()
export class PasswordService implements OnModuleInit {
  private dummyHash: Promise<string> | null = null;

  /** Made at start-up, so that not even the first unknown-email login is faster. */
  onModuleInit(): void {
    this.dummyHash = hash('not-a-real-password-used-for-timing');
  }

  hash(password: string): Promise<string> {
    return hash(password);
  }

  async verifyOrWaste(storedHash: string | null, password: string): Promise<boolean> {
    if (storedHash === null) {
      this.dummyHash ??= hash('not-a-real-password-used-for-timing');
      await verify(await this.dummyHash, password).catch(() => false);
      return false;
    }
    return verify(storedHash, password).catch(() => false);
  }
}
