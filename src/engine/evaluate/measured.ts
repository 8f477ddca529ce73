/**
 * A line's members that measure one evaluation instead of following from its inputs:
 * `cache.evaluated_in_ms`. Two evaluations of the same version, answers and language
 * give the same line apart from them, so a validator of the answer (a weak ETag) leaves
 * them out, and a cart read twice can answer 304. Noted per line made here; a line read
 * back from storage holds a fixed value, which is part of it like any other.
 */
const measuredCaches = new WeakSet<object>();

/** `cache` is the `cache` member of a line this evaluation made. */
export function noteMeasuredCache(cache: object): void {
  measuredCaches.add(cache);
}

/** Whether `container[key]` is a measurement (see above), not content. */
export function isMeasuredMember(container: object, key: string): boolean {
  return key === 'evaluated_in_ms' && measuredCaches.has(container);
}
