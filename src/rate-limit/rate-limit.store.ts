/** Counts hits per key in fixed windows. */
export interface RateLimitStore {
  /** Adds one hit; answers the count in the current window and the seconds left in it. */
  hit(key: string, windowSeconds: number): Promise<{ count: number; resetInSeconds: number }>;
  /** The count in the current window without adding a hit (0 when none). */
  peek(key: string): Promise<{ count: number; resetInSeconds: number }>;
  close(): Promise<void>;
  /** Resolves when the store answers (readiness). */
  ping(): Promise<void>;
}

/** One process's memory: right for a single instance and for tests. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  async hit(
    key: string,
    windowSeconds: number,
  ): Promise<{ count: number; resetInSeconds: number }> {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (this.windows.size > 100_000) this.evictExpired(now);
      window = { count: 0, resetAt: now + windowSeconds * 1000 };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetInSeconds: Math.ceil((window.resetAt - now) / 1000) };
  }

  async peek(key: string): Promise<{ count: number; resetInSeconds: number }> {
    const now = Date.now();
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) return { count: 0, resetInSeconds: 0 };
    return { count: window.count, resetInSeconds: Math.ceil((window.resetAt - now) / 1000) };
  }

  async close(): Promise<void> {
    this.windows.clear();
  }

  async ping(): Promise<void> {}

  private evictExpired(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
