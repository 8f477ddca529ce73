/** The node arrays of a store (mdd.ts), as the collection reads and rewrites them. */
interface NodeArrays {
  readonly domain: Int32Array;
  readonly nodeCount: number;
  readonly layerOf: Int32Array;
  readonly kidStart: Int32Array;
  readonly kids: Int32Array;
}

/**
 * Keeps the nodes reachable from `roots` at the front of the arrays, in their order, and
 * returns each old id's new one (`keep`; 0 for a node dropped), the nodes and children
 * kept. A child's id is always below its parent's, so one sweep down marks and one sweep
 * up renumbers, preserving that order (and the terminals 0 and 1).
 */
export function compactInPlace(
  store: NodeArrays,
  roots: readonly number[],
): { keep: Int32Array; nodes: number; kids: number } {
  const { domain, layerOf, kidStart, kids } = store;
  const count = store.nodeCount;
  const keep = new Int32Array(count);
  for (const id of roots) if (id > 1) keep[id] = 1;
  for (let id = count - 1; id > 1; id--) {
    if (keep[id] === 0) continue;
    const start = kidStart[id];
    const size = domain[layerOf[id]];
    for (let v = 0; v < size; v++) keep[kids[start + v]] = 1;
  }
  keep[0] = 0;
  keep[1] = 1;
  let next = 2;
  let kidAt = 0;
  for (let id = 2; id < count; id++) {
    if (keep[id] === 0) continue;
    const layer = layerOf[id];
    const start = kidStart[id];
    const size = domain[layer];
    layerOf[next] = layer;
    kidStart[next] = kidAt;
    for (let v = 0; v < size; v++) kids[kidAt + v] = keep[kids[start + v]];
    kidAt += size;
    keep[id] = next++;
  }
  return { keep, nodes: next, kids: kidAt };
}
