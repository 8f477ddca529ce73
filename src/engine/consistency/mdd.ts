/**
 * A hash-consed, quasi-reduced multi-valued decision diagram (MDD) store.
 *
 * Sources (reference only): Hadzic, Subbarayan, Jensen, Andersen, Møller, Hulgaard,
 * "Fast backtrack-free product configuration using a precompiled solution space
 * representation" (PETO 2004); Andersen, Hadzic, Hooker, Tiedemann, "A constraint
 * store based on multivalued decision diagrams" (CP 2007); Bryant's apply with a
 * computed table (IEEE ToC 1986) and Brace/Rudell/Bryant's unique table (DAC 1990).
 *
 * Layout: layer `l` has `domain[l]` values; node ids 0 (FALSE) and 1 (TRUE) are the
 * terminals; every other node sits on one layer and has one child per value of that
 * layer, each a terminal or a node of a deeper layer. Reduced: a node whose children
 * are all the same is that child, so an edge from layer l to a node of layer m > l + 1
 * (or to TRUE) leaves the layers in between free ("long edges"; every query accounts
 * for them). Hash-consing makes equal sub-diagrams one node.
 */
export const FALSE = 0;
export const TRUE = 1;

/** The `reason` of a form whose compile ran out of time (`consistencyMs`). */
export const TIME_BUDGET_REASON = 'the compile time budget ran out';

/** The compile budget ran out (caught by the compiler, which falls back). */
export class BudgetExceeded extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

export interface Budget {
  /** performance.now() past which building stops. */
  readonly deadline: number;
  /** Bytes of node storage past which building stops. */
  readonly bytes: number;
}

export type BinaryOp = 'and' | 'or';

export class MddStore {
  /** Per node: its layer (-1 for terminals). */
  layerOf: Int32Array<ArrayBuffer> = new Int32Array(1024);
  /** Per node: where its children start in `kids`. */
  kidStart: Int32Array<ArrayBuffer> = new Int32Array(1024);
  kids: Int32Array<ArrayBuffer> = new Int32Array(4096);
  nodeCount = 2;
  kidCount = 0;
  private table = new Int32Array(4096).fill(-1);
  private checks = 0;

  constructor(
    readonly domain: Int32Array,
    private readonly budget: Budget,
  ) {
    this.layerOf[0] = -1;
    this.layerOf[1] = -1;
  }

  get layers(): number {
    return this.domain.length;
  }

  /** Storage held, in bytes (nodes, children, unique table). */
  get bytes(): number {
    return this.kids.byteLength + this.layerOf.byteLength * 2 + this.table.byteLength;
  }

  /** The node of `layer` with these children (hash-consed; equal children collapse). */
  node(layer: number, children: ArrayLike<number>): number {
    const size = this.domain[layer];
    const first = children[0];
    let same = true;
    for (let v = 1; v < size && same; v++) same = children[v] === first;
    if (same) return first;
    let hash = (layer * 0x9e3779b1) | 0;
    for (let v = 0; v < size; v++) hash = (Math.imul(hash ^ children[v], 0x85ebca6b) + v) | 0;
    const mask = this.table.length - 1;
    let slot = (hash ^ (hash >>> 15)) & mask;
    for (;;) {
      const existing = this.table[slot];
      if (existing === -1) break;
      if (this.layerOf[existing] === layer && this.sameKids(existing, children, size))
        return existing;
      slot = (slot + 1) & mask;
    }
    const id = this.append(layer, children, size);
    this.table[slot] = id;
    if (this.nodeCount * 2 > this.table.length) this.rehash();
    return id;
  }

  private sameKids(node: number, children: ArrayLike<number>, size: number): boolean {
    const start = this.kidStart[node];
    for (let v = 0; v < size; v++) if (this.kids[start + v] !== children[v]) return false;
    return true;
  }

  private append(layer: number, children: ArrayLike<number>, size: number): number {
    const id = this.nodeCount++;
    if (id >= this.layerOf.length) {
      this.layerOf = grow(this.layerOf, this.layerOf.length * 2);
      this.kidStart = grow(this.kidStart, this.kidStart.length * 2);
    }
    if (this.kidCount + size > this.kids.length) {
      this.kids = grow(this.kids, Math.max(this.kids.length * 2, this.kidCount + size));
    }
    this.layerOf[id] = layer;
    this.kidStart[id] = this.kidCount;
    for (let v = 0; v < size; v++) this.kids[this.kidCount + v] = children[v];
    this.kidCount += size;
    if ((++this.checks & 1023) === 0) this.checkBudget();
    return id;
  }

  private checkBudget(): void {
    if (this.bytes > this.budget.bytes)
      throw new BudgetExceeded(`the decision diagram passed ${this.budget.bytes} bytes`);
    this.checkDeadline();
  }

  /**
   * Throws BudgetExceeded past the deadline. Also called by the builders' enumeration
   * (build.ts), which can run for long without creating a node (an all-TRUE result).
   */
  checkDeadline(): void {
    if (performance.now() > this.budget.deadline) throw new BudgetExceeded(TIME_BUDGET_REASON);
  }

  private rehash(): void {
    const table = new Int32Array(this.table.length * 2).fill(-1);
    const mask = table.length - 1;
    for (let id = 2; id < this.nodeCount; id++) {
      const layer = this.layerOf[id];
      const start = this.kidStart[id];
      const size = this.domain[layer];
      let hash = (layer * 0x9e3779b1) | 0;
      for (let v = 0; v < size; v++)
        hash = (Math.imul(hash ^ this.kids[start + v], 0x85ebca6b) + v) | 0;
      let slot = (hash ^ (hash >>> 15)) & mask;
      while (table[slot] !== -1) slot = (slot + 1) & mask;
      table[slot] = id;
    }
    this.table = table;
    this.checkBudget();
  }

  child(node: number, value: number): number {
    return this.kids[this.kidStart[node] + value];
  }

  /** The layer of a node; terminals count as below every layer. */
  layerOfNode(node: number): number {
    return node <= TRUE ? this.domain.length : this.layerOf[node];
  }

  /** Bryant's apply for AND / OR with a computed table (one per call). */
  apply(op: BinaryOp, a: number, b: number): number {
    const memo = new Map<number, number>();
    const and = op === 'and';
    const step = (x: number, y: number): number => {
      if (and) {
        if (x === FALSE || y === FALSE) return FALSE;
        if (x === TRUE) return y;
        if (y === TRUE || x === y) return x;
      } else {
        if (x === TRUE || y === TRUE) return TRUE;
        if (x === FALSE) return y;
        if (y === FALSE || x === y) return x;
      }
      const key = x < y ? x * 0x4000000 + y : y * 0x4000000 + x;
      const known = memo.get(key);
      if (known !== undefined) return known;
      // The shallower node branches; the deeper one is the same for every value.
      const lx = this.layerOf[x];
      const ly = this.layerOf[y];
      const layer = lx < ly ? lx : ly;
      const size = this.domain[layer];
      const children = new Int32Array(size);
      const xs = this.kidStart[x];
      const ys = this.kidStart[y];
      for (let v = 0; v < size; v++) {
        children[v] = step(
          lx === layer ? this.kids[xs + v] : x,
          ly === layer ? this.kids[ys + v] : y,
        );
      }
      const result = this.node(layer, children);
      memo.set(key, result);
      return result;
    };
    return step(a, b);
  }

  not(a: number): number {
    const memo = new Map<number, number>();
    const step = (x: number): number => {
      if (x <= TRUE) return x === TRUE ? FALSE : TRUE;
      const known = memo.get(x);
      if (known !== undefined) return known;
      const layer = this.layerOf[x];
      const size = this.domain[layer];
      const children = new Int32Array(size);
      const start = this.kidStart[x];
      for (let v = 0; v < size; v++) children[v] = step(this.kids[start + v]);
      const result = this.node(layer, children);
      memo.set(x, result);
      return result;
    };
    return step(a);
  }

  /** Nodes reachable from `root` (terminals excluded). */
  size(root: number): number {
    const seen = new Uint8Array(this.nodeCount);
    const stack = [root];
    let count = 0;
    while (stack.length > 0) {
      const node = stack.pop() as number;
      if (node <= TRUE || seen[node] === 1) continue;
      seen[node] = 1;
      count++;
      const start = this.kidStart[node];
      for (let v = 0; v < this.domain[this.layerOf[node]]; v++) stack.push(this.kids[start + v]);
    }
    return count;
  }
}

function grow(array: Int32Array, length: number): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(length);
  bigger.set(array);
  return bigger;
}
