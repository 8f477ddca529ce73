import { AND, DNNF_FALSE, DNNF_TRUE, type DnnfForm } from './dnnf-form.js';

/** Doubles count exactly below it: a node's count from here on is summed again in BigInt. */
const SAFE_COUNT = 2 ** 52;

/**
 * Past this many layers whose restriction changed since the last pass, the counts are made
 * again in one pass up the ids instead of from the changed decisions up their parents.
 */
const INCREMENTAL_LAYERS = 16;

/**
 * The decision-DNNF's count per node under restrictions `fixed[layer]` (a value, or -1
 * when free), kept from one query to the next (docs/adr/0235). A click changes one answer:
 * the nodes whose count can change are the decisions on that layer and their ancestors
 * (on windows 8, 5 % of the nodes a click on average), so the pass starts from those
 * decisions and goes up the parents of the nodes whose count did change. The exact count
 * (`exact`) keeps its BigInts the same way: a large node is summed again only when its
 * count changed since.
 *
 * A count is 0 exactly when the node has no solution (the consistency pass's answer): a
 * conjunction with a kid of count 0 is 0, never 0 × Infinity, so a count past the doubles'
 * range stays Infinity (large) and never NaN.
 */
export class DnnfCounts {
  /** Per node: its count in doubles (exact below SAFE_COUNT), for `countFor`. */
  readonly count: Float64Array;
  private readonly countFor: Int32Array;
  private counted = false;
  /** Per node: its exact count, valid when it is large and not `stale`. */
  private readonly big: Array<bigint | undefined>;
  private readonly stale: Uint8Array;
  /** Scratch: the nodes to count again, and the large nodes the root's count goes through. */
  private readonly mark: Uint8Array;
  private readonly changed: number[] = [];
  /** The parents of each node, and the decisions on each layer (flat, by start). */
  private readonly parentStart: Int32Array;
  private readonly parents: Int32Array;
  private readonly layerStart: Int32Array;
  private readonly layerNodes: Int32Array;

  constructor(
    private readonly dnnf: DnnfForm,
    layers: number,
  ) {
    const size = dnnf.nodeLayer.length;
    this.count = new Float64Array(size);
    this.countFor = new Int32Array(layers);
    this.big = new Array<bigint | undefined>(size);
    this.stale = new Uint8Array(size).fill(1);
    this.mark = new Uint8Array(size);
    [this.parentStart, this.parents] = byKey(size, (visit) => {
      for (let n = DNNF_TRUE + 1; n <= dnnf.root; n++)
        for (let k = dnnf.kidStart[n]; k < dnnf.kidStart[n + 1]; k++) visit(dnnf.kids[k], n);
    });
    [this.layerStart, this.layerNodes] = byKey(layers, (visit) => {
      for (let n = DNNF_TRUE + 1; n <= dnnf.root; n++)
        if (dnnf.nodeLayer[n] !== AND) visit(dnnf.nodeLayer[n], n);
    });
  }

  /** Brings `count` to the restrictions `fixed`. */
  update(fixed: Int32Array): void {
    const { countFor, changed } = this;
    changed.length = 0;
    if (this.counted) {
      for (let layer = 0; layer < fixed.length; layer++)
        if (countFor[layer] !== fixed[layer]) changed.push(layer);
      if (changed.length === 0) return;
    }
    countFor.set(fixed);
    if (this.counted && changed.length <= INCREMENTAL_LAYERS) this.recount(fixed, changed);
    else this.countAll(fixed);
    this.counted = true;
  }

  /** The number of valid completions of `fixed` (after `update(fixed)`), exact. */
  exact(fixed: Int32Array): number | bigint {
    const { count, big, stale } = this;
    const { root } = this.dnnf;
    if (count[root] < SAFE_COUNT) return count[root];
    const needed = this.largeUnderRoot(fixed);
    for (let n = DNNF_TRUE + 1; n <= root; n++) {
      if (needed[n] === 0 || stale[n] === 0) continue;
      big[n] = this.bigOf(n, fixed);
      stale[n] = 0;
    }
    needed.fill(0);
    return big[root] as bigint;
  }

  private countAll(fixed: Int32Array): void {
    const { count } = this;
    count[DNNF_FALSE] = 0;
    count[DNNF_TRUE] = 1;
    for (let n = DNNF_TRUE + 1; n <= this.dnnf.root; n++) count[n] = this.countOf(n, fixed);
    this.stale.fill(1);
  }

  /**
   * From the decisions on the changed layers up: a node is counted again when a kid's
   * count changed. Equal doubles below SAFE_COUNT are equal counts; a large node counted
   * again is taken as changed (its double may round an exact change away).
   */
  private recount(fixed: Int32Array, changed: readonly number[]): void {
    const { count, stale, mark, parentStart, parents, layerStart, layerNodes } = this;
    const { root } = this.dnnf;
    let from = root + 1;
    for (const layer of changed) {
      for (let i = layerStart[layer]; i < layerStart[layer + 1]; i++) {
        const n = layerNodes[i];
        mark[n] = 1;
        if (n < from) from = n;
      }
    }
    for (let n = from; n <= root; n++) {
      if (mark[n] === 0) continue;
      mark[n] = 0;
      const total = this.countOf(n, fixed);
      if (total === count[n] && total < SAFE_COUNT) continue;
      count[n] = total;
      stale[n] = 1;
      for (let p = parentStart[n]; p < parentStart[n + 1]; p++) mark[parents[p]] = 1;
    }
  }

  private countOf(n: number, fixed: Int32Array): number {
    const { nodeLayer, kidStart, kids } = this.dnnf;
    const { count } = this;
    const first = kidStart[n];
    const last = kidStart[n + 1];
    const layer = nodeLayer[n];
    if (layer === AND) {
      let total = 1;
      for (let k = first; k < last; k++) {
        const kid = count[kids[k]];
        if (kid === 0) return 0;
        total *= kid;
      }
      return total;
    }
    const f = fixed[layer];
    if (f >= 0) return count[kids[first + f]];
    let total = 0;
    for (let k = first; k < last; k++) total += count[kids[k]];
    return total;
  }

  /**
   * A large node's exact count from its kids': the small kids (mostly literals) combined
   * as doubles while safe, so a node makes one or two BigInts (a Map and a factor list
   * per node cost twice the BigInt arithmetic; docs/adr/0211).
   */
  private bigOf(n: number, fixed: Int32Array): bigint {
    const { nodeLayer, kidStart, kids } = this.dnnf;
    const { count, big } = this;
    const first = kidStart[n];
    const last = kidStart[n + 1];
    let total: bigint | undefined;
    if (nodeLayer[n] === AND) {
      let small = 1;
      for (let k = first; k < last; k++) {
        const kid = kids[k];
        const value = count[kid];
        if (value >= SAFE_COUNT)
          total = total === undefined ? big[kid] : total * (big[kid] as bigint);
        else if (small * value >= SAFE_COUNT) {
          total = total === undefined ? BigInt(small) : total * BigInt(small);
          small = value;
        } else small *= value;
      }
      return total === undefined ? BigInt(small) : small === 1 ? total : total * BigInt(small);
    }
    let small = 0;
    const f = fixed[nodeLayer[n]];
    for (let k = first; k < last; k++) {
      if (f >= 0 && f !== k - first) continue;
      const kid = kids[k];
      const value = count[kid];
      if (value >= SAFE_COUNT)
        total = total === undefined ? big[kid] : total + (big[kid] as bigint);
      else if (small + value >= SAFE_COUNT) {
        total = total === undefined ? BigInt(small) : total + BigInt(small);
        small = value;
      } else small += value;
    }
    return total === undefined ? BigInt(small) : small === 0 ? total : total + BigInt(small);
  }

  /**
   * The large nodes (count past SAFE_COUNT) the root's count sums or multiplies through
   * large nodes only, marked in `mark`: the kids of an answered layer's decisions other
   * than the answer's (most large nodes once a few questions are answered) are not summed.
   */
  private largeUnderRoot(fixed: Int32Array): Uint8Array {
    const { nodeLayer, kidStart, kids, root } = this.dnnf;
    const { count, mark: needed } = this;
    needed[root] = 1;
    for (let n = root; n > DNNF_TRUE; n--) {
      if (needed[n] === 0) continue;
      const first = kidStart[n];
      const last = kidStart[n + 1];
      const f = nodeLayer[n] === AND ? -1 : fixed[nodeLayer[n]];
      for (let k = first; k < last; k++)
        if ((f < 0 || f === k - first) && count[kids[k]] >= SAFE_COUNT) needed[kids[k]] = 1;
    }
    return needed;
  }
}

/**
 * A flat one-to-many relation over keys 0 … keys - 1: `each(visit)` visits its pairs, once
 * to size it and once to fill it; returns [start, members], key k's members at
 * start[k] … start[k + 1].
 */
function byKey(
  keys: number,
  each: (visit: (key: number, member: number) => void) => void,
): [Int32Array, Int32Array] {
  const start = new Int32Array(keys + 1);
  each((key) => start[key + 1]++);
  for (let key = 0; key < keys; key++) start[key + 1] += start[key];
  const members = new Int32Array(start[keys]);
  const next = start.slice(0, keys);
  each((key, member) => (members[next[key]++] = member));
  return [start, members];
}
