import { derived } from '../derived.js';
import { circuitPairMins, type PairScratch } from './dnnf-pair.js';
import { type PreparedCircuit, prepareCircuit } from './dnnf-weighted.js';
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
 * synchronous, one at a time per form): a bottom-up and a top-down array per weight.
 * Counted in the cache's byte bound with the DNNF's query scratch (dnnfScratchBytes).
 */
function scratchOf(prepared: PreparedCircuit): PairScratch {
  const nodes = prepared.circuit.nodeLayer.length;
  return derived(prepared, SCRATCH, () => ({
    upA: new Float64Array(nodes),
    upB: new Float64Array(nodes),
    downA: new Float64Array(nodes),
    downB: new Float64Array(nodes),
  }));
}

/** Edge visits of `circuitMinPair`: one bottom-up and one top-down walk, both weights at once. */
export function circuitPairWork(prepared: PreparedCircuit): number {
  return 2 * prepared.circuit.kids.length;
}

/** The least weight and the per-value least weights of both weights of the pair. */
export function circuitMinPair(
  prepared: PreparedCircuit,
  weights: WeightPair,
  fixed: Int32Array,
): [SegmentedMins, SegmentedMins] {
  const pair = circuitPairMins(prepared, weights[0], weights[1], fixed, scratchOf(prepared));
  return [
    { best: pair.bestA, through: pair.throughA },
    { best: pair.bestB, through: pair.throughB },
  ];
}
