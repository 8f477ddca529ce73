import type { ConsistencyForm } from './form.js';
import { FALSE, TRUE } from './mdd.js';

/**
 * Counting the valid completions of an assignment (`fixed[layer]`: a value, or -1
 * when free) — the number of root→TRUE paths, an edge that skips layers counting
 * every allowed value of the layers it skips.
 *
 * Independent parts of a model (connected components of the constraint graph, which
 * the variable order keeps together) meet in the diagram at *cut nodes*: a node alone
 * on its layer that no edge skips over, so every valid path goes through it. The count
 * is then the product of the counts between consecutive cuts. Those stay small, so
 * they are summed in doubles and only their product is a BigInt (a balanced product
 * tree): a model of thousands of independent questions has a count of thousands of
 * digits, and summing BigInts at every node cost more than the rest of the evaluation.
 * Without cuts, or when a segment's count passes 2^53, the plain bottom-up count with
 * BigInt (`countPaths`).
 */
export function countCompletions(form: ConsistencyForm, fixed: Int32Array): string {
  const layers = form.domain.length;
  if (form.root === FALSE) return '0';
  if (form.root === TRUE) return String(freeProduct(form, fixed, 0, layers));
  const segments = countSegments(form, fixed);
  if (segments === undefined) return String(countPaths(form, fixed));
  const rootStretch = freeProduct(form, fixed, 0, form.nodeLayer[form.root]);
  return String(product([...segments, rootStretch]));
}

const SAFE = Number.MAX_SAFE_INTEGER;

/** Per form: 1 for its cut nodes (computed on first use). */
const cutCache = new WeakMap<ConsistencyForm, Uint8Array>();

function cutNodes(form: ConsistencyForm): Uint8Array {
  const known = cutCache.get(form);
  if (known !== undefined) return known;
  const { nodeLayer, kidStart, kids, domain } = form;
  const layers = domain.length;
  const perLayer = new Int32Array(layers);
  const skipped = new Int32Array(layers + 1); // difference array: layers some edge skips
  for (let id = TRUE + 1; id < nodeLayer.length; id++) {
    const layer = nodeLayer[id];
    perLayer[layer]++;
    for (let v = 0, start = kidStart[id]; v < domain[layer]; v++) {
      const child = kids[start + v];
      if (child === FALSE) continue;
      const next = child === TRUE ? layers : nodeLayer[child];
      if (next > layer + 1) {
        skipped[layer + 1]++;
        skipped[next]--;
      }
    }
  }
  const cutLayer = new Uint8Array(layers);
  for (let layer = 0, open = 0; layer < layers; layer++) {
    open += skipped[layer];
    cutLayer[layer] = perLayer[layer] === 1 && open === 0 ? 1 : 0;
  }
  const cuts = new Uint8Array(nodeLayer.length);
  for (let id = TRUE + 1; id < nodeLayer.length; id++) cuts[id] = cutLayer[nodeLayer[id]];
  cutCache.set(form, cuts);
  return cuts;
}

/**
 * Bottom-up in doubles, a cut node's count becoming a factor and then 1 for the nodes
 * above it (they reach TRUE only through it). Undefined when a value passes 2^53.
 */
function countSegments(form: ConsistencyForm, fixed: Int32Array): number[] | undefined {
  const { nodeLayer, kidStart, kids, domain, root } = form;
  const layers = domain.length;
  const cuts = cutNodes(form);
  const count = new Float64Array(nodeLayer.length);
  count[TRUE] = 1;
  const factors: number[] = [];
  const stretches = new Map<number, number | bigint>(); // long edges share their stretches
  const stretch = (from: number, to: number): number | bigint => {
    const key = from * (layers + 1) + to;
    let known = stretches.get(key);
    if (known === undefined) stretches.set(key, (known = freeProduct(form, fixed, from, to)));
    return known;
  };
  for (let id = nodeLayer.length - 1; id > TRUE; id--) {
    const layer = nodeLayer[id];
    const start = kidStart[id];
    const f = fixed[layer];
    let total = 0;
    for (let v = f >= 0 ? f : 0, end = f >= 0 ? f + 1 : domain[layer]; v < end; v++) {
      const child = kids[start + v];
      const below = count[child];
      if (below === 0) continue;
      const next = child === TRUE ? layers : nodeLayer[child];
      const skip = next > layer + 1 ? stretch(layer + 1, next) : 1;
      if (typeof skip !== 'number') return undefined;
      total += below * skip;
    }
    if (total > SAFE) return undefined;
    if (cuts[id] === 1 && id !== root) {
      factors.push(total);
      count[id] = 1;
    } else count[id] = total;
  }
  factors.push(count[root]);
  return factors;
}

/** Π of the allowed value counts of layers [from, to): a number while safe, else a BigInt. */
function freeProduct(
  form: ConsistencyForm,
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

/** The plain bottom-up path count in BigInt: when there are no cuts or a segment passes 2^53. */
function countPaths(form: ConsistencyForm, fixed: Int32Array): bigint {
  const { nodeLayer, kidStart, kids, domain, root } = form;
  const layers = domain.length;
  const big = (from: number, to: number): bigint => BigInt(freeProduct(form, fixed, from, to));
  if (root <= TRUE) return root === TRUE ? big(0, layers) : 0n;
  const count = new Array<bigint>(nodeLayer.length).fill(0n);
  count[TRUE] = 1n;
  for (let id = nodeLayer.length - 1; id > TRUE; id--) {
    const layer = nodeLayer[id];
    const start = kidStart[id];
    const f = fixed[layer];
    let total = 0n;
    for (let v = f >= 0 ? f : 0, end = f >= 0 ? f + 1 : domain[layer]; v < end; v++) {
      const child = kids[start + v];
      if (count[child] === 0n) continue;
      const next = child === TRUE ? layers : nodeLayer[child];
      total += next > layer + 1 ? count[child] * big(layer + 1, next) : count[child];
    }
    count[id] = total;
  }
  return count[root] * big(0, nodeLayer[root]);
}
