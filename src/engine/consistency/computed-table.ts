/**
 * The computed table of apply / not (Brace, Rudell, Bryant, DAC 1990; CUDD's cache): a
 * direct-mapped, lossy cache in typed arrays, shared by every operation of a compile.
 * A `Map` per apply grew without bound and V8 refuses a Map past 16,777,216 entries (a
 * RangeError, not a budget error); this one has a fixed most (MAX_SLOTS), and a
 * collision only overwrites an older entry, so a result is recomputed, never wrong.
 * Deterministic: the same operations in the same order hit and miss alike.
 */
export class ComputedTable {
  private a = new Int32Array(0);
  private b = new Int32Array(0);
  private result = new Int32Array(0);
  private mask = 0;

  constructor(slots = MIN_SLOTS) {
    this.resize(slots);
  }

  get bytes(): number {
    return this.a.byteLength * 3;
  }

  /** Sized to the store (about one slot per node, between MIN_SLOTS and MAX_SLOTS); empties it. */
  sizeFor(nodes: number): void {
    let slots = MIN_SLOTS;
    while (slots < nodes && slots < MAX_SLOTS) slots *= 2;
    if (slots !== this.a.length) this.resize(slots);
    else this.a.fill(-1);
  }

  clear(): void {
    this.a.fill(-1);
  }

  /** The cached result of `op` on (x, y), or -1. */
  get(op: number, x: number, y: number): number {
    const slot = this.slot(op, x, y);
    return this.a[slot] === x && this.b[slot] === y * 4 + op ? this.result[slot] : -1;
  }

  set(op: number, x: number, y: number, value: number): void {
    const slot = this.slot(op, x, y);
    this.a[slot] = x;
    this.b[slot] = y * 4 + op;
    this.result[slot] = value;
  }

  private slot(op: number, x: number, y: number): number {
    let hash = Math.imul(x, 0x9e3779b1) ^ Math.imul(y + op, 0x85ebca6b);
    hash ^= hash >>> 15;
    return hash & this.mask;
  }

  private resize(slots: number): void {
    this.a = new Int32Array(slots).fill(-1);
    this.b = new Int32Array(slots);
    this.result = new Int32Array(slots);
    this.mask = slots - 1;
  }
}

const MIN_SLOTS = 1 << 12;
/** 2^21 slots: 24 MB, outside the byte budget (which measures the diagram). */
const MAX_SLOTS = 1 << 21;
