import { freeProduct, product } from './count.js';
import { type ConsistencyForm, PAIR_CACHE_BYTES } from './form.js';
import { FALSE, TRUE } from './mdd.js';
import { cachedPass } from './segment-cache.js';
import { passScratch, passSegment } from './segment-pass.js';
import { segmentsOf } from './segments.js';

/**
 * Queries over a compiled form, each linear in the diagram size. `fixed[layer]` is
 * the value the answers give a layer, or -1 when free.
 *
 * Valid domains ("CVD", Hadzic et al. 2004; Andersen et al. 2007): one backward pass
 * marks the nodes that still reach TRUE under the restrictions of the layers below,
 * one forward pass the nodes reachable from the root under those above; the value v of
 * layer l is supported when an edge (u, v, c) has u reachable and c alive. A layer's
 * own restriction is not applied to its own edges, so an answered question gets the
 * values it could switch to with the other answers kept ("answers minus itself").
 */
export interface Supports {
  readonly consistent: boolean;
  /** Per value (flat, see ConsistencyForm.valueBase): 1 when it has a valid completion. */
  readonly supported: Uint8Array;
  /** The number of valid completions, a decimal string ('0' when not consistent). */
  configurations(): string;
}

export function freeAssignment(form: ConsistencyForm): Int32Array {
  return new Int32Array(form.domain.length).fill(-1);
}

/**
 * Whether the answers have a valid completion: a depth-first search from the root
 * along allowed edges that stops at the first path found. Every node is on some path
 * to TRUE (the diagram is reduced), so reaching a node below the deepest restricted
 * layer is enough. Most checks (QuickXplain's, soft values') touch a small part of
 * the diagram this way, where a full bottom-up pass touched every node.
 *
 * With `segment` (segments.ts): whether that segment has a path under the restrictions
 * of its own layers, from its start node to its end node — the whole answer when the
 * caller knows the restrictions outside it have a completion.
 */
export function isConsistent(form: ConsistencyForm, fixed: Int32Array, segment = -1): boolean {
  const { nodeLayer, kidStart, kids, domain } = form;
  if (form.root <= TRUE) return form.root === TRUE;
  let start = form.root;
  let end = TRUE;
  let from = 0;
  let deepest = fixed.length - 1;
  if (segment >= 0) {
    const segments = segmentsOf(form);
    start = segments.startNode[segment];
    end = segments.endNode[segment];
    from = segments.fromLayer[segment];
    deepest = segments.toLayer[segment] - 1;
  }
  while (deepest >= from && fixed[deepest] < 0) deepest--;
  if (nodeLayer[start] > deepest) return true;
  const { stamp, stack, epoch } = visitScratch(form);
  let top = 0;
  stack[top++] = start;
  stamp[start] = epoch;
  while (top > 0) {
    const id = stack[--top];
    const layer = nodeLayer[id];
    const first = kidStart[id];
    const f = fixed[layer];
    for (let v = f >= 0 ? f : 0, last = f >= 0 ? f + 1 : domain[layer]; v < last; v++) {
      const child = kids[first + v];
      if (child === FALSE) continue;
      if (child === end || child === TRUE || nodeLayer[child] > deepest) return true;
      if (stamp[child] !== epoch) {
        stamp[child] = epoch;
        stack[top++] = child;
      }
    }
  }
  return false;
}

/** Per form: a visit stamp per node, for consistency checks (evaluation is synchronous). */
const visits = new WeakMap<
  ConsistencyForm,
  { stamp: Int32Array; epoch: number; stack: Int32Array }
>();

/** The form's visit stamps with a fresh epoch (no node stamped with it yet). */
function visitScratch(form: ConsistencyForm): {
  stamp: Int32Array;
  stack: Int32Array;
  epoch: number;
} {
  let scratch = visits.get(form);
  if (scratch === undefined) {
    const size = form.nodeLayer.length;
    scratch = { stamp: new Int32Array(size), epoch: 0, stack: new Int32Array(size) };
    visits.set(form, scratch);
  }
  if (++scratch.epoch === 0x7fffffff) {
    scratch.stamp.fill(0);
    scratch.epoch = 1;
  }
  return scratch;
}

/**
 * The values compatible with one value alone (`supported[x]` = 1 when value x and the
 * given one have a common valid completion): the pairwise relation, computed per
 * value on first use and kept per form (at most PAIR_CACHE_BYTES per form), so that
 * most explanations are a lookup instead of QuickXplain's checks.
 */
export function compatibleWith(form: ConsistencyForm, layer: number, value: number): Uint8Array {
  let cache = pairCache.get(form);
  if (cache === undefined) {
    cache = new Map();
    pairCache.set(form, cache);
  }
  const key = form.valueBase[layer] + value;
  const known = cache.get(key);
  if (known !== undefined) return known;
  const row = liveValues(form).slice();
  const segment = form.root > TRUE ? segmentsOf(form).ofLayer[layer] : -1;
  if (segment < 0) {
    // A layer no part reads (or no diagram): compatible with every live value, if live.
    if (row[key] === 0) row.fill(0);
  } else {
    // Segments are independent: only the value's own segment changes; the others keep
    // their live values.
    const from = form.valueBase[segmentsOf(form).fromLayer[segment]];
    const to = form.valueBase[segmentsOf(form).toLayer[segment]];
    const fixed = freeAssignment(form);
    fixed[layer] = value;
    row.fill(0, from, to);
    // A value with no completion at all is compatible with nothing.
    if (!passSegment(form, fixed, segment, row).consistent) row.fill(0);
  }
  if ((cache.size + 1) * row.byteLength <= PAIR_CACHE_BYTES) cache.set(key, row);
  return row;
}

/** Values with a valid completion when nothing is answered (0: dead), one pass per form. */
export function liveValues(form: ConsistencyForm): Uint8Array {
  let live = liveCache.get(form);
  if (live === undefined) {
    live = supports(form, freeAssignment(form)).supported;
    liveCache.set(form, live);
  }
  return live;
}

const liveCache = new WeakMap<ConsistencyForm, Uint8Array>();
const pairCache = new WeakMap<ConsistencyForm, Map<number, Uint8Array>>();

/**
 * Valid domains and the count under the answers, segment by segment (segments.ts): a
 * segment's result depends on the restrictions of its own layers only. Every segment
 * has a path → consistent, the supported values are each segment's, the count their
 * product; one segment has none → only its own values can still be supported (the
 * others need it to have a path); two or more → none.
 */
export function supports(form: ConsistencyForm, fixed: Int32Array): Supports {
  const { domain, valueBase, root } = form;
  const layers = domain.length;
  const supported = new Uint8Array(valueBase[layers]);
  if (root <= TRUE) {
    if (root === TRUE) supported.fill(1);
    const configurations = (): string =>
      root === TRUE ? String(freeProduct(form, fixed, 0, layers)) : '0';
    return { consistent: root === TRUE, supported, configurations };
  }
  const scratch = passScratch(form);
  const { segments } = scratch;
  const count = segments.fromLayer.length;
  const factors = new Array<number | bigint>(count + 1);
  let failed = -1;
  let failures = 0;
  for (let s = 0; s < count; s++) {
    const result = cachedPass(form, fixed, s, supported, scratch);
    factors[s] = result.count;
    if (!result.consistent) {
      failed = s;
      failures++;
    }
  }
  const top = form.nodeLayer[root];
  if (failures === 0)
    supported.fill(1, 0, valueBase[top]); // layers no part reads
  else {
    const keepFrom = failures === 1 ? valueBase[segments.fromLayer[failed]] : 0;
    const keepTo = failures === 1 ? valueBase[segments.toLayer[failed]] : 0;
    supported.fill(0, 0, keepFrom);
    supported.fill(0, keepTo);
  }
  factors[count] = freeProduct(form, fixed, 0, top);
  const configurations = (): string => (failures > 0 ? '0' : String(product(factors)));
  return { consistent: failures === 0, supported, configurations };
}
