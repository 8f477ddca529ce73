/**
 * The bound's nodes (nearest-changes.ts) for the pass (nearest-pass.ts), in ascending id:
 * the pass reads them last to first (a child before its parents) and, in id order, walks
 * its columns forward in memory. A radix sort by 11 bits of the id at a time (two or
 * three reads of the list on the diagrams seen) costs far less than the typed array's
 * sort. Beyond `most` nodes the pass reads every stamp of the stretch instead.
 * `list` holds the nodes and `order` is node-sized scratch; either may hold the result.
 */
export function listed<Bound extends object>(
  bound: Bound,
  ids: number,
  list: Int32Array,
  count: number,
  most: number,
  order: Int32Array,
): Bound & { readonly nodes?: Int32Array } {
  if (count > most) return bound;
  let from = list;
  let to = order;
  const at = new Int32Array(DIGIT + 1);
  for (let shift = 0; ids >>> shift > 0; shift += BITS) {
    at.fill(0);
    for (let i = 0; i < count; i++) at[((from[i] >>> shift) & (DIGIT - 1)) + 1]++;
    for (let digit = 0; digit < DIGIT; digit++) at[digit + 1] += at[digit];
    for (let i = 0; i < count; i++) to[at[(from[i] >>> shift) & (DIGIT - 1)]++] = from[i];
    [from, to] = [to, from];
  }
  return { ...bound, nodes: from.subarray(0, count) };
}

const BITS = 11;
const DIGIT = 1 << BITS;
