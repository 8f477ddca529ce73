import { FALSE, TRUE } from './mdd.js';
import type { LayeredDiagram } from './weighted.js';

/**
 * Per node, its distinct children other than FALSE (`kids[start[id]] … kids[start[id + 1]]`),
 * each with the first of its cheapest values that lead there (`values`, by `price`; the
 * first value without one), in ascending value: on the large diagrams seen, about a
 * third of the edges, most edges leading to FALSE or to a child an edge before already
 * leads to. A count over an open layer reads only the children; a pass over an open
 * layer, whose edges into one child differ only by their value's price, only these
 * values, in the order the edges have them.
 */
export interface DistinctKids {
  readonly start: Int32Array;
  readonly kids: Int32Array;
  readonly values: Int32Array;
}

/** One pass over the diagram's edges, stamping each child with the node that has it. */
export function distinctKids(
  diagram: LayeredDiagram,
  price: Float64Array | undefined,
): DistinctKids {
  const { domain, valueBase, nodeLayer, kidStart, kids } = diagram;
  const nodes = nodeLayer.length;
  const start = new Int32Array(nodes + 1);
  const seen = new Int32Array(nodes).fill(-1);
  const at = new Int32Array(nodes);
  let children: Int32Array = new Int32Array(Math.max(16, nodes));
  let values: Int32Array = new Int32Array(children.length);
  let size = 0;
  for (let id = TRUE + 1; id < nodes; id++) {
    start[id] = size;
    const layer = nodeLayer[id];
    const base = valueBase[layer];
    for (let v = 0, k = kidStart[id]; v < domain[layer]; v++, k++) {
      const child = kids[k];
      if (child === FALSE) continue;
      if (seen[child] === id) {
        const known = at[child];
        if (price !== undefined && price[base + v] < price[base + values[known]]) values[known] = v;
        continue;
      }
      seen[child] = id;
      if (size === children.length) {
        children = grown(children, 2 * size);
        values = grown(values, 2 * size);
      }
      at[child] = size;
      children[size] = child;
      values[size++] = v;
    }
    // Ascending value (a cheaper later value may have moved a child's): insertion sort.
    for (let i = start[id] + 1; i < size; i++) {
      const child = children[i];
      const value = values[i];
      let j = i - 1;
      for (; j >= start[id] && values[j] > value; j--) {
        children[j + 1] = children[j];
        values[j + 1] = values[j];
      }
      children[j + 1] = child;
      values[j + 1] = value;
    }
  }
  start[nodes] = size;
  return { start, kids: children.slice(0, size), values: values.slice(0, size) };
}

function grown(array: Int32Array, length: number): Int32Array {
  const bigger = new Int32Array(length);
  bigger.set(array);
  return bigger;
}
