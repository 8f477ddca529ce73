import { grow } from './int32-arrays.js';
import { FALSE, type MddStore, TRUE } from './mdd.js';

/** One column of an `allowed` table: its layer and each row's value index (-1: none). */
export interface TableColumn {
  readonly layer: number;
  readonly cells: Int32Array;
}

/**
 * The row-matching diagram of an `allowed` table, columns in layer order: value v of a
 * column keeps the rows whose cell is v; "no value" (0) matches every row.
 *
 * A node is decided by the set of rows still matching; rows equal from a column on are
 * one *suffix class* there (interned bottom-up), so a state is a sorted set of class ids
 * (far fewer than rows), memoized in typed arrays by a numeric hash. (It replaced a memo
 * keyed by joined row-index strings, which took most of part building.)
 */
export function tableDiagram(
  store: MddStore,
  columns: readonly TableColumn[],
  rowCount: number,
): number {
  const levels = suffixClasses(columns, rowCount);
  const memo = new SetMemo(store);
  const stamp: Int32Array[] = levels.map(
    (_, i) => new Int32Array(i + 1 < levels.length ? levels[i + 1].count : 1),
  );
  let stampNow = 0;
  const step = (i: number, set: Int32Array): number => {
    if (set.length === 0) return FALSE;
    if (i === levels.length) return TRUE;
    const known = memo.get(i, set);
    if (known >= 0) return known;
    store.charge(1 + (set.length >>> 4));
    const { value, next } = levels[i];
    const size = store.domain[columns[i].layer];
    // Rows by value: counting sort of the set's classes by their cell.
    const offsets = new Int32Array(size + 1);
    for (let k = 0; k < set.length; k++) {
      const cell = value[set[k]];
      if (cell > 0 && cell < size) offsets[cell + 1]++;
    }
    for (let v = 1; v <= size; v++) offsets[v] += offsets[v - 1];
    const sorted = new Int32Array(offsets[size]);
    const fill = offsets.slice();
    for (let k = 0; k < set.length; k++) {
      const cell = value[set[k]];
      if (cell > 0 && cell < size) sorted[fill[cell]++] = set[k];
    }
    const marks = stamp[i];
    /** The distinct next-level classes of `classes[from, to)`, ascending. */
    const successors = (classes: Int32Array, from: number, to: number): Int32Array => {
      stampNow++;
      const out: number[] = [];
      for (let k = from; k < to; k++) {
        const c = next[classes[k]];
        if (marks[c] !== stampNow) {
          marks[c] = stampNow;
          out.push(c);
        }
      }
      return Int32Array.from(out).sort();
    };
    const children = new Int32Array(size);
    children[0] = step(i + 1, successors(set, 0, set.length));
    for (let v = 1; v < size; v++)
      children[v] =
        offsets[v] === offsets[v + 1]
          ? FALSE
          : step(i + 1, successors(sorted, offsets[v], offsets[v + 1]));
    const node = store.node(columns[i].layer, children);
    memo.set(i, set, node);
    return node;
  };
  const top = new Int32Array(levels.length > 0 ? levels[0].count : 0);
  for (let c = 0; c < top.length; c++) top[c] = c;
  if (levels.length === 0) return rowCount > 0 ? TRUE : FALSE;
  return step(0, top);
}

interface Level {
  /** Classes at this column. */
  count: number;
  /** Per class: its cell in this column, and its class at the next column. */
  value: Int32Array;
  next: Int32Array;
}

/** Rows equal from column i on are one class at i (the last column's next class is 0). */
function suffixClasses(columns: readonly TableColumn[], rowCount: number): Level[] {
  const levels: Level[] = new Array<Level>(columns.length);
  let below = new Int32Array(rowCount);
  let belowCount = 1;
  for (let i = columns.length - 1; i >= 0; i--) {
    const cells = columns[i].cells;
    const ids = new Map<number, number>();
    const classOf = new Int32Array(rowCount);
    const value: number[] = [];
    const next: number[] = [];
    for (let r = 0; r < rowCount; r++) {
      const key = (cells[r] + 1) * belowCount + below[r];
      let id = ids.get(key);
      if (id === undefined) {
        id = value.length;
        ids.set(key, id);
        value.push(cells[r]);
        next.push(below[r]);
      }
      classOf[r] = id;
    }
    levels[i] = { count: value.length, value: Int32Array.from(value), next: Int32Array.from(next) };
    below = classOf;
    belowCount = value.length;
  }
  return levels;
}

/** (level, sorted set) → node, in typed arrays: no Map, so no engine limit on entries. */
class SetMemo {
  private pool = new Int32Array(1 << 12);
  private poolTop = 0;
  private start = new Int32Array(1 << 10);
  private length = new Int32Array(1 << 10);
  private level = new Int32Array(1 << 10);
  private node = new Int32Array(1 << 10);
  private count = 0;
  private slots = new Int32Array(1 << 11).fill(-1);

  constructor(private readonly store: MddStore) {}

  get(level: number, set: Int32Array): number {
    const mask = this.slots.length - 1;
    for (let slot = hash(level, set) & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot];
      if (entry === -1) return -1;
      if (this.level[entry] === level && this.same(entry, set)) return this.node[entry];
    }
  }

  set(level: number, set: Int32Array, node: number): void {
    if (this.poolTop + set.length > this.pool.length) {
      this.pool = grow(this.pool, Math.max(this.pool.length * 2, this.poolTop + set.length));
      // The memo is part of the compile's memory: held to the store's byte budget.
      this.store.chargeBytes(this.pool.byteLength);
    }
    if (this.count === this.start.length) {
      const size = this.count * 2;
      this.start = grow(this.start, size);
      this.length = grow(this.length, size);
      this.level = grow(this.level, size);
      this.node = grow(this.node, size);
    }
    const entry = this.count++;
    this.pool.set(set, this.poolTop);
    this.start[entry] = this.poolTop;
    this.length[entry] = set.length;
    this.level[entry] = level;
    this.node[entry] = node;
    this.poolTop += set.length;
    if (this.count * 2 > this.slots.length) this.rehash();
    else this.place(entry, hash(level, set));
  }

  private same(entry: number, set: Int32Array): boolean {
    if (this.length[entry] !== set.length) return false;
    const at = this.start[entry];
    for (let k = 0; k < set.length; k++) if (this.pool[at + k] !== set[k]) return false;
    return true;
  }

  private place(entry: number, code: number): void {
    const mask = this.slots.length - 1;
    let slot = code & mask;
    while (this.slots[slot] !== -1) slot = (slot + 1) & mask;
    this.slots[slot] = entry;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(-1);
    for (let entry = 0; entry < this.count; entry++) {
      const at = this.start[entry];
      this.place(entry, hash(this.level[entry], this.pool.subarray(at, at + this.length[entry])));
    }
  }
}

function hash(level: number, set: Int32Array): number {
  let h = Math.imul(level + 1, 0x9e3779b1);
  for (let k = 0; k < set.length; k++) h = Math.imul(h ^ set[k], 0x85ebca6b) + k;
  return (h ^ (h >>> 15)) >>> 0;
}
