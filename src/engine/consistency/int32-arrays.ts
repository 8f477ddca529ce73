/**
 * Resizing the Int32Arrays the decision-diagram stores keep their nodes in (mdd.ts,
 * table-diagram.ts): growing them as nodes are added, shrinking them after a collection.
 * Plain array helpers, apart from the stores' own logic.
 */

/** `array`, or a prefix of it, long enough for twice `used` entries (at least 1,024). */
export function shrink(array: Int32Array<ArrayBuffer>, used: number): Int32Array<ArrayBuffer> {
  let length = 1024;
  while (length < used * 2) length *= 2;
  return length < array.length ? array.slice(0, length) : array;
}

/** A copy of `array` in a new array of `length` entries (the rest zero). */
export function grow(array: Int32Array, length: number): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(length);
  bigger.set(array);
  return bigger;
}
