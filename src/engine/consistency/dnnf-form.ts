/**
 * A smooth decision-DNNF over the form's layers, in flat typed arrays (plain data: stored
 * with the form by serialize.ts and transferred to a worker with it). Node 0 is FALSE,
 * node 1 TRUE; every other node is
 *
 * - a *decision* on layer l (`nodeLayer[n] = l`): one kid per value of the layer, the
 *   solutions of the rest given that value (FALSE when it has none). Its value-kids are
 *   mutually exclusive, so the node is deterministic; a decision whose kids are TRUE and
 *   FALSE only is a literal (the layer restricted to the values with TRUE);
 * - a *conjunction* (`nodeLayer[n] = AND`): kids over pairwise disjoint layers
 *   (decomposable).
 *
 * Kids of node n are `kids[kidStart[n] … kidStart[n + 1])`, and every kid has a smaller id
 * than its parent, so one pass up the ids is bottom-up and one pass down is top-down. Every
 * node mentions every layer of its sub-problem on each of its solutions (smooth: the
 * compiler covers a layer no nogood constrains any more with a literal of its remaining
 * values), so counting multiplies and adds with no correction for missing layers.
 */
export interface DnnfForm {
  readonly nodeLayer: Int32Array;
  readonly kidStart: Int32Array;
  readonly kids: Int32Array;
  readonly root: number;
}

/** `nodeLayer` of a conjunction (and of the terminals). */
export const AND = -1;

export const DNNF_FALSE = 0;
export const DNNF_TRUE = 1;

/** The bytes of its arrays (counted in the form's size and the cache's byte bound). */
export function dnnfBytes(dnnf: DnnfForm): number {
  return dnnf.nodeLayer.byteLength + dnnf.kidStart.byteLength + dnnf.kids.byteLength;
}

/**
 * The bytes of the query scratch arrays: a flag per node (dnnf-query.ts); the counts kept
 * between queries (dnnf-count.ts: a count, two flags, a BigInt slot and about as much
 * again for the large nodes' BigInts, the parents and each layer's decisions), the price
 * bounds' four weights per node (dnnf-guided.ts) and the resolution's key per node
 * (dnnf-nearest.ts: changes, price, a set reference, a value).
 */
export function dnnfScratchBytes(dnnf: DnnfForm): number {
  return dnnf.nodeLayer.length * 99 + dnnf.kids.length * 4;
}
