/**
 * A map from sequences of integers to node ids, for the compiler's component cache and
 * unique table (dnnf-compile.ts, dnnf-nodes.ts): the keys are stored end to end in one
 * growing Int32Array and found by their hash, so millions of keys cost their integers and
 * no string or array each (string keys spent most of a compile in building and
 * collecting them).
 */
export class SequenceMap {
  private pool = new Int32Array(1 << 16);
  private used = 0;
  /** Per entry: where its key starts in the pool, its length, its value, the next in its bucket. */
  private entries = new Int32Array(1 << 12);
  private count = 0;
  private buckets = new Int32Array(1 << 12).fill(-1);

  /** Bytes held (the pool, entries and buckets as allocated). */
  get bytes(): number {
    return this.pool.byteLength + this.entries.byteLength + this.buckets.byteLength;
  }

  /** The value of `key[0 … length)`, or -1. */
  get(key: Int32Array, length: number): number {
    const hash = hashOf(key, length);
    for (
      let e = this.buckets[hash & (this.buckets.length - 1)];
      e >= 0;
      e = this.entries[4 * e + 3]
    ) {
      if (this.entries[4 * e + 1] !== length) continue;
      const at = this.entries[4 * e];
      let same = true;
      for (let i = 0; i < length && same; i++) same = this.pool[at + i] === key[i];
      if (same) return this.entries[4 * e + 2];
    }
    return -1;
  }

  /** Adds `key[0 … length)` → value (the key must be absent). */
  set(key: Int32Array, length: number, value: number): void {
    if (this.used + length > this.pool.length) {
      const pool = new Int32Array(Math.max(this.pool.length * 2, this.used + length));
      pool.set(this.pool.subarray(0, this.used));
      this.pool = pool;
    }
    this.pool.set(key.subarray(0, length), this.used);
    if (4 * (this.count + 1) > this.entries.length) {
      const entries = new Int32Array(this.entries.length * 2);
      entries.set(this.entries);
      this.entries = entries;
    }
    if (this.count + 1 > this.buckets.length) this.rehash(this.buckets.length * 2);
    const e = this.count++;
    const slot = hashOf(key, length) & (this.buckets.length - 1);
    this.entries.set([this.used, length, value, this.buckets[slot]], 4 * e);
    this.buckets[slot] = e;
    this.used += length;
  }

  private rehash(size: number): void {
    this.buckets = new Int32Array(size).fill(-1);
    for (let e = 0; e < this.count; e++) {
      const at = this.entries[4 * e];
      const slot = hashOf(this.pool.subarray(at), this.entries[4 * e + 1]) & (size - 1);
      this.entries[4 * e + 3] = this.buckets[slot];
      this.buckets[slot] = e;
    }
  }
}

/** A 32-bit hash of the sequence (multiply-xorshift per integer). */
function hashOf(key: Int32Array, length: number): number {
  let h = 0x811c9dc5 ^ length;
  for (let i = 0; i < length; i++) {
    h = Math.imul(h ^ key[i], 0x9e3779b1);
    h ^= h >>> 15;
  }
  return h >>> 0;
}
