import { AND } from './dnnf-form.js';
import { leastAllowedWeights, type MinForm } from './weighted.js';

/**
 * Weighted queries over a smooth decision-DNNF (dnnf-form.ts): the (min, +) versions of
 * the count and of the valid domains in dnnf-query.ts (Darwiche, "A differential
 * approach to inference in Bayesian networks", 2003; Darwiche & Marquis, "A knowledge
 * compilation map", 2002: optimisation is linear on a deterministic, decomposable, smooth
 * circuit). (max, +) is the same pass on negated weights (weighted.ts `negated`).
 *
 * - *least weight* (bottom-up): a decision takes its least allowed value plus its kid's
 *   least weight, a conjunction the sum of its kids' (decomposable: they share no layer);
 * - *per value* (top-down): per node the least weight of its context (the rest of a
 *   solution around it), then value v of layer l is the least of context + weight(v) +
 *   kid over the decisions on l. Only l's own restriction is left out ("the answers minus
 *   itself"), as in `DnnfQueries.supports`: l occurs nowhere in such a decision's context;
 * - *a least solution* (top-down from the root along the values that reach the least).
 *
 * Smoothness: every kid of a decision mentions the same layers (the compiler covers a
 * layer no nogood constrains with a literal), so no branch owes the weight of a layer
 * another branch mentions. `prepareCircuit` checks it (scope sizes per node) and declines
 * a circuit that is not; layers no node mentions are free and add their least allowed
 * weight. Weights are integers well inside 2^53, so sums and differences are exact.
 */
export interface WeightedCircuit {
  /** Values per layer. */
  readonly domain: Int32Array;
  /** Per layer, where its values start in flat per-value arrays (length layers + 1). */
  readonly valueBase: Int32Array;
  /** Per node its layer (a decision) or AND; kids have smaller ids; 0 FALSE, 1 TRUE. */
  readonly nodeLayer: Int32Array;
  readonly kidStart: Int32Array;
  readonly kids: Int32Array;
  readonly root: number;
}

const FALSE = 0;
const TRUE = 1;

/** A circuit checked smooth, with the layers no node mentions. */
export interface PreparedCircuit {
  readonly circuit: WeightedCircuit;
  readonly unmentioned: Int32Array;
}

/**
 * The circuit with its unmentioned layers, or undefined when it is not smooth (a
 * decision's kids mention different numbers of layers) or not decomposable as far as
 * the scope sizes show (a root whose scope is not the layers its nodes mention).
 */
export function prepareCircuit(circuit: WeightedCircuit): PreparedCircuit | undefined {
  const { domain, nodeLayer, kidStart, kids, root } = circuit;
  const layers = domain.length;
  const mentioned = new Uint8Array(layers);
  const scope = new Int32Array(Math.max(root + 1, 2));
  for (let n = TRUE + 1; n <= root; n++) {
    const layer = nodeLayer[n];
    let size = -1;
    if (layer === AND) {
      size = 0;
      for (let k = kidStart[n]; k < kidStart[n + 1]; k++) size += scope[kids[k]];
    } else {
      mentioned[layer] = 1;
      for (let k = kidStart[n]; k < kidStart[n + 1]; k++) {
        if (kids[k] === FALSE) continue;
        if (size >= 0 && scope[kids[k]] !== size) return undefined;
        size = scope[kids[k]];
      }
      size += 1;
    }
    scope[n] = size;
  }
  let count = 0;
  const unmentioned: number[] = [];
  for (let layer = 0; layer < layers; layer++)
    if (mentioned[layer] === 1) count++;
    else unmentioned.push(layer);
  if (root > TRUE && scope[root] !== count) return undefined;
  return { circuit, unmentioned: Int32Array.from(unmentioned) };
}

/** One bottom-up (min, +) pass under restrictions (`fixed[layer]` a value, or -1 free). */
export interface CircuitPass {
  /** The least weight of a solution that keeps the restrictions (Infinity: none). */
  readonly best: number;
  /** Per node: the least weight of its solutions under the restrictions. */
  readonly up: Float64Array;
  /** Per layer: its least allowed weight and the value that has it (unmentioned layers). */
  readonly free: Float64Array;
  readonly freeValue: Int32Array;
  /** The sum of `free` over the unmentioned layers. */
  readonly unmentionedWeight: number;
  /** Edges examined (the caller's work budget). */
  readonly examined: number;
}

/** `up`: a node-sized array to fill (a caller's scratch), else a new one. */
export function circuitMinPass(
  prepared: PreparedCircuit,
  weight: Float64Array,
  fixed: Int32Array,
  up: Float64Array = new Float64Array(prepared.circuit.nodeLayer.length),
): CircuitPass {
  const { circuit, unmentioned } = prepared;
  const { valueBase, nodeLayer, kidStart, kids, root } = circuit;
  const { free, freeValue } = leastAllowedWeights(circuit.domain, circuit.valueBase, weight, fixed);
  let unmentionedWeight = 0;
  for (const layer of unmentioned) unmentionedWeight += free[layer];
  up[FALSE] = Infinity;
  up[TRUE] = 0;
  for (let n = TRUE + 1; n <= root; n++) {
    const layer = nodeLayer[n];
    const first = kidStart[n];
    const last = kidStart[n + 1];
    let total: number;
    if (layer === AND) {
      total = 0;
      for (let k = first; k < last; k++) total += up[kids[k]];
    } else {
      total = Infinity;
      const f = fixed[layer];
      const base = valueBase[layer];
      const lo = f >= 0 ? f : 0;
      const hi = f >= 0 ? f + 1 : last - first;
      for (let v = lo; v < hi; v++) {
        const below = up[kids[first + v]];
        if (below === Infinity) continue;
        const sum = weight[base + v] + below;
        if (sum < total) total = sum;
      }
    }
    up[n] = total;
  }
  const best = root === FALSE ? Infinity : up[root] + unmentionedWeight;
  return { best, up, free, freeValue, unmentionedWeight, examined: root < 2 ? 0 : kids.length };
}

/**
 * Per value (flat): the least weight of a solution through it that keeps the restrictions
 * of every other layer; Infinity when none. One top-down pass after `circuitMinPass`
 * (`down`: a node-sized scratch array, else a new one).
 */
export function circuitValueMins(
  prepared: PreparedCircuit,
  weight: Float64Array,
  fixed: Int32Array,
  pass: CircuitPass,
  down: Float64Array = new Float64Array(prepared.circuit.nodeLayer.length),
): Float64Array {
  const { circuit, unmentioned } = prepared;
  const { domain, valueBase, nodeLayer, kidStart, kids, root } = circuit;
  const result = new Float64Array(valueBase[domain.length]).fill(Infinity);
  if (root === FALSE) return result;
  const { up, free, unmentionedWeight } = pass;
  // The unmentioned layers: every solution of the rest, with any of their values.
  const rest = up[root] + unmentionedWeight;
  for (const layer of unmentioned) {
    if (rest === Infinity) break;
    for (let at = valueBase[layer]; at < valueBase[layer + 1]; at++)
      result[at] = rest - free[layer] + weight[at];
  }
  if (root === TRUE) return result;
  down.fill(Infinity, 0, root + 1);
  down[root] = unmentionedWeight;
  for (let n = root; n > TRUE; n--) {
    const context = down[n];
    if (context === Infinity) continue;
    const layer = nodeLayer[n];
    const first = kidStart[n];
    const last = kidStart[n + 1];
    if (layer === AND) {
      // A kid's context: its node's and its siblings' least weights (at most one sibling
      // may lack a solution: its own layer's restriction is what the per-value pass lifts).
      let finite = 0;
      let missing = 0;
      for (let k = first; k < last; k++)
        if (up[kids[k]] === Infinity) missing++;
        else finite += up[kids[k]];
      if (missing > 1) continue;
      for (let k = first; k < last; k++) {
        const kid = kids[k];
        const own = up[kid];
        if (missing === 1 && own !== Infinity) continue;
        const around = context + (own === Infinity ? finite : finite - own);
        if (around < down[kid]) down[kid] = around;
      }
      continue;
    }
    const f = fixed[layer];
    const base = valueBase[layer];
    for (let k = first; k < last; k++) {
      const kid = kids[k];
      if (kid === FALSE) continue;
      const v = k - first;
      const total = context + weight[base + v];
      if (up[kid] !== Infinity && total + up[kid] < result[base + v])
        result[base + v] = total + up[kid];
      if ((f < 0 || f === v) && total < down[kid]) down[kid] = total;
    }
  }
  return result;
}

/**
 * A least solution of `pass` (best finite), a value per layer: along the values whose
 * weight and kid reach the node's least (ties to the lower value); unmentioned layers
 * take their least allowed value.
 */
export function circuitLeastPath(
  prepared: PreparedCircuit,
  weight: Float64Array,
  fixed: Int32Array,
  pass: CircuitPass,
): Int32Array {
  const { valueBase, nodeLayer, kidStart, kids, root } = prepared.circuit;
  const path = Int32Array.from(pass.freeValue);
  const { up } = pass;
  const stack = root > TRUE ? [root] : [];
  while (stack.length > 0) {
    const n = stack.pop() as number;
    const layer = nodeLayer[n];
    const first = kidStart[n];
    const last = kidStart[n + 1];
    if (layer === AND) {
      for (let k = first; k < last; k++) if (kids[k] > TRUE) stack.push(kids[k]);
      continue;
    }
    const f = fixed[layer];
    let next = FALSE;
    for (let v = f >= 0 ? f : 0, hi = f >= 0 ? f + 1 : last - first; v < hi; v++) {
      const kid = kids[first + v];
      if (kid === FALSE || up[kid] === Infinity) continue;
      if (weight[valueBase[layer] + v] + up[kid] === up[n]) {
        path[layer] = v;
        next = kid;
        break;
      }
    }
    if (next === FALSE) throw new Error('no least solution: the pass does not match the circuit');
    if (next > TRUE) stack.push(next);
  }
  return path;
}

/** The circuit's (min, +) queries behind the interface nearest.ts and the completion use. */
export function circuitMins(prepared: PreparedCircuit): MinForm<CircuitPass> {
  const { domain, valueBase } = prepared.circuit;
  return {
    domain,
    valueBase,
    pass: (weight, fixed) => circuitMinPass(prepared, weight, fixed),
    through: (weight, fixed, pass) => circuitValueMins(prepared, weight, fixed, pass),
    witness: (weight, fixed, pass) => circuitLeastPath(prepared, weight, fixed, pass),
  };
}
