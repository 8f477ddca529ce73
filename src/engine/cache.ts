import type { CompiledModel } from './model.js';

interface Entry {
  readonly model: CompiledModel;
  /** Estimated heap held by the model (`modelHeapBytes`, heap-estimate.ts). */
  readonly bytes: number;
  /** The model a version belongs to, and its number (superseded versions go first). */
  readonly group: string | undefined;
  readonly version: number;
}

export interface CacheEntryOptions {
  bytes?: number;
  group?: string;
  version?: number;
}

/**
 * Compiled models by key (e.g. `${modelId}:${versionNumber}`), bounded by entry count
 * and by estimated bytes. When over a bound, superseded versions (an older version of a
 * model whose newer version has been seen) are evicted first, least recently used
 * first; then the least recently used entries. Versions are immutable, so an entry
 * never goes stale.
 */
export class CompiledModelCache {
  private readonly entries = new Map<string, Entry>();
  private readonly latest = new Map<string, number>();
  private totalBytes = 0;

  constructor(
    readonly maxEntries = 100,
    readonly maxBytes = Number.POSITIVE_INFINITY,
  ) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1)
      throw new RangeError('maxEntries must be a positive integer');
    if (!(maxBytes > 0)) throw new RangeError('maxBytes must be positive');
  }

  get size(): number {
    return this.entries.size;
  }

  /** Estimated bytes of every cached model together. */
  get bytes(): number {
    return this.totalBytes;
  }

  /** The cached model (now the most recently used), or undefined. */
  get(key: string): CompiledModel | undefined {
    const cached = this.entries.get(key);
    if (cached === undefined) return undefined;
    // Re-insert: Map iteration order is insertion order, so the first entry is the LRU.
    this.entries.delete(key);
    this.entries.set(key, cached);
    return cached.model;
  }

  getOrCompile(key: string, compile: () => CompiledModel): CompiledModel {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const model = compile();
    this.set(key, model);
    return model;
  }

  /**
   * Caches a model. One larger than `maxBytes` on its own is not kept (the caller still
   * has it for this request).
   */
  set(key: string, model: CompiledModel, options: CacheEntryOptions = {}): void {
    const entry: Entry = {
      model,
      bytes: options.bytes ?? 0,
      group: options.group,
      version: options.version ?? 0,
    };
    this.delete(key);
    if (entry.group !== undefined)
      this.latest.set(entry.group, Math.max(this.latest.get(entry.group) ?? 0, entry.version));
    if (entry.bytes > this.maxBytes) return;
    this.entries.set(key, entry);
    this.totalBytes += entry.bytes;
    while (this.entries.size > this.maxEntries || this.totalBytes > this.maxBytes) {
      const victim = this.superseded() ?? this.entries.keys().next().value;
      if (victim === undefined) break;
      this.delete(victim);
    }
  }

  delete(key: string): boolean {
    const entry = this.entries.get(key);
    if (entry === undefined) return false;
    this.entries.delete(key);
    this.totalBytes -= entry.bytes;
    return true;
  }

  clear(): void {
    this.entries.clear();
    this.latest.clear();
    this.totalBytes = 0;
  }

  /** The least recently used entry whose model has a newer version, if any. */
  private superseded(): string | undefined {
    for (const [key, entry] of this.entries) {
      if (entry.group === undefined) continue;
      if ((this.latest.get(entry.group) ?? 0) > entry.version) return key;
    }
    return undefined;
  }
}
