import { freeProduct } from './count.js';
import type { ConsistencyForm } from './form.js';
import { FALSE, TRUE } from './mdd.js';
import type { Segments } from './segments.js';
import { closeStretches, type PassScratch } from './pass-scratch.js';
import { walkSegment } from './segment-walk.js';
import { charge, type Work } from './work.js';

/**
 * One segment (segments.ts) under the restrictions of its own layers (`fixed[layer]`:
 * a value, or -1 when free): whether it has a path from its start node to its end
 * node, how many (an edge that skips layers counting every allowed value of them), and
 * its supported values. One bottom-up pass counts the paths to the end node (a node is
 * alive when it has one), one top-down pass marks the nodes reachable from the start
 * node; value v of layer l is supported when an edge (u, v, c) has u reachable and c
 * alive — a layer's own restriction is not applied to its own edges ("the answers
 * minus itself"), as in query.ts.
 */
export interface SegmentResult {
  readonly consistent: boolean;
  /** Paths through the segment: exact while `exact`, else past 2^53 (see bigCount). */
  readonly count: number;
  readonly exact: boolean;
}

const SAFE = Number.MAX_SAFE_INTEGER;

/** The edges of segment `s` (what one pass over it examines, twice). */
export function segmentEdges(form: ConsistencyForm, segments: Segments, s: number): number {
  const end = segments.endNode[s];
  return (
    (end === TRUE ? form.kids.length : form.kidStart[end]) - form.kidStart[segments.startNode[s]]
  );
}

/**
 * The pass over segment `s`; its supported values are written into `supported` (flat
 * per value, `ConsistencyForm.valueBase`; the segment's range must be zero). It first
 * walks from the start node, counting only the nodes it needs; past a budget (most of the
 * segment reached or to be counted) it scans the layers instead, keeping what the walk
 * counted (scanSegment).
 */
export function passSegment(
  form: ConsistencyForm,
  fixed: Int32Array,
  s: number,
  supported: Uint8Array,
  scratch: PassScratch,
  work?: Work,
): SegmentResult {
  if (work !== undefined) charge(work, 2 * segmentEdges(form, scratch.segments, s));
  const { nodeLayer, kidStart, domain } = form;
  const { segments, count, tail, lastFixed, changedAt, validFrom, layerCounted } = scratch;
  const from = segments.fromLayer[s];
  const to = segments.toLayer[s];
  const start = segments.startNode[s];
  const end = segments.endNode[s];
  const hi = end === TRUE ? nodeLayer.length : end;
  const pass = ++scratch.passes[0];
  count[end] = 1;
  // A stretch's product of allowed values is a quotient of two tails (exact while safe).
  tail[to] = 1;
  for (let layer = to - 1; layer >= from; layer--) {
    tail[layer] = tail[layer + 1] * (fixed[layer] >= 0 ? 1 : domain[layer]);
    if (fixed[layer] !== lastFixed[layer]) {
      lastFixed[layer] = fixed[layer];
      changedAt[layer] = pass;
    }
    validFrom[layer] = Math.max(layer + 1 < to ? validFrom[layer + 1] : 0, changedAt[layer]);
  }
  // The first layer is always recounted: its node is the previous segment's end, whose
  // count that segment's pass sets to 1. Below `deepest` every layer's counts are valid
  // (a walk recounts only the nodes it reads: the next scan recounts the rest).
  let deepest = to - 1;
  while (deepest > from && layerCounted[deepest] >= validFrom[deepest]) deepest--;
  const below = Math.min(hi, scratch.firstNode[deepest + 1]);
  const above = (below < nodeLayer.length ? kidStart[below] : form.kids.length) - kidStart[start];
  if (!walkSegment(form, fixed, s, supported, scratch, scratch.walkShare * (above + (hi - start))))
    scanSegment(form, fixed, s, supported, scratch, deepest);
  // Past 2^53 the count is rounded; a node below the start past it makes the start's too
  // (counts only grow upwards), and the tails' quotients are exact while tail[from] is.
  const exact = tail[from] <= SAFE && count[start] <= SAFE;
  return { consistent: count[start] > 0, count: count[start], exact };
}

/**
 * The pass by layers: recounts every node of the layers from the first down to `deepest`
 * whose count is not valid, then marks the nodes reachable from the start node in id
 * order (ids ascend by layer), and reads the supports off reached nodes' edges.
 */
function scanSegment(
  form: ConsistencyForm,
  fixed: Int32Array,
  s: number,
  supported: Uint8Array,
  scratch: PassScratch,
  deepest: number,
): void {
  const { nodeLayer, kidStart, kids, domain, valueBase } = form;
  const { segments, count, stamp, reach, tail, free, validFrom, layerCounted } = scratch;
  const from = segments.fromLayer[s];
  const to = segments.toLayer[s];
  const start = segments.startNode[s];
  const end = segments.endNode[s];
  const hi = end === TRUE ? nodeLayer.length : end;
  for (let id = Math.min(hi, scratch.firstNode[deepest + 1]) - 1; id >= start; id--) {
    const layer = nodeLayer[id];
    // Kept: counted by a walk, or its layer still valid (only the first layer's node is not).
    if (Math.max(stamp[id], layerCounted[layer]) >= validFrom[layer] && id !== start) continue;
    const first = kidStart[id];
    const f = fixed[layer];
    let total = 0;
    for (let v = f >= 0 ? f : 0, last = f >= 0 ? f + 1 : domain[layer]; v < last; v++) {
      const child = kids[first + v];
      const below = child === FALSE ? 0 : count[child];
      if (below === 0) continue;
      const next = child === end ? to : nodeLayer[child];
      // Past 2^53 the tails are rounded, and so is their quotient: rounded back to the
      // integer it is (exact while below 2^52; a larger one makes the count inexact).
      total += next > layer + 1 ? below * Math.round(tail[layer + 1] / tail[next]) : below;
    }
    count[id] = total;
  }
  const pass = scratch.passes[0];
  for (let layer = from; layer <= deepest; layer++) layerCounted[layer] = pass;
  reach[start] = 1;
  for (let id = start; id < hi; id++) {
    if (reach[id] === 0) continue;
    reach[id] = 0;
    const layer = nodeLayer[id];
    const first = kidStart[id];
    const base = valueBase[layer];
    const f = fixed[layer];
    for (let v = 0, size = domain[layer]; v < size; v++) {
      const child = kids[first + v];
      if (child === FALSE) continue;
      const allowed = f < 0 || f === v;
      // Reach follows every allowed edge; `count` holds the restrictions of the layers
      // below, which a deeper layer's own values must not be judged by.
      if (allowed && child !== end) reach[child] = 1;
      if (count[child] === 0) continue;
      supported[base + v] = 1;
      if (!allowed) continue;
      const next = child === end ? to : nodeLayer[child];
      if (next > layer + 1) {
        free[layer + 1]++;
        free[next]--;
      }
    }
  }
  closeStretches(form, scratch, from, to, supported);
}

/**
 * The segment's exact path count when passSegment's doubles passed 2^53 (only where a
 * count is asked for: the pairwise relation does not need it). Right after that pass:
 * a node whose double count is at most 2^53 is exact (its descendants' are smaller),
 * so only the nodes above it are summed again, in BigInt.
 */
export function bigCount(
  form: ConsistencyForm,
  fixed: Int32Array,
  s: number,
  scratch: PassScratch,
): bigint {
  const { nodeLayer, kidStart, kids, domain } = form;
  const { segments, count } = scratch;
  const to = segments.toLayer[s];
  const start = segments.startNode[s];
  const end = segments.endNode[s];
  const hi = end === TRUE ? nodeLayer.length : end;
  const big = new Map<number, bigint>();
  const exactly = (node: number): bigint => big.get(node) ?? BigInt(count[node]);
  for (let id = hi - 1; id >= start; id--) {
    // Below 2^52 a double count is exact (passSegment rounds its factors back to integers).
    if (count[id] < 2 ** 52) continue;
    const layer = nodeLayer[id];
    const first = kidStart[id];
    const f = fixed[layer];
    let total = 0n;
    for (let v = f >= 0 ? f : 0, last = f >= 0 ? f + 1 : domain[layer]; v < last; v++) {
      const child = kids[first + v];
      if (child === FALSE || count[child] === 0) continue;
      const next = child === end ? to : nodeLayer[child];
      const below = exactly(child);
      total += next > layer + 1 ? below * BigInt(freeProduct(form, fixed, layer + 1, next)) : below;
    }
    big.set(id, total);
  }
  return exactly(start);
}
