import { type DnnfForm, dnnfScratchBytes } from './dnnf-form.js';
import { FALSE, type MddStore, TRUE } from './mdd.js';

/** At most this many bytes of cached pairwise rows per form (query.ts, propagate.ts). */
export const PAIR_CACHE_BYTES = 16 * 1024 * 1024;

/** At most this many bytes of pairwise matrices per form, all segments together (pairs.ts). */
export const PAIR_MATRIX_BYTES = 32 * 1024 * 1024;

/** At most this much memoized segment results per form (segment-cache.ts). */
export const SEGMENT_CACHE_BYTES = 16 * 1024 * 1024;

/** Segments with fewer edges are not memoized (recomputing costs less than a lookup). */
export const SEGMENT_CACHE_MIN_EDGES = 4096;

/**
 * The most the caches a form grows while configurations are evaluated can hold: the
 * pairwise matrices and rows (one per value, a byte per value, plus the map entry) and, when the
 * diagram has a segment large enough to memoize, the segment results. Counted in the
 * compiled-model cache's byte bound (docs/ENGINE.md "Memory bounds") with what is read
 * from the prepared form: the pairwise matrices as built (prepared.ts `pairMatrixBytes`)
 * and the price bounds' scratch and kept results (segment-weights.ts `priceBoundsBytes`).
 */
export function derivedCacheBytes(form: ConsistencyForm): number {
  const values = form.valueBase[form.valueBase.length - 1] ?? 0;
  // The rows computed on use (segments without a matrix, or propagation's). The prepared
  // form's pairwise matrices are counted as built (prepared.ts `pairMatrixBytes`): a bound
  // from the whole form's values would count pairs across segments that no matrix holds.
  const pairs = Math.min(PAIR_CACHE_BYTES, values * (values + 100));
  const segments =
    form.compiled && form.kids.length >= SEGMENT_CACHE_MIN_EDGES ? SEGMENT_CACHE_BYTES : 0;
  const dnnf = form.dnnf === undefined ? 0 : dnnfScratchBytes(form.dnnf);
  return pairs + segments + dnnf;
}

/** What the upload answer and GET /v1/models/{id} report (docs/model-format.md "Model analysis"). */
export interface ModelAnalysis {
  exact: boolean;
  reason?: string;
  /**
   * Valid configurations with no answers (decimal string), only when `exact`; null otherwise
   * (docs/model-format.md "Consistency": a bound is never reported as the count).
   */
  configurations: string | null;
  /** When not exact: an upper bound of the count (the diagram's count, or propagated domains). */
  configurations_at_most?: string;
  /** Paths (`questions.<q>.options.<o>`) of options no valid configuration uses. */
  dead_options: string[];
  compile_ms: number;
  /** Diagram size: nodes, edges and bytes of the compiled form. */
  size: { nodes: number; edges: number; bytes: number };
}

/**
 * The compiled solution space of a model version: a quasi-reduced MDD in flat typed
 * arrays, node ids ascending by layer (0 FALSE, 1 TRUE), so every query is one or two
 * linear passes. Plain data: serialisable (serialize.ts) and transferable to a worker.
 */
export interface ConsistencyForm {
  /** The whole finite part is in the diagram. */
  readonly exact: boolean;
  readonly reason: string | undefined;
  /** false when the budget ran out: no diagram, availability by propagation. */
  readonly compiled: boolean;
  readonly domain: Int32Array;
  readonly layerQuestion: Int32Array;
  readonly layerOption: Int32Array;
  readonly firstLayer: Int32Array;
  readonly layerCount: Int32Array;
  /** Per layer, where its values start in flat per-value arrays (length layers + 1). */
  readonly valueBase: Int32Array;
  readonly root: number;
  readonly nodeLayer: Int32Array;
  readonly kidStart: Int32Array;
  readonly kids: Int32Array;
  /** Sources (`rules.x`, `questions.q`, `questions.q.options.o`) of every part in the diagram. */
  readonly partSources: readonly string[];
  /**
   * Past the budget (`compiled: false`): the root of each part's own diagram in the node
   * arrays (a forest), for propagation (propagate.ts); empty when compiled.
   */
  readonly partRoots: Int32Array;
  /**
   * Past the diagram's budget, when the parts' forest compiled into a decision-DNNF within
   * the fallback's (dnnf-exact.ts): the finite part's exact solution space, which answers
   * consistency, valid domains and counts in place of propagation (`exact` then holds).
   */
  readonly dnnf?: DnnfForm;
  /** Sources of the finite part (`rules.x`, `questions.q`…) in a minimal conflicting set; [] when consistent. */
  readonly conflict: readonly string[];
  readonly analysis: ModelAnalysis;
}

export interface FlatDiagram {
  root: number;
  nodeLayer: Int32Array;
  kidStart: Int32Array;
  kids: Int32Array;
}

/** Copies the nodes reachable from `root` into flat arrays, ordered by layer. */
export function flatten(store: MddStore, root: number): FlatDiagram {
  if (root <= TRUE) {
    return {
      root,
      nodeLayer: Int32Array.from([-1, -1]),
      kidStart: new Int32Array(2),
      kids: new Int32Array(0),
    };
  }
  // Typed arrays, not a Map or Set: a store may hold more nodes than V8 lets a Map hold.
  const seen = new Uint8Array(store.nodeCount);
  seen[FALSE] = 1;
  seen[TRUE] = 1;
  const reached: number[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop() as number;
    if (seen[node] === 1) continue;
    seen[node] = 1;
    reached.push(node);
    const size = store.domain[store.layerOf[node]];
    for (let v = 0; v < size; v++) stack.push(store.child(node, v));
  }
  reached.sort((a, b) => store.layerOf[a] - store.layerOf[b] || a - b);
  const id = new Int32Array(store.nodeCount);
  id[TRUE] = TRUE;
  reached.forEach((node, i) => (id[node] = i + 2));
  const count = reached.length + 2;
  const nodeLayer = new Int32Array(count).fill(-1);
  const kidStart = new Int32Array(count);
  let edges = 0;
  for (const node of reached) edges += store.domain[store.layerOf[node]];
  const kids = new Int32Array(edges);
  let at = 0;
  reached.forEach((node, i) => {
    const layer = store.layerOf[node];
    nodeLayer[i + 2] = layer;
    kidStart[i + 2] = at;
    for (let v = 0; v < store.domain[layer]; v++) kids[at++] = id[store.child(node, v)];
  });
  return { root: id[root], nodeLayer, kidStart, kids };
}

export function valueBases(domain: Int32Array): Int32Array {
  const base = new Int32Array(domain.length + 1);
  for (let l = 0; l < domain.length; l++) base[l + 1] = base[l] + domain[l];
  return base;
}
