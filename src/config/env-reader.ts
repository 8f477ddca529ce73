import { isIP } from 'node:net';

/**
 * Typed reads of environment variables that record problems instead of throwing one by one,
 * so that a bad environment is refused with every bad value listed at once (AppConfig).
 */
export class EnvReader {
  private readonly problems: string[] = [];

  constructor(readonly env: NodeJS.ProcessEnv) {}

  /** Records a problem a group's own rule found (two variables that go together…). */
  report(problem: string): void {
    this.problems.push(problem);
  }

  /** Stops start-up with every problem recorded, if any. */
  throwIfInvalid(): void {
    if (this.problems.length > 0) {
      throw new Error(`Invalid configuration:\n  - ${this.problems.join('\n  - ')}`);
    }
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      this.problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.env[name]?.toLowerCase();
    if (raw === undefined || raw === '') return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    this.problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  }

  url(name: string, protocols: string[]): string {
    const raw = this.env[name] ?? '';
    try {
      const url = new URL(raw);
      if (!protocols.includes(url.protocol)) throw new Error('protocol');
    } catch {
      this.problems.push(`${name} must be a ${protocols.join(' or ')}// URL`);
    }
    return raw;
  }

  /** A comma-separated list of origins (`https://shop.example`, `http://127.0.0.1:8080`). */
  origins(name: string): string[] {
    const raw = this.env[name]?.trim();
    if (!raw) return [];
    const origins: string[] = [];
    for (const item of raw.split(',').map((part) => part.trim())) {
      let origin: string | null = null;
      try {
        const url = new URL(item);
        if (url.origin === item.replace(/\/$/, '') && ['http:', 'https:'].includes(url.protocol))
          origin = url.origin;
      } catch {
        origin = null;
      }
      if (origin === null)
        this.problems.push(`${name}: "${item}" is not an origin (scheme://host[:port])`);
      else origins.push(origin);
    }
    return origins;
  }

  /**
   * A comma-separated list of IP addresses, CIDR ranges or express's names for ranges
   * (loopback, linklocal, uniquelocal), as express `trust proxy` takes them.
   */
  proxyList(name: string): string[] {
    const entries = (this.env[name] ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    for (const entry of entries) {
      if (!isProxyEntry(entry)) {
        this.problems.push(
          `${name}: "${entry}" is not an IP address, a CIDR range or a range name`,
        );
      }
    }
    return entries;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
    return fallback;
  }
}

const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyEntry(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = family === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= bits;
}
