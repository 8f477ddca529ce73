import type { ConsistencyForm } from './form.js';
import { FALSE, TRUE } from './mdd.js';

/**
 * Independent stretches of a diagram. A *cut node* is alone on its layer and no edge
 * skips over that layer, so every valid path goes through it: the solution space is
 * the product of the paths above it and the paths below it. Consecutive cuts split the
 * layers into *segments*; whether restrictions have a completion is then decided per
 * segment by the restrictions on its layers alone (a connected component of the
 * constraint graph, which the variable order keeps together, is one or more segments).
 *
 * Node ids ascend by layer, so a segment's nodes are one id range: from its start node
 * (the cut, or the root for the first) up to its end node (the next cut, or TRUE).
 */
export interface Segments {
  /** Per layer: its segment, or -1 for a layer above the root (free: no part reads it). */
  readonly ofLayer: Int32Array;
  /** Per segment: its first layer. */
  readonly fromLayer: Int32Array;
  /** Per segment: the layer after its last one (the next cut's layer, or the layer count). */
  readonly toLayer: Int32Array;
  /** Per segment: the node every path enters it by (a cut, or the root). */
  readonly startNode: Int32Array;
  /** Per segment: the node every path leaves it by (the next cut, or TRUE). */
  readonly endNode: Int32Array;
}

/**
 * One stretch of layers that every valid path enters by one node and leaves by one node:
 * a segment, as the passes and searches over a single segment read it.
 */
export interface SegmentSpan {
  /** The stretch's first layer, and the layer after its last. */
  readonly fromLayer: number;
  readonly toLayer: number;
  /** The node every path enters by, and the node it leaves by (the next cut, or TRUE). */
  readonly start: number;
  readonly end: number;
}

/** Segment `s` as a span. */
export function segmentSpan(segments: Segments, s: number): SegmentSpan {
  return {
    fromLayer: segments.fromLayer[s],
    toLayer: segments.toLayer[s],
    start: segments.startNode[s],
    end: segments.endNode[s],
  };
}

/**
 * The segments of a compiled diagram (root above TRUE; none otherwise). Computed once
 * per form, by its prepared form (prepared.ts `segmentsOf`).
 */
export function computeSegments(form: ConsistencyForm): Segments {
  const { nodeLayer, kidStart, kids, domain, root } = form;
  const layers = domain.length;
  const perLayer = new Int32Array(layers);
  const firstNode = new Int32Array(layers).fill(-1);
  const skipped = new Int32Array(layers + 1); // difference array: layers some edge skips
  for (let id = TRUE + 1; id < nodeLayer.length; id++) {
    const layer = nodeLayer[id];
    if (perLayer[layer]++ === 0) firstNode[layer] = id;
    for (let v = 0, start = kidStart[id]; v < domain[layer]; v++) {
      const child = kids[start + v];
      if (child === FALSE) continue;
      const next = child === TRUE ? layers : nodeLayer[child];
      if (next > layer + 1) {
        skipped[layer + 1]++;
        skipped[next]--;
      }
    }
  }
  const top = root > TRUE ? nodeLayer[root] : layers;
  const starts: number[] = [];
  for (let layer = 0, open = 0; layer < layers; layer++) {
    open += skipped[layer];
    if (layer === top || (layer > top && perLayer[layer] === 1 && open === 0)) starts.push(layer);
  }
  const count = starts.length;
  const segments: Segments = {
    ofLayer: new Int32Array(layers).fill(-1),
    fromLayer: Int32Array.from(starts),
    toLayer: new Int32Array(count),
    startNode: Int32Array.from(starts, (layer) => firstNode[layer]),
    endNode: new Int32Array(count),
  };
  for (let s = 0; s < count; s++) {
    const to = s + 1 < count ? starts[s + 1] : layers;
    segments.toLayer[s] = to;
    segments.endNode[s] = to < layers ? firstNode[to] : TRUE;
    segments.ofLayer.fill(s, starts[s], to);
  }
  return segments;
}
