import type { ConsistencyForm } from './form.js';

/**
 * Counting helpers for the valid completions of an assignment (`fixed[layer]`: a value,
 * or -1 when free): query.ts counts segment by segment (segment-pass.ts) and multiplies.
 * A model of thousands of independent questions has a count of thousands of digits:
 * each segment's count stays small and is summed in doubles, only their product is a
 * BigInt (a balanced product tree) — summing BigInts at every node cost more than the
 * rest of the evaluation.
 */

const SAFE = Number.MAX_SAFE_INTEGER;

/** Π of the allowed value counts of layers [from, to): a number while safe, else a BigInt. */
export function freeProduct(
  form: Pick<ConsistencyForm, 'domain'>,
  fixed: Int32Array,
  from: number,
  to: number,
): number | bigint {
  let small = 1;
  let big: bigint | undefined;
  for (let layer = from; layer < to; layer++) {
    const allowed = fixed[layer] >= 0 ? 1 : form.domain[layer];
    if (small * allowed > SAFE) {
      big = (big ?? 1n) * BigInt(small);
      small = 1;
    }
    small *= allowed;
  }
  return big === undefined ? small : big * BigInt(small);
}

/** The product of non-negative integers: doubles while safe, then a balanced BigInt tree. */
export function product(factors: ReadonlyArray<number | bigint>): number | bigint {
  const bigs: bigint[] = [];
  let small = 1;
  for (const factor of factors) {
    if (factor === 0 || factor === 0n) return 0;
    if (typeof factor === 'bigint') bigs.push(factor);
    else if (small * factor > SAFE) {
      bigs.push(BigInt(small));
      small = factor;
    } else small *= factor;
  }
  if (bigs.length === 0) return small;
  bigs.push(BigInt(small));
  // Balanced: multiplying a growing product by small factors one by one is quadratic.
  while (bigs.length > 1) {
    const next: bigint[] = [];
    for (let i = 0; i + 1 < bigs.length; i += 2) next.push(bigs[i] * bigs[i + 1]);
    if (bigs.length % 2 === 1) next.push(bigs[bigs.length - 1]);
    bigs.splice(0, bigs.length, ...next);
  }
  return bigs[0];
}
