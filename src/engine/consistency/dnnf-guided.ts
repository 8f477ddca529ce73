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

/** The form's decision-DNNF as a weighted circuit (undefined: none, or not smooth). */
export function weightedCircuit(form: ConsistencyForm): PreparedCircuit | undefined {
  const { dnnf } = form;
  if (dnnf === undefined) return undefined;
  const circuit = { ...dnnf, domain: form.domain, valueBase: form.valueBase };
  return derived(dnnf, CIRCUIT, () => ({ prepared: prepareCircuit(circuit) })).prepared;
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
  const one = (weight: Float64Array): SegmentedMins => {
    const pass = circuitMinPass(prepared, weight, fixed);
    return { best: pass.best, through: circuitValueMins(prepared, weight, fixed, pass) };
  };
  return [one(weights[0]), one(weights[1])];
}
