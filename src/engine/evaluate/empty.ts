const FROZEN_EMPTY: readonly never[] = Object.freeze([]);

/**
 * One shared, frozen empty array for the many empty lists of a cart line
 * (unavailable_because, discarded, children…): a large model's line would
 * otherwise allocate tens of thousands of them. Frozen, so a mutation fails loudly.
 */
export function empty<T>(): T[] {
  return FROZEN_EMPTY as unknown as T[];
}
