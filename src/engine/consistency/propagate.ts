import { type ConsistencyForm, PAIR_CACHE_BYTES } from './form.js';
import { product } from './count.js';
import { FALSE, TRUE } from './mdd.js';

/**
 * Generalized arc consistency (GAC) over the parts of the finite part, each one kept
 * as its own small decision diagram (the fallback past the compile budget; see
 * fallback.ts). A value stays in a layer's domain while every part has a path
 * root → TRUE through it whose other values are in their domains; a part that
 * removes values wakes the parts on those layers, until nothing changes (the
 * coarse-grained AC-3 scheme for non-binary constraints: Mackworth 1977; Bessiere,
 * "Constraint Propagation", Handbook of Constraint Programming, 2006, ch. 3). Each
 * part's revision is one backward and one forward pass over its diagram, as in
 * Cheng & Yap, "An MDD-based generalized arc consistency algorithm for positive and
 * negative table constraints and some global constraints" (Constraints 15, 2010).
 *
 * Sound, not complete: a value it removes has no valid completion, a wipe-out proves
 * the answers conflict; a value it keeps may still have none when parts interact in
 * a cycle. Exact when the parts' scopes form a Berge-acyclic hypergraph (e.g. one
 * table and unary bounds). Domains are flat per value (`ConsistencyForm.valueBase`),
 * 1 = still possible.
 */
export class Propagator {
  /** Per part: its nodes, shallowest layer first. */
  private readonly nodes: Int32Array[];
  /** Per part: the layers it has nodes on, ascending. */
  private readonly scopes: Int32Array[];
  /** Per layer: the parts with nodes on it. */
  private readonly onLayer: Int32Array[];
  private readonly alive: Uint8Array;
  private readonly reach: Uint8Array;
  private readonly supported: Uint8Array;
  private readonly free: Int32Array;
  /** The closure with nothing answered (undefined: the parts alone wipe out). */
  readonly base: Uint8Array | undefined;
  private readonly pairs = new Map<number, Uint8Array | undefined>();
  private pairBytes = 0;
  /** The nodes of all parts together: what one full propagation may visit per round. */
  readonly size: number;

  private readonly roots: Int32Array;
  /**
   * Part nodes revised so far: the units of the explanation budget past the compile budget
   * and of the completion search's budget (search.ts).
   */
  revised = 0;

  constructor(private readonly form: ConsistencyForm) {
    const roots = (this.roots = form.partRoots);
    const { nodeLayer, kidStart, kids, domain } = form;
    const layerParts: number[][] = Array.from({ length: domain.length }, () => []);
    const seen = new Int32Array(nodeLayer.length).fill(-1);
    let widest = 0;
    this.nodes = [];
    this.scopes = [];
    for (let p = 0; p < roots.length; p++) {
      const found: number[] = [];
      const stack = [roots[p]];
      while (stack.length > 0) {
        const node = stack.pop() as number;
        if (node <= TRUE || seen[node] === p) continue;
        seen[node] = p;
        found.push(node);
        for (let v = 0, start = kidStart[node]; v < domain[nodeLayer[node]]; v++)
          stack.push(kids[start + v]);
      }
      found.sort((a, b) => nodeLayer[a] - nodeLayer[b]);
      const scope = [...new Set(found.map((node) => nodeLayer[node]))];
      for (const layer of scope) layerParts[layer].push(p);
      widest = Math.max(widest, scope.length);
      this.nodes.push(Int32Array.from(found));
      this.scopes.push(Int32Array.from(scope));
    }
    this.onLayer = layerParts.map((parts) => Int32Array.from(parts));
    this.size = this.nodes.reduce((sum, part) => sum + part.length, 0);
    this.alive = new Uint8Array(nodeLayer.length);
    this.reach = new Uint8Array(nodeLayer.length);
    this.supported = new Uint8Array(form.valueBase[domain.length]);
    this.free = new Int32Array(widest + 1);
    const all = new Uint8Array(form.valueBase[domain.length]).fill(1);
    this.base = this.fixpoint(
      all,
      Array.from(this.roots, (_, p) => p),
    );
  }

  /**
   * The GAC closure of the answers (`fixed[layer]` a value, or -1 when free), or
   * undefined when propagation proves they have no valid completion.
   */
  closure(fixed: Int32Array): Uint8Array | undefined {
    if (this.base === undefined) return undefined;
    const domains = this.base.slice();
    const { valueBase } = this.form;
    const woken: number[] = [];
    for (let layer = 0; layer < fixed.length; layer++) {
      const value = fixed[layer];
      if (value < 0) continue;
      const at = valueBase[layer] + value;
      if (domains[at] === 0) return undefined;
      domains.fill(0, valueBase[layer], valueBase[layer + 1]);
      domains[at] = 1;
      for (const part of this.onLayer[layer]) woken.push(part);
    }
    return this.fixpoint(domains, woken);
  }

  /**
   * A closure (`domains`, left as it is) with one more value fixed, propagated: only the
   * parts on that layer are woken first (the completion search's step), or undefined on a
   * wipe-out.
   */
  narrow(domains: Uint8Array, layer: number, value: number): Uint8Array | undefined {
    const { valueBase } = this.form;
    const at = valueBase[layer] + value;
    if (domains[at] === 0) return undefined;
    const next = domains.slice();
    next.fill(0, valueBase[layer], valueBase[layer + 1]);
    next[at] = 1;
    return this.fixpoint(next, Array.from(this.onLayer[layer]));
  }

  /** The closure with one value fixed: the pairwise relation by propagation, cached. */
  pairwise(layer: number, value: number): Uint8Array | undefined {
    const key = this.form.valueBase[layer] + value;
    if (this.pairs.has(key)) return this.pairs.get(key);
    const fixed = new Int32Array(this.form.domain.length).fill(-1);
    fixed[layer] = value;
    const row = this.closure(fixed);
    this.pairBytes += row?.byteLength ?? 8;
    if (this.pairBytes <= PAIR_CACHE_BYTES) this.pairs.set(key, row);
    return row;
  }

  /** Whether some part constrains the layer (a layer no part reads takes any value of its domain). */
  constrains(layer: number): boolean {
    return this.onLayer[layer].length > 0;
  }

  /** Whether the parts in `active` alone (indexes into the roots) survive propagation. */
  consistentParts(active: readonly number[]): boolean {
    const mask = new Uint8Array(this.roots.length);
    for (const part of active) mask[part] = 1;
    const all = new Uint8Array(this.form.valueBase[this.form.domain.length]).fill(1);
    return this.fixpoint(all, active, mask) !== undefined;
  }

  /** AC-3 over parts: revise the woken parts until no domain shrinks; undefined on a wipe-out. */
  private fixpoint(
    domains: Uint8Array,
    woken: readonly number[],
    active?: Uint8Array,
  ): Uint8Array | undefined {
    const queued = new Uint8Array(this.roots.length);
    const queue: number[] = [];
    for (const part of woken) {
      if (queued[part] === 1) continue;
      queued[part] = 1;
      queue.push(part);
    }
    for (let head = 0; head < queue.length; head++) {
      const part = queue[head];
      queued[part] = 0;
      const shrunk = this.revise(part, domains);
      if (shrunk === undefined) return undefined;
      for (const layer of shrunk) {
        for (const other of this.onLayer[layer]) {
          if (other === part || queued[other] === 1) continue;
          if (active !== undefined && active[other] === 0) continue;
          queued[other] = 1;
          queue.push(other);
        }
      }
    }
    return domains;
  }

  /**
   * Removes the values of the part's layers that no path root → TRUE within the
   * domains uses; returns the layers that shrank, or undefined when none is left.
   */
  private revise(part: number, domains: Uint8Array): number[] | undefined {
    const root = this.roots[part];
    if (root === TRUE) return [];
    if (root === FALSE) return undefined;
    const { nodeLayer, kidStart, kids, domain, valueBase } = this.form;
    const { alive, reach, supported, free } = this;
    const nodes = this.nodes[part];
    const scope = this.scopes[part];
    this.revised += nodes.length;
    // Backward: a node is alive when some value in its layer's domain leads to TRUE.
    for (let i = nodes.length - 1; i >= 0; i--) {
      const node = nodes[i];
      const layer = nodeLayer[node];
      const start = kidStart[node];
      const base = valueBase[layer];
      let found = 0;
      for (let v = 0, size = domain[layer]; v < size; v++) {
        if (domains[base + v] === 0) continue;
        const kid = kids[start + v];
        if (kid === TRUE || (kid > TRUE && alive[kid] === 1)) {
          found = 1;
          break;
        }
      }
      alive[node] = found;
      reach[node] = 0;
    }
    if (alive[root] === 0) return undefined;
    reach[root] = 1;
    for (const layer of scope) supported.fill(0, valueBase[layer], valueBase[layer + 1]);
    free.fill(0, 0, scope.length + 1);
    // Forward: values on live paths are supported; an edge that skips some of the
    // part's layers leaves them free (every value of their domains is supported).
    let position = 0;
    for (const node of nodes) {
      const layer = nodeLayer[node];
      while (scope[position] !== layer) position++;
      if (reach[node] === 0) continue;
      const start = kidStart[node];
      const base = valueBase[layer];
      for (let v = 0, size = domain[layer]; v < size; v++) {
        if (domains[base + v] === 0) continue;
        const kid = kids[start + v];
        if (kid === FALSE || (kid > TRUE && alive[kid] === 0)) continue;
        supported[base + v] = 1;
        let next = scope.length;
        if (kid > TRUE) {
          reach[kid] = 1;
          next = indexOf(scope, nodeLayer[kid], position + 1);
        }
        if (next > position + 1) {
          free[position + 1]++;
          free[next]--;
        }
      }
    }
    const shrunk: number[] = [];
    for (let i = 0, open = 0; i < scope.length; i++) {
      open += free[i];
      if (open > 0) continue;
      const layer = scope[i];
      let removed = false;
      for (let at = valueBase[layer], end = valueBase[layer + 1]; at < end; at++) {
        if (domains[at] === 1 && supported[at] === 0) {
          domains[at] = 0;
          removed = true;
        }
      }
      if (removed) shrunk.push(layer);
    }
    return shrunk;
  }
}

/** Position of `layer` in the ascending `scope`, searching from `from` (binary search). */
function indexOf(scope: Int32Array, layer: number, from: number): number {
  let low = from;
  let high = scope.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (scope[middle] < layer) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Values in the domains per layer, multiplied: an upper bound of the completions. */
export function domainProduct(form: ConsistencyForm, domains: Uint8Array | undefined): string {
  if (domains === undefined) return '0';
  const { valueBase } = form;
  const counts: number[] = [];
  for (let layer = 0; layer + 1 < valueBase.length; layer++) {
    let count = 0;
    for (let at = valueBase[layer]; at < valueBase[layer + 1]; at++) count += domains[at];
    counts.push(count);
  }
  return String(product(counts));
}
