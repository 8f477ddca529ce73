import { derived } from '../derived.js';
import {
  circuitMinPass,
  circuitValueMins,
  type PreparedCircuit,
  prepareCircuit,
} from './dnnf-weighted.js';
import type { ConsistencyForm } from './form.js';
import type { SegmentedMins, WeightPair } from './segment-weights.js';

/**
 * The guided queries' view of a form past the diagram's budget whose finite part compiled
 * into a decision-DNNF (docs/adr/0193): its circuit with the form's layers, checked once
 * per form (dnnf-weighted.ts `prepareCircuit`), and the price bounds' pair of passes.
 */
const CIRCUIT = Symbol('weighted circuit');
const SCRATCH = Symbol('weighted circuit scratch');

/** The form's decision-DNNF as a weighted circuit (undefined: none, or not smooth). */
export function weightedCircuit(form: ConsistencyForm): PreparedCircuit | undefined {
  const { dnnf } = form;
  if (dnnf === undefined) return undefined;
  const circuit = { ...dnnf, domain: form.domain, valueBase: form.valueBase };
  return derived(dnnf, CIRCUIT, () => ({ prepared: prepareCircuit(circuit) })).prepared;
}

/**
 * Node-sized arrays the price bounds' passes reuse on every click (evaluation is
 * synchronous, one at a time per form): a bottom-up array per weight, one top-down.
 * Counted in the cache's byte bound with the DNNF's query scratch (dnnfScratchBytes).
 */
function scratchOf(prepared: PreparedCircuit): Float64Array[] {
  const nodes = prepared.circuit.nodeLayer.length;
  return derived(prepared, SCRATCH, () => [0, 1, 2].map(() => new Float64Array(nodes)));
}

/** Edge visits of `circuitMinPair`: a bottom-up and a top-down pass per weight. */
export function circuitPairWork(prepared: PreparedCircuit): number {
  return 4 * prepared.circuit.kids.length;
}

/** The least weight and the per-value least weights of both weights of the pair. */
export function circuitMinPair(
  prepared: PreparedCircuit,
  weights: WeightPair,
  fixed: Int32Array,
): [SegmentedMins, SegmentedMins] {
  const [upA, upB, down] = scratchOf(prepared);
  const one = (weight: Float64Array, up: Float64Array): SegmentedMins => {
    const pass = circuitMinPass(prepared, weight, fixed, up);
    return { best: pass.best, through: circuitValueMins(prepared, weight, fixed, pass, down) };
  };
  return [one(weights[0], upA), one(weights[1], upB)];
}
