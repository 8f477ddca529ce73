import { freeProduct, product } from './count.js';
import { type ConsistencyForm, PAIR_CACHE_BYTES } from './form.js';
import { FALSE, TRUE } from './mdd.js';
import { matrixHolds } from './pairs.js';
import { type PreparedForm, prepareForm, type VisitScratch } from './prepared.js';
import { cachedPass, type Walked } from './segment-cache.js';
import { passSegment } from './segment-pass.js';
import { charge, type Work } from './work.js';

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
export function isConsistent(
  form: ConsistencyForm,
  fixed: Int32Array,
  segment = -1,
  work?: Work,
): boolean {
  const { nodeLayer, kidStart, kids, domain } = form;
  if (form.root <= TRUE) return form.root === TRUE;
  const prepared = prepareForm(form);
  let start = form.root;
  let end = TRUE;
  let from = 0;
  let deepest = fixed.length - 1;
  if (segment >= 0) {
    const { segments } = prepared;
    start = segments.startNode[segment];
    end = segments.endNode[segment];
    from = segments.fromLayer[segment];
    deepest = segments.toLayer[segment] - 1;
  }
  while (deepest >= from && fixed[deepest] < 0) deepest--;
  if (nodeLayer[start] > deepest) return true;
  const { stamp, stack, epoch } = nextEpoch(prepared.visit);
  let examined = 0;
  let top = 0;
  stack[top++] = start;
  stamp[start] = epoch;
  while (top > 0) {
    const id = stack[--top];
    const layer = nodeLayer[id];
    const first = kidStart[id];
    const f = fixed[layer];
    for (let v = f >= 0 ? f : 0, last = f >= 0 ? f + 1 : domain[layer]; v < last; v++) {
      examined++;
      const child = kids[first + v];
      if (child === FALSE) continue;
      if (child === end || child === TRUE || nodeLayer[child] > deepest) {
        charge(work, examined);
        return true;
      }
      if (stamp[child] !== epoch) {
        stamp[child] = epoch;
        stack[top++] = child;
      }
    }
  }
  charge(work, examined);
  return false;
}

/** The visit stamps with a fresh epoch (no node stamped with it yet). */
function nextEpoch(scratch: VisitScratch): VisitScratch {
  if (++scratch.epoch === 0x7fffffff) {
    scratch.stamp.fill(0);
    scratch.epoch = 1;
  }
  return scratch;
}

/**
 * Whether value `value` of layer `layer` and value `other` of layer `otherLayer` have a
 * common valid completion (the pairwise relation): a lookup in the prepared form's
 * matrix (pairs.ts); for a segment too large for one, the value's row is computed on
 * first use (one pass over its segment, charged to `work`) and kept per form (at most
 * PAIR_CACHE_BYTES). The same layer: `other` live ("the answers minus itself").
 */
export function compatible(
  form: ConsistencyForm,
  layer: number,
  value: number,
  otherLayer: number,
  other: number,
  work?: Work,
): boolean {
  const prepared = prepareForm(form);
  const { live } = prepared;
  const { valueBase } = form;
  const at = valueBase[layer] + value;
  const otherAt = valueBase[otherLayer] + other;
  if (live[at] === 0 || live[otherAt] === 0) return false;
  const segment = form.root > TRUE ? prepared.segments.ofLayer[layer] : -1;
  if (layer === otherLayer || segment < 0 || prepared.segments.ofLayer[otherLayer] !== segment)
    return true;
  const rows = prepared.pairs.rows[segment];
  if (rows === undefined) return pairRow(form, prepared, layer, value, work)[otherAt] === 1;
  const base = valueBase[prepared.segments.fromLayer[segment]];
  return matrixHolds(rows, prepared.pairs.words[segment], at - base, otherAt - base);
}

/**
 * The values compatible with one value alone (`row[x]` = 1 when value x and the given
 * one have a common valid completion), as a whole row (see `compatible`).
 */
export function compatibleWith(form: ConsistencyForm, layer: number, value: number): Uint8Array {
  const prepared = prepareForm(form);
  const segment = form.root > TRUE ? prepared.segments.ofLayer[layer] : -1;
  if (segment >= 0 && prepared.pairs.rows[segment] === undefined)
    return pairRow(form, prepared, layer, value);
  const row = prepared.live.slice();
  const at = form.valueBase[layer] + value;
  if (row[at] === 0) return row.fill(0);
  if (segment < 0) return row;
  const { fromLayer, toLayer } = prepared.segments;
  for (let other = fromLayer[segment]; other < toLayer[segment]; other++)
    for (let v = 0; v < form.domain[other]; v++)
      if (!compatible(form, layer, value, other, v)) row[form.valueBase[other] + v] = 0;
  return row;
}

/** A value's row by one pass over its segment, kept per form (at most PAIR_CACHE_BYTES). */
function pairRow(
  form: ConsistencyForm,
  prepared: PreparedForm,
  layer: number,
  value: number,
  work?: Work,
): Uint8Array {
  const cache = prepared.pairRows;
  const key = form.valueBase[layer] + value;
  const known = cache.get(key);
  if (known !== undefined) return known;
  const row = prepared.live.slice();
  const segment = form.root > TRUE ? prepared.segments.ofLayer[layer] : -1;
  if (segment < 0) {
    // A layer no part reads (or no diagram): compatible with every live value, if live.
    if (row[key] === 0) row.fill(0);
  } else {
    // Segments are independent: only the value's own segment changes; the others keep
    // their live values.
    const { fromLayer, toLayer } = prepared.segments;
    const from = form.valueBase[fromLayer[segment]];
    const to = form.valueBase[toLayer[segment]];
    const fixed = freeAssignment(form);
    fixed[layer] = value;
    row.fill(0, from, to);
    // A value with no completion at all is compatible with nothing.
    if (!passSegment(form, fixed, segment, row, prepared.pass, work).consistent) row.fill(0);
  }
  if ((cache.size + 1) * row.byteLength <= PAIR_CACHE_BYTES) cache.set(key, row);
  return row;
}

/** Values with a valid completion when nothing is answered (0: dead), from the prepared form. */
export function liveValues(form: ConsistencyForm): Uint8Array {
  return prepareForm(form).live;
}

/**
 * Valid domains and the count under the answers, segment by segment (segments.ts): a
 * segment's result depends on the restrictions of its own layers only. Every segment
 * has a path → consistent, the supported values are each segment's, the count their
 * product; one segment has none → only its own values can still be supported (the
 * others need it to have a path); two or more → none. `known`: the supported values and
 * counts the price bounds' walks found (segment-cache.ts `cachedPass`), for answers with a
 * valid completion.
 */
export function supports(form: ConsistencyForm, fixed: Int32Array, known?: Walked): Supports {
  const { domain, valueBase, root } = form;
  const layers = domain.length;
  const supported = new Uint8Array(valueBase[layers]);
  if (root <= TRUE) {
    if (root === TRUE) supported.fill(1);
    const configurations = (): string =>
      root === TRUE ? String(freeProduct(form, fixed, 0, layers)) : '0';
    return { consistent: root === TRUE, supported, configurations };
  }
  const prepared = prepareForm(form);
  const scratch = prepared.pass;
  const { segments } = scratch;
  const count = segments.fromLayer.length;
  const factors = new Array<number | bigint>(count + 1);
  let failed = -1;
  let failures = 0;
  for (let s = 0; s < count; s++) {
    const result = cachedPass(form, fixed, s, supported, scratch, prepared.memo, known);
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
