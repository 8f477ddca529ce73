import { FALSE, TRUE } from './mdd.js';
import type { LayeredDiagram } from './weighted.js';

/**
 * A layered diagram's edges without those to FALSE, in node order: on a diagram of wide
 * layers most of `kids` is FALSE (two thirds on the 268-question car), which a walk that
 * reads every value of a node would read for nothing. Each edge is three numbers side by
 * side, what a walk reads of it (one memory line, where three arrays cost three): at
 * `3 e` its value's flat index (`valueBase[layer] + value`, into per-value weights), at
 * `3 e + 1` its child, at `3 e + 2` the child's layer (the layer count for TRUE).
 */
export interface LiveEdges {
  /** Per node (and one past the last): its first edge. */
  readonly start: Int32Array;
  readonly edge: Int32Array;
}

export function liveEdges({
  domain,
  valueBase,
  nodeLayer,
  kidStart,
  kids,
}: LayeredDiagram): LiveEdges {
  const nodes = nodeLayer.length;
  const count = liveEdgeCount(kids);
  const edges: LiveEdges = { start: new Int32Array(nodes + 1), edge: new Int32Array(3 * count) };
  let at = 0;
  for (let id = TRUE + 1; id < nodes; id++) {
    edges.start[id] = at;
    const layer = nodeLayer[id];
    for (let v = 0, first = kidStart[id]; v < domain[layer]; v++) {
      const child = kids[first + v];
      if (child === FALSE) continue;
      edges.edge[3 * at] = valueBase[layer] + v;
      edges.edge[3 * at + 1] = child;
      edges.edge[3 * at + 2] = child === TRUE ? domain.length : nodeLayer[child];
      at++;
    }
  }
  edges.start[nodes] = at;
  return edges;
}

/** Edges not to FALSE. */
export function liveEdgeCount(kids: Int32Array): number {
  let count = 0;
  for (let i = 0; i < kids.length; i++) if (kids[i] !== FALSE) count++;
  return count;
}

/** Bytes of `liveEdges`' arrays, at `array(bytes)` per typed array. */
export function liveEdgesBytes(
  { nodeLayer, kids }: LayeredDiagram,
  array: (bytes: number) => number,
): number {
  return array(4 * (nodeLayer.length + 1)) + array(12 * liveEdgeCount(kids));
}
