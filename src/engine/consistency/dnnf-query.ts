import { DnnfCounts } from './dnnf-count.js';
import { AND, DNNF_FALSE, DNNF_TRUE, type DnnfForm } from './dnnf-form.js';
import { PAIR_CACHE_BYTES } from './form.js';

/**
 * The queries on a smooth decision-DNNF (dnnf-form.ts), each one or two passes over its
 * nodes, under restrictions `fixed[layer]` (a value, or -1 when free) as in query.ts:
 *
 * - *count*: bottom-up with + and × (exact: doubles while below 2^52, BigInt above), kept
 *   from one query to the next and redone only above the changed layers (dnnf-count.ts);
 * - *consistency*: the same pass, a node being satisfiable when its count is not 0;
 * - *valid domains* ("the answers minus itself"): a top-down pass marks the nodes whose
 *   context (the rest of some solution around them) holds under the restrictions; value v
 *   of layer l is supported when a decision on l with a live context has a satisfiable
 *   kid for v. A layer occurs once on a solution's path and nowhere in the context of its
 *   decision (decomposability), so only its own restriction is left out: the Boolean
 *   form of the count's derivatives (Darwiche, "A differential approach to inference in
 *   Bayesian networks", 2003).
 */
export class DnnfQueries {
  private readonly down: Uint8Array;
  /** The bottom-up pass (counts per node), kept from one query to the next. */
  private readonly counts: DnnfCounts;
  private readonly pairs = new Map<number, Uint8Array | undefined>();
  private pairBytes = 0;
  /** Edges examined so far: the unit of the explanation budget on such a form (work.ts). */
  revised = 0;
  /** The values with a valid configuration when nothing is answered (undefined: none). */
  readonly base: Uint8Array | undefined;

  constructor(
    private readonly dnnf: DnnfForm,
    private readonly domain: Int32Array,
    private readonly valueBase: Int32Array,
  ) {
    const size = dnnf.nodeLayer.length;
    this.down = new Uint8Array(size);
    this.counts = new DnnfCounts(dnnf, domain.length);
    this.base = this.closure(new Int32Array(domain.length).fill(-1));
  }

  /** Whether the restrictions have a valid completion. */
  consistent(fixed: Int32Array): boolean {
    return this.upward(fixed);
  }

  /**
   * Per value (flat, valueBase): 1 when it has a valid completion with the restrictions
   * of the other layers; and whether the restrictions themselves have one.
   */
  supports(fixed: Int32Array): { consistent: boolean; supported: Uint8Array } {
    const consistent = this.upward(fixed);
    const supported = new Uint8Array(this.valueBase[this.domain.length]);
    const { nodeLayer, kidStart, kids, root } = this.dnnf;
    const { down, valueBase } = this;
    const { count } = this.counts;
    if (root === DNNF_TRUE) supported.fill(1);
    if (root <= DNNF_TRUE) return { consistent, supported };
    down.fill(0);
    down[root] = 1;
    this.revised += this.dnnf.kids.length;
    for (let n = root; n > DNNF_TRUE; n--) {
      if (down[n] === 0) continue;
      const first = kidStart[n];
      const last = kidStart[n + 1];
      const layer = nodeLayer[n];
      if (layer === AND) {
        let failed = -1;
        let failures = 0;
        for (let k = first; k < last; k++) {
          if (count[kids[k]] === 0) {
            failed = kids[k];
            failures++;
          }
        }
        // A kid's context holds when its siblings are satisfiable.
        if (failures === 0) for (let k = first; k < last; k++) down[kids[k]] = 1;
        else if (failures === 1) down[failed] = 1;
        continue;
      }
      const f = fixed[layer];
      const base = valueBase[layer];
      for (let k = first; k < last; k++) {
        const kid = kids[k];
        if (kid === DNNF_FALSE) continue;
        const v = k - first;
        if (count[kid] > 0) supported[base + v] = 1;
        if (f < 0 || f === v) down[kid] = 1;
      }
    }
    return { consistent, supported };
  }

  /**
   * The values each layer can still take with all the restrictions (an answered layer
   * only its answer), or undefined when they have no valid completion: the exact closure
   * the propagator (propagate.ts) bounds from above.
   */
  closure(fixed: Int32Array): Uint8Array | undefined {
    const { consistent, supported } = this.supports(fixed);
    if (!consistent) return undefined;
    const { valueBase } = this;
    for (let layer = 0; layer < fixed.length; layer++) {
      const value = fixed[layer];
      if (value < 0) continue;
      supported.fill(0, valueBase[layer], valueBase[layer + 1]);
      supported[valueBase[layer] + value] = 1;
    }
    return supported;
  }

  /** The closure with one value fixed: the pairwise relation, cached (PAIR_CACHE_BYTES). */
  pairwise(layer: number, value: number): Uint8Array | undefined {
    const key = this.valueBase[layer] + value;
    if (this.pairs.has(key)) return this.pairs.get(key);
    const fixed = new Int32Array(this.domain.length).fill(-1);
    fixed[layer] = value;
    const row = this.closure(fixed);
    this.pairBytes += row?.byteLength ?? 8;
    if (this.pairBytes <= PAIR_CACHE_BYTES) this.pairs.set(key, row);
    return row;
  }

  /** The number of valid completions of the restrictions, exact. */
  configurations(fixed: Int32Array): number | bigint {
    this.revised += this.dnnf.kids.length;
    this.counts.update(fixed);
    return this.counts.exact(fixed);
  }

  /**
   * The bottom-up pass: whether the root has a solution, read from the counts (a node's
   * count is 0 exactly when it has none). An evaluation checks its answers
   * (evaluate/consistency.ts), then asks for their supports and count: the same pass.
   */
  private upward(fixed: Int32Array): boolean {
    // Charged either way: the explanation budget must not depend on the previous query.
    this.revised += this.dnnf.kids.length;
    this.counts.update(fixed);
    return this.counts.count[this.dnnf.root] > 0;
  }
}
