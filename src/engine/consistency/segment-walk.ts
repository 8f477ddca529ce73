import type { ConsistencyForm } from './form.js';
import { FALSE } from './mdd.js';
import { closeStretches, type PassScratch } from './pass-scratch.js';

/**
 * A segment's pass by walking (pass-scratch.ts has the scratch and the rules of a valid
 * count): the nodes reachable from the start node along allowed edges, breadth first, and
 * only the counts they read — the start's, and each reached node's children's, counted
 * depth first through the allowed edges where not valid. A walk click whose answers cut
 * most of the diagram away examines a small part of it; a scan would look at every node
 * of the segment and recount whole layers.
 *
 * Returns false, having changed nothing but valid counts, once it has examined more than
 * `budget` edges: then most of the segment is reached or to be recounted, and the scan,
 * which reads memory in order, is cheaper.
 */
export function walkSegment(
  form: ConsistencyForm,
  fixed: Int32Array,
  s: number,
  supported: Uint8Array,
  scratch: PassScratch,
  budget: number,
): boolean {
  const { nodeLayer, kidStart, kids, domain, valueBase } = form;
  const { segments, count, stamp, reach, reached, free, validFrom, layerCounted } = scratch;
  const from = segments.fromLayer[s];
  const to = segments.toLayer[s];
  const start = segments.startNode[s];
  const end = segments.endNode[s];
  let work = countFrom(form, fixed, s, scratch, start, budget);
  let size = 1;
  reach[start] = 1;
  reached[0] = start;
  for (let i = 0; i < size && work <= budget; i++) {
    const id = reached[i];
    const layer = nodeLayer[id];
    const first = kidStart[id];
    const base = valueBase[layer];
    const f = fixed[layer];
    const values = domain[layer];
    work += values;
    for (let v = 0; v < values; v++) {
      const child = kids[first + v];
      if (child === FALSE) continue;
      const allowed = f < 0 || f === v;
      let next = to;
      if (child !== end) {
        next = nodeLayer[child];
        if (allowed && reach[child] === 0) {
          reach[child] = 1;
          reached[size++] = child;
        }
        // A child through another value of this layer is not reached; its count is read.
        if (Math.max(stamp[child], layerCounted[next]) < validFrom[next]) {
          work += countFrom(form, fixed, s, scratch, child, budget - work);
          if (work > budget) break;
        }
      }
      if (count[child] === 0) continue;
      supported[base + v] = 1;
      if (allowed && next > layer + 1) {
        free[layer + 1]++;
        free[next]--;
      }
    }
  }
  for (let i = 0; i < size; i++) reach[reached[i]] = 0;
  if (work > budget) {
    free.fill(0, from, to + 1);
    return false;
  }
  closeStretches(form, scratch, from, to, supported);
  return true;
}

/**
 * Counts `root` (the start node: always) and, depth first, the nodes its count reads
 * through allowed edges whose counts are not valid; returns the edges examined (past
 * `limit` it stops: the counts it finished are valid, the others untouched). One frame
 * per layer at most: every edge goes to a deeper layer.
 */
function countFrom(
  form: ConsistencyForm,
  fixed: Int32Array,
  s: number,
  scratch: PassScratch,
  root: number,
  limit: number,
): number {
  const { nodeLayer, kidStart, kids, domain } = form;
  const { segments, count, stamp, tail, validFrom, layerCounted } = scratch;
  const { frameNode, frameValue, frameSum } = scratch;
  const to = segments.toLayer[s];
  const end = segments.endNode[s];
  const pass = scratch.passes[0];
  let work = 0;
  let depth = 0;
  frameNode[0] = root;
  frameValue[0] = Math.max(fixed[nodeLayer[root]], 0);
  frameSum[0] = 0;
  while (depth >= 0) {
    const id = frameNode[depth];
    const layer = nodeLayer[id];
    const first = kidStart[id];
    const last = fixed[layer] >= 0 ? fixed[layer] + 1 : domain[layer];
    let sum = frameSum[depth];
    let v = frameValue[depth];
    let deeper = -1;
    for (; v < last; v++) {
      const child = kids[first + v];
      if (child === FALSE) continue;
      const next = child === end ? to : nodeLayer[child];
      if (child !== end && Math.max(stamp[child], layerCounted[next]) < validFrom[next]) {
        deeper = child;
        break;
      }
      const below = count[child];
      if (below === 0) continue;
      // As in the scan (segment-pass.ts): a skipped stretch's product, rounded back.
      sum += next > layer + 1 ? below * Math.round(tail[layer + 1] / tail[next]) : below;
    }
    work += v - frameValue[depth] + 1;
    if (work > limit) return work;
    if (deeper >= 0) {
      frameValue[depth] = v;
      frameSum[depth] = sum;
      depth++;
      frameNode[depth] = deeper;
      frameValue[depth] = Math.max(fixed[nodeLayer[deeper]], 0);
      frameSum[depth] = 0;
      continue;
    }
    count[id] = sum;
    stamp[id] = pass;
    depth--;
  }
  return work;
}
