/**
 * Weighted queries over a layered decision diagram (price bounds, the nearest valid
 * configuration, the cheapest completion): forward and backward passes in the (min, +)
 * semiring (Andersen, Hadzic & Pisinger, "Interactive cost configuration over decision
 * diagrams", JAIR 2010); (max, +) is the same pass on negated weights.
 *
 * Written against the smallest view of a form that they need, `LayeredDiagram` (layers,
 * per-layer values, edges (from, value, to)), so that another compiled form with the same
 * shape carries them. An edge may skip layers: a skipped layer takes any value its
 * restriction allows, so it adds that layer's best allowed weight (`free`). Weights are
 * integers (minor units, change counts) well inside 2^53, so the sums are exact.
 */
import { FALSE, TRUE } from './mdd.js';

export interface LayeredDiagram {
  /** Values per layer. */
  readonly domain: Int32Array;
  /** Per layer, where its values start in flat per-value arrays (length layers + 1). */
  readonly valueBase: Int32Array;
  /** Node id of the root; 0 is FALSE, 1 is TRUE. */
  readonly root: number;
  /** Per node its layer; ids ascend by layer. */
  readonly nodeLayer: Int32Array;
  /** Per node where its children start in `kids` (one per value of its layer). */
  readonly kidStart: Int32Array;
  readonly kids: Int32Array;
}

/** One (min, +) pass pair under restrictions (`fixed[layer]` a value, or -1 free). */
export interface MinPass {
  /** The least weight of a path that keeps the restrictions (Infinity: none). */
  readonly best: number;
  /** Per node: least weight from the root (layers above the root included) to it. */
  readonly down: Float64Array;
  /** Per node: least weight from it to TRUE. */
  readonly up: Float64Array;
  /** Per layer: its least allowed weight, and the value that has it. */
  readonly free: Float64Array;
  readonly freeValue: Int32Array;
  /** `freeBefore[l]`: the sum of `free` over the layers before l (length layers + 1). */
  readonly freeBefore: Float64Array;
  /** Edges examined (the caller's work budget). */
  readonly examined: number;
}

function allowedRange(fixed: Int32Array, layer: number, size: number): [number, number] {
  const f = fixed[layer];
  return f >= 0 ? [f, f + 1] : [0, size];
}

/**
 * Per layer its least allowed weight and the value that has it (the fixed value, or the
 * cheapest of the layer): what a layer no path mentions, or a path skips, adds. Shared by
 * the diagram's passes and the decision-DNNF's (dnnf-weighted.ts).
 */
export function leastAllowedWeights(
  domain: Int32Array,
  valueBase: Int32Array,
  weight: Float64Array,
  fixed: Int32Array,
): { free: Float64Array; freeValue: Int32Array } {
  const free = new Float64Array(domain.length);
  const freeValue = new Int32Array(domain.length);
  for (let layer = 0; layer < domain.length; layer++) {
    const f = fixed[layer];
    let best = Infinity;
    let arg = Math.max(0, f);
    for (let v = f >= 0 ? f : 0, hi = f >= 0 ? f + 1 : domain[layer]; v < hi; v++) {
      const w = weight[valueBase[layer] + v];
      if (w < best) {
        best = w;
        arg = v;
      }
    }
    free[layer] = best;
    freeValue[layer] = arg;
  }
  return { free, freeValue };
}

/** Per layer the least allowed weight (layers a path may skip or that lie above the root). */
function freeWeights(
  diagram: LayeredDiagram,
  weight: Float64Array,
  fixed: Int32Array,
): Pick<MinPass, 'free' | 'freeValue' | 'freeBefore'> {
  const { free, freeValue } = leastAllowedWeights(diagram.domain, diagram.valueBase, weight, fixed);
  const freeBefore = new Float64Array(free.length + 1);
  for (let layer = 0; layer < free.length; layer++)
    freeBefore[layer + 1] = freeBefore[layer] + free[layer];
  return { free, freeValue, freeBefore };
}

/** The layer a child stands at (TRUE: after the last layer). */
function childLayer(diagram: LayeredDiagram, child: number): number {
  return child === TRUE ? diagram.domain.length : diagram.nodeLayer[child];
}

/**
 * The forward and backward (min, +) passes: per value weights `weight` (flat, see
 * `valueBase`), restricted by `fixed`. Linear in the edges.
 */
export function minPass(diagram: LayeredDiagram, weight: Float64Array, fixed: Int32Array): MinPass {
  const { domain, valueBase, nodeLayer, kidStart, kids, root } = diagram;
  const layers = domain.length;
  const freeParts = freeWeights(diagram, weight, fixed);
  const { freeBefore } = freeParts;
  const count = nodeLayer.length;
  const down = new Float64Array(count).fill(Infinity);
  const up = new Float64Array(count).fill(Infinity);
  up[TRUE] = 0;
  let examined = 0;
  if (root === TRUE) {
    down[TRUE] = freeBefore[layers];
    return { best: down[TRUE], down, up, ...freeParts, examined };
  }
  if (root === FALSE) return { best: Infinity, down, up, ...freeParts, examined };
  down[root] = freeBefore[nodeLayer[root]];
  // The hot loops: ranges and child layers inline (no tuple per node).
  for (let id = TRUE + 1; id < count; id++) {
    const from = down[id];
    if (from === Infinity) continue;
    const layer = nodeLayer[id];
    const f = fixed[layer];
    const hi = f >= 0 ? f + 1 : domain[layer];
    const first = kidStart[id];
    const base = valueBase[layer];
    const after = freeBefore[layer + 1];
    for (let v = f >= 0 ? f : 0; v < hi; v++) {
      const child = kids[first + v];
      if (child === FALSE) continue;
      const to = child === TRUE ? layers : nodeLayer[child];
      const total = from + weight[base + v] + freeBefore[to] - after;
      if (total < down[child]) down[child] = total;
    }
    examined += hi;
  }
  for (let id = count - 1; id > TRUE; id--) {
    const layer = nodeLayer[id];
    const f = fixed[layer];
    const hi = f >= 0 ? f + 1 : domain[layer];
    const first = kidStart[id];
    const base = valueBase[layer];
    const after = freeBefore[layer + 1];
    let best = Infinity;
    for (let v = f >= 0 ? f : 0; v < hi; v++) {
      const child = kids[first + v];
      if (child === FALSE) continue;
      const below = up[child];
      if (below === Infinity) continue;
      const to = child === TRUE ? layers : nodeLayer[child];
      const total = weight[base + v] + freeBefore[to] - after + below;
      if (total < best) best = total;
    }
    up[id] = best;
    examined += hi;
  }
  return { best: down[TRUE], down, up, ...freeParts, examined };
}

/**
 * Per value (flat): the least weight of a path through it that keeps the restrictions of
 * every other layer (a layer's own restriction is left out: "the answers minus itself",
 * as availability is). Infinity when no such path exists.
 */
export function valueMins(
  diagram: LayeredDiagram,
  weight: Float64Array,
  fixed: Int32Array,
  pass: MinPass,
): Float64Array {
  const { domain, valueBase, nodeLayer, kidStart, kids, root } = diagram;
  const layers = domain.length;
  const result = new Float64Array(valueBase[layers]).fill(Infinity);
  const { down, up, free, freeBefore } = pass;
  // Layers above the root and layers skipped by an edge: the least path weight through
  // the layer without the layer's own part, per layer.
  const around = new Float64Array(layers).fill(Infinity);
  const top = root === TRUE ? layers : root === FALSE ? 0 : nodeLayer[root];
  if (root !== FALSE) {
    const rest = root === TRUE ? 0 : up[root] + freeBefore[top];
    for (let layer = 0; layer < top; layer++)
      if (rest !== Infinity) around[layer] = rest - free[layer];
  }
  for (let id = TRUE + 1; id < nodeLayer.length; id++) {
    const above = down[id];
    if (above === Infinity) continue;
    const layer = nodeLayer[id];
    const first = kidStart[id];
    const base = valueBase[layer];
    const allowed = fixed[layer];
    const after = freeBefore[layer + 1];
    for (let v = 0; v < domain[layer]; v++) {
      const child = kids[first + v];
      if (child === FALSE) continue;
      const below = up[child];
      if (below === Infinity) continue;
      const to = child === TRUE ? layers : nodeLayer[child];
      const total = above + weight[base + v] + freeBefore[to] - after + below;
      if (total < result[base + v]) result[base + v] = total;
      if (to === layer + 1 || (allowed >= 0 && v !== allowed)) continue;
      for (let skipped = layer + 1; skipped < to; skipped++) {
        const without = total - free[skipped];
        if (without < around[skipped]) around[skipped] = without;
      }
    }
  }
  for (let layer = 0; layer < layers; layer++) {
    const rest = around[layer];
    if (rest === Infinity) continue;
    for (let v = 0, at = valueBase[layer]; v < domain[layer]; v++, at++)
      if (rest + weight[at] < result[at]) result[at] = rest + weight[at];
  }
  return result;
}

/**
 * A least-weight path of `pass` (best finite), as a value per layer; ties go to the lower
 * value. Layers above the root and skipped layers take their least allowed weight.
 */
export function leastPath(
  diagram: LayeredDiagram,
  weight: Float64Array,
  fixed: Int32Array,
  pass: MinPass,
): Int32Array {
  const { domain, valueBase, nodeLayer, kidStart, kids, root } = diagram;
  const layers = domain.length;
  const path = Int32Array.from(pass.freeValue);
  let id = root;
  const { up, freeBefore } = pass;
  while (id > TRUE) {
    const layer = nodeLayer[id];
    const [lo, hi] = allowedRange(fixed, layer, domain[layer]);
    const first = kidStart[id];
    let next = FALSE;
    for (let v = lo; v < hi; v++) {
      const child = kids[first + v];
      if (child === FALSE || up[child] === Infinity) continue;
      const total =
        weight[valueBase[layer] + v] +
        freeBefore[childLayer(diagram, child)] -
        freeBefore[layer + 1] +
        up[child];
      if (total === up[id]) {
        path[layer] = v;
        next = child;
        break;
      }
    }
    if (next === FALSE) throw new Error('no least path: the pass does not match the diagram');
    id = next;
  }
  return path.length === layers ? path : path.slice(0, layers);
}

/** The weights negated: (max, +) through the (min, +) passes. */
export function negated(weight: Float64Array): Float64Array {
  const result = new Float64Array(weight.length);
  for (let i = 0; i < weight.length; i++) result[i] = -weight[i];
  return result;
}

/**
 * The (min, +) queries a compiled form answers, as the nearest configuration
 * (nearest.ts) and the cheapest completion use them: a pass under restrictions, the
 * per-value least weights after it and a least solution. The layered diagram has them
 * here; the decision-DNNF in dnnf-weighted.ts.
 */
export interface MinForm<P extends { readonly best: number; readonly examined: number }> {
  readonly domain: Int32Array;
  readonly valueBase: Int32Array;
  pass(weight: Float64Array, fixed: Int32Array): P;
  /** Per value (flat): the least weight through it, its own layer's restriction left out. */
  through(weight: Float64Array, fixed: Int32Array, pass: P): Float64Array;
  /** A value per layer of a least solution (the pass's best finite). */
  witness(weight: Float64Array, fixed: Int32Array, pass: P): Int32Array;
}

export function layeredMins(diagram: LayeredDiagram): MinForm<MinPass> {
  return {
    domain: diagram.domain,
    valueBase: diagram.valueBase,
    pass: (weight, fixed) => minPass(diagram, weight, fixed),
    through: (weight, fixed, pass) => valueMins(diagram, weight, fixed, pass),
    witness: (weight, fixed, pass) => leastPath(diagram, weight, fixed, pass),
  };
}
