import type { CompiledModel } from './model.js';

/**
 * Compiled models by key (e.g. `${modelId}:${versionNumber}`), least recently used
 * evicted first. Versions are immutable, so an entry never goes stale.
 */
export class CompiledModelCache {
  private readonly entries = new Map<string, CompiledModel>();

  constructor(readonly maxEntries = 100) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1)
      throw new RangeError('maxEntries must be a positive integer');
  }

  get size(): number {
    return this.entries.size;
  }

  /** The cached model (now the most recently used), or undefined. */
  get(key: string): CompiledModel | undefined {
    const cached = this.entries.get(key);
    if (cached !== undefined) {
      // Re-insert: Map iteration order is insertion order, so the first entry is the LRU.
      this.entries.delete(key);
      this.entries.set(key, cached);
    }
    return cached;
  }

  getOrCompile(key: string, compile: () => CompiledModel): CompiledModel {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const model = compile();
    this.entries.set(key, model);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return model;
  }

  delete(key: string): boolean {
    return this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
