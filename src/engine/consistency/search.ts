import type { ConsistencyForm } from './form.js';
import type { Propagator } from './propagate.js';

/**
 * How many times the parts' size one evaluation's completion searches may visit (node
 * visits of the propagator's revisions), past a floor for small models. Keeps the cost of
 * one click a small multiple of the compiled form, as with the diagram (docs/adr/0120).
 */
export const SEARCH_WORK_FACTOR = 64;
export const SEARCH_WORK_FLOOR = 2_000_000;

/** A completion's value per layer, or why there is none: proven (`none`) or not found in budget. */
export type SearchResult = Int32Array | 'none' | 'unknown';

/**
 * A complete search for a valid completion of the finite part past the compile budget,
 * where propagation alone is sound but not complete (propagate.ts). Depth-first with
 * generalized arc consistency maintained at every node (MAC: Sabin & Freuder,
 * "Contradicting conventional wisdom in constraint satisfaction", ECAI 1994; for
 * non-binary constraints Bessiere & Régin, "Arc consistency for general constraint
 * networks", CP 1996), branching on the constrained layer with the smallest domain
 * (Haralick & Elliott's fail-first, 1980). Values the caller still wants confirmed are
 * tried first, so one completion confirms as many as it can (solution reuse).
 *
 * Bounded by a work budget shared by every search of one instance (an evaluation makes
 * one for checking its answers and one for availability): past it a search answers
 * `unknown`, never a guess. A completion is reached when every constrained
 * layer has one value left: each part then has a path through those values.
 */
export class CompletionSearch {
  private readonly limit: number;
  private readonly layers: number[] = [];

  constructor(
    private readonly form: ConsistencyForm,
    private readonly propagator: Propagator,
    budget = Math.max(SEARCH_WORK_FLOOR, SEARCH_WORK_FACTOR * propagator.size),
  ) {
    this.limit = propagator.revised + budget;
    for (let layer = 0; layer < form.domain.length; layer++)
      if (propagator.constrains(layer)) this.layers.push(layer);
  }

  /** The propagator's `narrow` (counted in the budget). */
  narrow(domains: Uint8Array, layer: number, value: number): Uint8Array | undefined {
    return this.propagator.narrow(domains, layer, value);
  }

  /** Whether the budget is spent (every later search answers `unknown`). */
  get spent(): boolean {
    return this.propagator.revised >= this.limit;
  }

  /**
   * A completion of `fixed` (a value per layer, -1 free), trying the values `wanted` marks
   * (flat per value, 1 = wanted) first.
   */
  find(fixed: Int32Array, wanted?: Uint8Array): SearchResult {
    if (this.spent) return 'unknown';
    const domains = this.propagator.closure(fixed);
    return domains === undefined ? 'none' : this.findFrom(domains, wanted);
  }

  /** A completion within `domains`, a closure (propagate.ts), which it leaves as it is. */
  findFrom(domains: Uint8Array, wanted?: Uint8Array): SearchResult {
    if (this.spent) return 'unknown';
    const { valueBase } = this.form;
    let branch = -1;
    let smallest = Infinity;
    for (const layer of this.layers) {
      let size = 0;
      for (let at = valueBase[layer]; at < valueBase[layer + 1]; at++) size += domains[at];
      if (size > 1 && size < smallest) {
        smallest = size;
        branch = layer;
        if (size === 2) break;
      }
    }
    if (branch < 0) return this.completion(domains, wanted);
    let unknown = false;
    for (const value of this.order(branch, domains, wanted)) {
      const narrowed = this.propagator.narrow(domains, branch, value);
      if (narrowed === undefined) continue;
      const found = this.findFrom(narrowed, wanted);
      if (found === 'none') continue;
      if (found !== 'unknown') return found;
      unknown = true;
      if (this.spent) break;
    }
    return unknown ? 'unknown' : 'none';
  }

  /** The layer's values left in `domains`, the wanted ones first. */
  private order(layer: number, domains: Uint8Array, wanted: Uint8Array | undefined): number[] {
    const base = this.form.valueBase[layer];
    const first: number[] = [];
    const rest: number[] = [];
    for (let value = 0; value < this.form.domain[layer]; value++) {
      if (domains[base + value] === 0) continue;
      (wanted?.[base + value] === 1 ? first : rest).push(value);
    }
    return first.concat(rest);
  }

  /** Every constrained layer has one value: the completion, free layers on a wanted value. */
  private completion(domains: Uint8Array, wanted: Uint8Array | undefined): Int32Array {
    const { valueBase, domain } = this.form;
    const values = new Int32Array(domain.length);
    for (let layer = 0; layer < domain.length; layer++) {
      let chosen = -1;
      for (let value = 0; value < domain[layer]; value++) {
        const at = valueBase[layer] + value;
        if (domains[at] === 0) continue;
        if (chosen < 0 || wanted?.[at] === 1) chosen = value;
        if (wanted?.[at] === 1) break;
      }
      values[layer] = chosen;
    }
    return values;
  }
}
