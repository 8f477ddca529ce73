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
 *
 * The budget it is built against and the errors it throws: mdd-budget.ts.
 */
import { compactInPlace } from './compact-store.js';
import { ComputedTable } from './computed-table.js';
import { grow, shrink } from './int32-arrays.js';
import {
  type Budget,
  BudgetExceeded,
  OverCap,
  StoreFull,
  TIME_BUDGET_REASON,
  WORK_BUDGET_REASON,
} from './mdd-budget.js';

export const FALSE = 0;
export const TRUE = 1;

export type BinaryOp = 'and' | 'or';
const AND = 0;
const OR = 1;
const NOT = 2;

export class MddStore {
  /** Per node: its layer (-1 for terminals). */
  layerOf: Int32Array<ArrayBuffer> = new Int32Array(1024);
  /** Per node: where its children start in `kids`. */
  kidStart: Int32Array<ArrayBuffer> = new Int32Array(1024);
  kids: Int32Array<ArrayBuffer> = new Int32Array(4096);
  nodeCount = 2;
  kidCount = 0;
  /** Work done so far (Budget.steps): deterministic, whatever the machine's load. */
  work = 0;
  /** Work past which `charge` throws OverCap (a schedule's own limit within the budget). */
  workCap = Infinity;
  /** Node ids the compile keeps across garbage collections (remapped in place by `collect`). */
  readonly pins: number[] = [];
  private table = new Int32Array(4096).fill(-1);
  private readonly computed = new ComputedTable();
  /** Children of the nodes being built, a stack (apply recurses once per layer). */
  private scratch = new Int32Array(1024);
  private scratchTop = 0;
  /** Nodes live after the last collection (the next one comes when the store doubles). */
  private liveAfterCollect = 0;

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
  node(layer: number, children: ArrayLike<number>, offset = 0): number {
    const size = this.domain[layer];
    const first = children[offset];
    let same = true;
    for (let v = 1; v < size && same; v++) same = children[offset + v] === first;
    if (same) return first;
    let hash = (layer * 0x9e3779b1) | 0;
    for (let v = 0; v < size; v++)
      hash = (Math.imul(hash ^ children[offset + v], 0x85ebca6b) + v) | 0;
    const mask = this.table.length - 1;
    let slot = (hash ^ (hash >>> 15)) & mask;
    for (;;) {
      const existing = this.table[slot];
      if (existing === -1) break;
      if (this.layerOf[existing] === layer && this.sameKids(existing, children, offset, size))
        return existing;
      slot = (slot + 1) & mask;
    }
    const id = this.append(layer, children, offset, size);
    this.table[slot] = id;
    if (this.nodeCount * 2 > this.table.length) this.rehash(this.table.length * 2);
    return id;
  }

  private sameKids(node: number, children: ArrayLike<number>, offset: number, size: number) {
    const start = this.kidStart[node];
    for (let v = 0; v < size; v++) if (this.kids[start + v] !== children[offset + v]) return false;
    return true;
  }

  private append(layer: number, children: ArrayLike<number>, offset: number, size: number) {
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
    for (let v = 0; v < size; v++) this.kids[this.kidCount + v] = children[offset + v];
    this.kidCount += size;
    this.charge(1);
    return id;
  }

  /** Counts `units` of work; every 1,024 checks the budgets (steps, bytes, the deadline). */
  charge(units: number): void {
    const before = this.work;
    this.work += units;
    if (Math.floor(this.work / 1024) === Math.floor(before / 1024)) return;
    if (this.work > this.budget.steps)
      throw new BudgetExceeded(`${WORK_BUDGET_REASON} (${this.budget.steps} steps)`);
    if (this.work > this.workCap) throw new OverCap("past the schedule's own work cap");
    if (this.bytes > this.budget.bytes)
      throw new StoreFull(`the decision diagram passed ${this.budget.bytes} bytes`);
    this.checkDeadline();
  }

  /** Memory the compile holds outside the store (a table's memo), held to the byte budget. */
  chargeBytes(extra: number): void {
    if (this.bytes + extra > this.budget.bytes)
      throw new BudgetExceeded(`the decision diagram passed ${this.budget.bytes} bytes`);
  }

  /** Throws BudgetExceeded past the deadline (the safety net). */
  checkDeadline(): void {
    if (performance.now() > this.budget.deadline) throw new BudgetExceeded(TIME_BUDGET_REASON);
  }

  private rehash(slots: number): void {
    const table = new Int32Array(slots).fill(-1);
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
    if (this.bytes > this.budget.bytes)
      throw new StoreFull(`the decision diagram passed ${this.budget.bytes} bytes`);
  }

  /**
   * Runs `build` (which reads its inputs from `pins`); when the store passes its byte
   * budget, collects the garbage and runs it once more, so the budget measures live nodes
   * (the result and what the compile still needs), never dead intermediate ones. Also
   * collects when the store has doubled since the last collection.
   */
  retrying(build: () => number): number {
    if (this.nodeCount > Math.max(MIN_COLLECT, this.liveAfterCollect * 2)) this.collect([]);
    try {
      return build();
    } catch (error) {
      if (!(error instanceof StoreFull)) throw error;
    }
    this.collect([]);
    if (this.bytes > this.budget.bytes)
      throw new BudgetExceeded(`the decision diagram passed ${this.budget.bytes} bytes`);
    return build();
  }

  /**
   * Keeps only the nodes reachable from `pins` and `extra` (remapped in place: `extra`'s
   * new ids are returned). A child's id is always below its parent's, so one sweep down
   * marks and one sweep up renumbers, preserving that order.
   */
  collect(extra: readonly number[]): number[] {
    this.scratchTop = 0;
    const { keep, nodes, kids } = compactInPlace(this, [...this.pins, ...extra]);
    this.nodeCount = nodes;
    this.kidCount = kids;
    this.liveAfterCollect = nodes;
    this.layerOf = shrink(this.layerOf, nodes);
    this.kidStart = shrink(this.kidStart, nodes);
    this.kids = shrink(this.kids, kids);
    let slots = 4096;
    while (slots < nodes * 2) slots *= 2;
    this.rehash(slots);
    this.computed.sizeFor(nodes);
    for (let i = 0; i < this.pins.length; i++) this.pins[i] = keep[this.pins[i]];
    return extra.map((id) => keep[id]);
  }

  child(node: number, value: number): number {
    return this.kids[this.kidStart[node] + value];
  }

  /** The layer of a node; terminals count as below every layer. */
  layerOfNode(node: number): number {
    return node <= TRUE ? this.domain.length : this.layerOf[node];
  }

  /** Bryant's apply for AND / OR with the shared computed table. */
  apply(op: BinaryOp, a: number, b: number): number {
    return this.step(op === 'and' ? AND : OR, a, b);
  }

  private step(op: number, x: number, y: number): number {
    if (op === AND) {
      if (x === FALSE || y === FALSE) return FALSE;
      if (x === TRUE) return y;
      if (y === TRUE || x === y) return x;
    } else {
      if (x === TRUE || y === TRUE) return TRUE;
      if (x === FALSE) return y;
      if (y === FALSE || x === y) return x;
    }
    if (x > y) [x, y] = [y, x];
    const known = this.computed.get(op, x, y);
    if (known >= 0) return known;
    this.charge(1);
    // The shallower node branches; the deeper one is the same for every value.
    const lx = this.layerOf[x];
    const ly = this.layerOf[y];
    const layer = lx < ly ? lx : ly;
    const size = this.domain[layer];
    const at = this.reserve(size);
    const xs = this.kidStart[x];
    const ys = this.kidStart[y];
    for (let v = 0; v < size; v++) {
      const kid = this.step(
        op,
        lx === layer ? this.kids[xs + v] : x,
        ly === layer ? this.kids[ys + v] : y,
      );
      this.scratch[at + v] = kid;
    }
    const result = this.node(layer, this.scratch, at);
    this.scratchTop = at;
    this.computed.set(op, x, y, result);
    return result;
  }

  not(a: number): number {
    if (a <= TRUE) return a === TRUE ? FALSE : TRUE;
    const known = this.computed.get(NOT, a, 0);
    if (known >= 0) return known;
    this.charge(1);
    const layer = this.layerOf[a];
    const size = this.domain[layer];
    const at = this.reserve(size);
    const start = this.kidStart[a];
    for (let v = 0; v < size; v++) this.scratch[at + v] = this.not(this.kids[start + v]);
    const result = this.node(layer, this.scratch, at);
    this.scratchTop = at;
    this.computed.set(NOT, a, 0, result);
    return result;
  }

  /** `size` slots on the children stack (the array may be replaced: index it afresh). */
  private reserve(size: number): number {
    const at = this.scratchTop;
    if (at + size > this.scratch.length)
      this.scratch = grow(this.scratch, Math.max(this.scratch.length * 2, at + size));
    this.scratchTop = at + size;
    return at;
  }
}

/** Below this many nodes the store is never collected for its size alone. */
const MIN_COLLECT = 1 << 16;
