import type { ConsistencyForm } from './form.js';
import { FALSE, TRUE } from './mdd.js';
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
}

export function freeAssignment(form: ConsistencyForm): Int32Array {
  return new Int32Array(form.domain.length).fill(-1);
}

/** Per node: it reaches TRUE under the restrictions of the layers at and below it. */
function aliveNodes(form: ConsistencyForm, fixed: Int32Array): Uint8Array {
  const { nodeLayer, kidStart, kids, domain } = form;
  const alive = new Uint8Array(nodeLayer.length);
  alive[FALSE] = 0;
  alive[TRUE] = 1;
  for (let id = nodeLayer.length - 1; id > TRUE; id--) {
    const layer = nodeLayer[id];
    const start = kidStart[id];
    const f = fixed[layer];
    if (f >= 0) {
      alive[id] = alive[kids[start + f]];
      continue;
    }
    alive[id] = 0;
    for (let v = 0, size = domain[layer]; v < size; v++) {
      if (alive[kids[start + v]] === 1) {
        alive[id] = 1;
        break;
      }
    }
  }
  return alive;
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
  const fixed = freeAssignment(form);
  fixed[layer] = value;
  const { supported, consistent } = supports(form, fixed);
  // A value with no completion at all is compatible with nothing.
  const row = consistent ? supported : supported.fill(0);
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
const PAIR_CACHE_BYTES = 16 * 1024 * 1024;
const pairCache = new WeakMap<ConsistencyForm, Map<number, Uint8Array>>();

export function supports(form: ConsistencyForm, fixed: Int32Array): Supports {
  const { nodeLayer, kidStart, kids, domain, valueBase, root } = form;
  const layers = domain.length;
  const supported = new Uint8Array(valueBase[layers]);
  if (root === TRUE) return { consistent: true, supported: supported.fill(1) };
  if (root === FALSE) return { consistent: false, supported };
  const alive = aliveNodes(form, fixed);
  const reach = new Uint8Array(nodeLayer.length);
  reach[root] = 1;
  // Layers a long edge on a valid path skips are free: every value is supported.
  // Difference array over layers: +1 where a free stretch starts, −1 after it.
  const free = new Int32Array(layers + 1);
  if (alive[root] === 1) {
    free[0]++;
    free[nodeLayer[root]]--;
  }
  for (let id = TRUE + 1; id < nodeLayer.length; id++) {
    if (reach[id] === 0) continue;
    const layer = nodeLayer[id];
    const start = kidStart[id];
    const base = valueBase[layer];
    const f = fixed[layer];
    for (let v = 0, size = domain[layer]; v < size; v++) {
      const child = kids[start + v];
      const allowed = f < 0 || f === v;
      // Reach follows every allowed edge: `alive` holds the restrictions of the layers
      // below, which a deeper layer's own values must not be judged by.
      if (allowed && child > TRUE) reach[child] = 1;
      if (alive[child] === 0) continue;
      supported[base + v] = 1;
      if (!allowed) continue;
      const next = child === TRUE ? layers : nodeLayer[child];
      if (next > layer + 1) {
        free[layer + 1]++;
        free[next]--;
      }
    }
  }
  for (let layer = 0, open = 0; layer < layers; layer++) {
    open += free[layer];
    if (open > 0) supported.fill(1, valueBase[layer], valueBase[layer + 1]);
  }
  return { consistent: alive[root] === 1, supported };
}
