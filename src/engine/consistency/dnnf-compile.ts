import { DNNF_FALSE, type DnnfForm } from './dnnf-form.js';
import { full, type Nogoods } from './dnnf-nogoods.js';
import {
  type Budget,
  BudgetExceeded,
  TIME_BUDGET_REASON,
  WORK_BUDGET_REASON,
} from './mdd-budget.js';
import { NodeTable } from './dnnf-nodes.js';
import { SequenceMap } from './dnnf-keys.js';

/**
 * Compiles nogoods over finite-domain layers (dnnf-nogoods.ts) into a smooth
 * decision-DNNF (dnnf-form.ts) by exhaustive DPLL, as the top-down compilers do (Huang &
 * Darwiche, "DPLL with a trace", 2005; c2d, Darwiche 2004; d4, Lagniez & Marquis 2017):
 *
 * - *unit propagation* over the nogoods: a nogood whose members but one are certain
 *   (the layer's remaining values all inside the member's mask) removes that member's
 *   values from its layer; one with every member certain is a conflict;
 * - *decomposition*: after each decision the nogoods left open (none of their members
 *   impossible yet) split into groups over disjoint layers, compiled apart and joined
 *   by a conjunction; a layer no open nogood constrains becomes a literal of its
 *   remaining values (which keeps the result smooth);
 * - *component caching*: a component is keyed by its open nogoods and its layers'
 *   remaining values, which determine its solutions, and compiled once;
 * - the *decision*: in each component, its open layer that the most nogoods mention (a
 *   static degree, read on the component's open layers: dynamic in what it chooses from;
 *   sharpSAT's and d4's VSADS add conflict activity to such a count).
 *
 * Within the compile budget (mdd-budget.ts): work = decisions (one per value tried, as the
 * diagram counts one per node made), bytes = the node arrays and the cache, time a safety
 * net; past any, BudgetExceeded. Members examined would be the finer unit, but a split
 * rescans its component's open nogoods: automotive01 passed 50 million of them on a compile
 * of 30 s at load 17.
 */
export function compileDnnf(domain: Int32Array, nogoods: Nogoods, budget: Budget): DnnfForm {
  return new DnnfCompiler(domain, nogoods, budget).compile();
}

/**
 * Most decisions nested at once. The compile recurses once per decision, so a model whose
 * components never split (a long chain of rules) would otherwise overflow the thread's
 * stack; past this the form stays propagation, as past any other budget. Feature models
 * split into components early and stay far below it.
 */
const MAX_DEPTH = 1_000;
const DEPTH_REASON = 'the decision-DNNF nests more decisions than its compile may hold';

class DnnfCompiler {
  private readonly dom: Int32Array;
  private readonly occStart: Int32Array;
  private readonly occ: Int32Array;
  private readonly trailLayer: number[] = [];
  private readonly trailMask: number[] = [];
  private readonly queue: number[] = [];
  private readonly nodes = new NodeTable();
  private readonly cache = new SequenceMap();
  private key = new Int32Array(1024);
  private keyLength = 0;
  /** Union-find over layers, reset per split (stamped). */
  private readonly parent: Int32Array;
  private readonly stamp: Int32Array;
  /** Per layer: the nogoods that mention it. */
  private readonly degree: Int32Array;
  private epoch = 0;
  /** Decisions open on the stack (component → split → component …). */
  private depth = 0;
  private steps = 0;
  private checks = 0;

  constructor(
    private readonly domain: Int32Array,
    private readonly nogoods: Nogoods,
    private readonly budget: Budget,
  ) {
    const layers = domain.length;
    this.dom = Int32Array.from(domain, full);
    const count = new Int32Array(layers + 1);
    for (const layer of nogoods.layer) count[layer + 1]++;
    for (let l = 0; l < layers; l++) count[l + 1] += count[l];
    this.occStart = count.slice();
    this.occ = new Int32Array(nogoods.layer.length);
    const at = count.slice();
    for (let i = 0; i + 1 < nogoods.start.length; i++)
      for (let j = nogoods.start[i]; j < nogoods.start[i + 1]; j++)
        this.occ[at[nogoods.layer[j]]++] = i;
    this.parent = new Int32Array(layers);
    this.stamp = new Int32Array(layers);
    this.degree = Int32Array.from(domain, (_, l) => count[l + 1] - count[l]);
  }

  compile(): DnnfForm {
    const all = Array.from({ length: this.nogoods.start.length - 1 }, (_, i) => i);
    let root = DNNF_FALSE;
    if (all.every((i) => this.check(i))) {
      const layers = Array.from(this.domain, (_, l) => l);
      if (this.propagate()) root = this.split(layers, all, -1);
    }
    return this.nodes.finish(root);
  }

  /** The node of a component: its layers (ascending) and open nogoods (ascending). */
  private component(layers: readonly number[], open: readonly number[]): number {
    const key = this.keyOf(layers, open);
    const known = this.cache.get(key, this.keyLength);
    if (known >= 0) return known;
    if (++this.depth > MAX_DEPTH) throw new BudgetExceeded(DEPTH_REASON);
    const layer = this.choose(open);
    const size = this.domain[layer];
    const kids: number[] = [];
    const mask = this.dom[layer];
    for (let v = 0; v < size; v++) {
      if ((mask & (1 << v)) === 0) {
        kids.push(DNNF_FALSE);
        continue;
      }
      const mark = this.trailLayer.length;
      this.spend(1); // a decision
      this.narrow(layer, 1 << v);
      kids.push(this.propagate() ? this.split(layers, open, layer) : DNNF_FALSE);
      this.undo(mark);
    }
    this.depth--;
    const node = this.nodes.decision(layer, kids);
    this.cache.set(this.keyOf(layers, open), this.keyLength, node);
    this.spend(0);
    return node;
  }

  /**
   * A component's cache key in `this.key[0 … keyLength)`: its layers, each followed by its
   * remaining values when some were removed (as -1 - mask), then its open nogoods (as
   * -2^30 - i, apart from both).
   */
  private keyOf(layers: readonly number[], open: readonly number[]): Int32Array {
    const needed = 2 * layers.length + open.length;
    if (this.key.length < needed) this.key = new Int32Array(2 * needed);
    const { key, dom, domain } = this;
    let at = 0;
    for (const layer of layers) {
      key[at++] = layer;
      if (dom[layer] !== full(domain[layer])) key[at++] = -1 - dom[layer];
    }
    for (const i of open) key[at++] = -(2 ** 30) - i;
    this.keyLength = at;
    return key;
  }

  /**
   * The open layer (in some open nogood) that most nogoods mention (the lowest on a tie):
   * a static degree, which made smaller forms than counting open nogoods only (windows 7:
   * 27,000 nodes against 62,000; docs/adr/0193).
   */
  private choose(open: readonly number[]): number {
    const { start, layer: members, mask } = this.nogoods;
    const { dom, degree } = this;
    let best = -1;
    for (const i of open) {
      for (let j = start[i]; j < start[i + 1]; j++) {
        const layer = members[j];
        if ((dom[layer] & ~mask[j]) === 0) continue; // certain: not open in it
        if (
          best < 0 ||
          degree[layer] > degree[best] ||
          (degree[layer] === degree[best] && layer < best)
        )
          best = layer;
      }
    }
    return best;
  }

  /**
   * The conjunction of what is left of a component once `decided` (or nothing, -1) is
   * decided and propagated: its open nogoods grouped into components over disjoint
   * layers, and a literal for each other layer.
   */
  private split(layers: readonly number[], open: readonly number[], decided: number): number {
    const { start, layer: members, mask } = this.nogoods;
    const { dom, parent, stamp } = this;
    const epoch = ++this.epoch;
    const still: number[] = [];
    const firstOf: number[] = [];
    for (const i of open) {
      const from = start[i];
      const to = start[i + 1];
      let satisfied = false;
      for (let j = from; j < to && !satisfied; j++) satisfied = (dom[members[j]] & mask[j]) === 0;
      if (satisfied) continue;
      let first = -1;
      for (let j = from; j < to; j++) {
        const layer = members[j];
        if ((dom[layer] & ~mask[j]) === 0) continue; // certain: not open in it
        if (stamp[layer] !== epoch) {
          stamp[layer] = epoch;
          parent[layer] = layer;
        }
        if (first < 0) first = layer;
        else union(parent, first, layer);
      }
      still.push(i);
      firstOf.push(first);
    }
    const literals: number[] = [];
    const groups = new Map<number, { layers: number[]; open: number[] }>();
    for (const layer of layers) {
      if (layer === decided) continue;
      if (stamp[layer] !== epoch) {
        literals.push(this.nodes.literal(layer, dom[layer], this.domain[layer]));
        continue;
      }
      const root = find(parent, layer);
      let group = groups.get(root);
      if (group === undefined) groups.set(root, (group = { layers: [], open: [] }));
      group.layers.push(layer);
    }
    still.forEach((i, k) => groups.get(find(parent, firstOf[k]))?.open.push(i));
    this.spend(0);
    // The literals as one conjunction of their own: made once, shared by every split that
    // leaves the same layers free (a feature's subtree, whatever was decided elsewhere),
    // where listing them in each split's conjunction made most of the edges.
    const kids = [this.nodes.conjunction(literals)];
    for (const group of groups.values()) {
      const node = this.component(group.layers, group.open);
      if (node === DNNF_FALSE) return DNNF_FALSE;
      kids.push(node);
    }
    return this.nodes.conjunction(kids);
  }

  /** Propagates the queued layers' nogoods; false on a conflict (the queue emptied). */
  private propagate(): boolean {
    const { queue, occStart, occ } = this;
    while (queue.length > 0) {
      const layer = queue.pop() as number;
      for (let k = occStart[layer]; k < occStart[layer + 1]; k++) {
        if (!this.check(occ[k])) {
          queue.length = 0;
          return false;
        }
      }
    }
    return true;
  }

  /** Nogood i under the current domains: false on a conflict; narrows a unit's layer. */
  private check(i: number): boolean {
    const { start, layer: members, mask } = this.nogoods;
    const { dom } = this;
    let open = -1;
    for (let j = start[i]; j < start[i + 1]; j++) {
      const layer = members[j];
      const inside = dom[layer] & mask[j];
      if (inside === 0) return true; // a member is impossible: the nogood holds
      if (inside === dom[layer]) continue; // certain
      if (open >= 0) {
        return true; // two open members: nothing to propagate
      }
      open = j;
    }
    if (open < 0) return false;
    this.narrow(members[open], dom[members[open]] & ~mask[open]);
    return true;
  }

  private narrow(layer: number, mask: number): void {
    this.trailLayer.push(layer);
    this.trailMask.push(this.dom[layer]);
    this.dom[layer] = mask;
    this.queue.push(layer);
  }

  private undo(mark: number): void {
    const { trailLayer, trailMask, dom } = this;
    while (trailLayer.length > mark) dom[trailLayer.pop() as number] = trailMask.pop() as number;
  }

  /** Checks the budget (the clock every 1,024 checks). */
  private spend(units: number): void {
    this.steps += units;
    const { budget } = this;
    if (this.steps > budget.steps) throw new BudgetExceeded(WORK_BUDGET_REASON);
    if (this.nodes.bytes + this.cache.bytes > budget.bytes)
      throw new BudgetExceeded('the compile byte budget ran out');
    if ((++this.checks & 0x3ff) === 0 && performance.now() > budget.deadline)
      throw new BudgetExceeded(TIME_BUDGET_REASON);
  }
}

function find(parent: Int32Array, x: number): number {
  while (parent[x] !== x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

function union(parent: Int32Array, a: number, b: number): void {
  const ra = find(parent, a);
  const rb = find(parent, b);
  if (ra !== rb) parent[rb] = ra;
}
