import { AND, DNNF_FALSE, DNNF_TRUE, type DnnfForm } from './dnnf-form.js';
import { PAIR_CACHE_BYTES } from './form.js';

/** Doubles count exactly below it: a node's count from here on is summed again in BigInt. */
const SAFE_COUNT = 2 ** 52;

/**
 * The queries on a smooth decision-DNNF (dnnf-form.ts), each one or two passes over its
 * nodes, under restrictions `fixed[layer]` (a value, or -1 when free) as in query.ts:
 *
 * - *consistency*: bottom-up, a decision is satisfiable when an allowed value's kid is, a
 *   conjunction when all its kids are;
 * - *count*: the same pass with + and × (exact: doubles while below 2^52, BigInt above);
 * - *valid domains* ("the answers minus itself"): a top-down pass marks the nodes whose
 *   context (the rest of some solution around them) holds under the restrictions; value v
 *   of layer l is supported when a decision on l with a live context has a satisfiable
 *   kid for v. A layer occurs once on a solution's path and nowhere in the context of its
 *   decision (decomposability), so only its own restriction is left out: the Boolean
 *   form of the count's derivatives (Darwiche, "A differential approach to inference in
 *   Bayesian networks", 2003).
 */
export class DnnfQueries {
  private readonly up: Uint8Array;
  private readonly down: Uint8Array;
  private readonly count: Float64Array;
  /** The restrictions `up` holds the pass of, when `upValid`. */
  private readonly upFor: Int32Array;
  private upValid = false;
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
    this.up = new Uint8Array(size);
    this.down = new Uint8Array(size);
    this.count = new Float64Array(size);
    this.upFor = new Int32Array(domain.length);
    this.base = this.closure(new Int32Array(domain.length).fill(-1));
  }

  /** Whether the restrictions have a valid completion. */
  consistent(fixed: Int32Array): boolean {
    return this.upward(fixed) === 1;
  }

  /**
   * Per value (flat, valueBase): 1 when it has a valid completion with the restrictions
   * of the other layers; and whether the restrictions themselves have one.
   */
  supports(fixed: Int32Array): { consistent: boolean; supported: Uint8Array } {
    const consistent = this.upward(fixed) === 1;
    const supported = new Uint8Array(this.valueBase[this.domain.length]);
    const { nodeLayer, kidStart, kids, root } = this.dnnf;
    const { up, down, valueBase } = this;
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
          if (up[kids[k]] === 0) {
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
        if (up[kid] === 1) supported[base + v] = 1;
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
    const { nodeLayer, kidStart, kids, root } = this.dnnf;
    const { count } = this;
    count[DNNF_FALSE] = 0;
    count[DNNF_TRUE] = 1;
    let large = false;
    this.revised += this.dnnf.kids.length;
    for (let n = DNNF_TRUE + 1; n <= root; n++) {
      const layer = nodeLayer[n];
      const first = kidStart[n];
      const last = kidStart[n + 1];
      let total: number;
      if (layer === AND) {
        total = 1;
        for (let k = first; k < last; k++) total *= count[kids[k]];
      } else {
        total = 0;
        const f = fixed[layer];
        for (let k = first; k < last; k++) if (f < 0 || f === k - first) total += count[kids[k]];
      }
      if (total >= SAFE_COUNT) large = true;
      count[n] = total;
    }
    return large ? this.bigCount(fixed) : count[root];
  }

  /**
   * After `configurations`' pass: the nodes whose double count reached 2^52 summed again
   * in BigInt (a node below it is exact, and so are its kids). Most such conjunctions have
   * one large kid among literals and small components, and most decisions two or three
   * kids: the small kids are combined as doubles while safe, so each node makes one or two
   * BigInts (a Map and a factor list per node cost twice the BigInt arithmetic).
   */
  private bigCount(fixed: Int32Array): bigint {
    const { nodeLayer, kidStart, kids, root } = this.dnnf;
    const { count } = this;
    if (count[root] < SAFE_COUNT) return BigInt(count[root]);
    const needed = this.largeUnderRoot(fixed);
    const big: bigint[] = new Array<bigint>(root + 1);
    for (let n = DNNF_TRUE + 1; n <= root; n++) {
      if (needed[n] === 0) continue;
      const layer = nodeLayer[n];
      const first = kidStart[n];
      const last = kidStart[n + 1];
      let small = 1;
      let total: bigint | undefined;
      if (layer === AND) {
        for (let k = first; k < last; k++) {
          const kid = kids[k];
          const value = count[kid];
          if (value >= SAFE_COUNT) total = total === undefined ? big[kid] : total * big[kid];
          else if (small * value >= SAFE_COUNT) {
            total = total === undefined ? BigInt(small) : total * BigInt(small);
            small = value;
          } else small *= value;
        }
        big[n] = total === undefined ? BigInt(small) : small === 1 ? total : total * BigInt(small);
      } else {
        small = 0;
        const f = fixed[layer];
        for (let k = first; k < last; k++) {
          if (f >= 0 && f !== k - first) continue;
          const kid = kids[k];
          const value = count[kid];
          if (value >= SAFE_COUNT) total = total === undefined ? big[kid] : total + big[kid];
          else if (small + value >= SAFE_COUNT) {
            total = total === undefined ? BigInt(small) : total + BigInt(small);
            small = value;
          } else small += value;
        }
        big[n] = total === undefined ? BigInt(small) : small === 0 ? total : total + BigInt(small);
      }
    }
    return count[root] < SAFE_COUNT ? BigInt(count[root]) : big[root];
  }

  /**
   * The large nodes (count past SAFE_COUNT) the root's count sums or multiplies through
   * large nodes only, marked in the `down` scratch: the kids of an answered layer's
   * decisions other than the answer's (most large nodes once a few questions are
   * answered) are not summed again.
   */
  private largeUnderRoot(fixed: Int32Array): Uint8Array {
    const { nodeLayer, kidStart, kids, root } = this.dnnf;
    const { count, down: needed } = this;
    needed.fill(0);
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

  /**
   * The bottom-up pass: `up[n]` = 1 when node n is satisfiable; returns the root's. An
   * evaluation checks its answers (evaluate/consistency.ts) and then asks for their
   * supports: the second pass over the same restrictions is read from the first.
   */
  private upward(fixed: Int32Array): number {
    const { nodeLayer, kidStart, kids, root } = this.dnnf;
    const { up, upFor } = this;
    // Charged either way: the explanation budget must not depend on the previous query.
    this.revised += this.dnnf.kids.length;
    if (this.upValid && sameRestrictions(upFor, fixed)) return up[root];
    upFor.set(fixed);
    this.upValid = true;
    up[DNNF_FALSE] = 0;
    up[DNNF_TRUE] = 1;
    for (let n = DNNF_TRUE + 1; n <= root; n++) {
      const layer = nodeLayer[n];
      const first = kidStart[n];
      const last = kidStart[n + 1];
      let holds = 0;
      if (layer === AND) {
        holds = 1;
        for (let k = first; k < last; k++) {
          if (up[kids[k]] === 0) {
            holds = 0;
            break;
          }
        }
      } else {
        const f = fixed[layer];
        if (f >= 0) holds = up[kids[first + f]];
        else {
          for (let k = first; k < last; k++) {
            if (up[kids[k]] === 1) {
              holds = 1;
              break;
            }
          }
        }
      }
      up[n] = holds;
    }
    return up[root];
  }
}

function sameRestrictions(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
