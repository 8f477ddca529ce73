/**
 * What the engine derives from a compiled model, its texts or its consistency form and
 * keeps for the next evaluations (the prepared form, rule mentions, shared line parts,
 * the pooled expression context) lives on the object it derives from, under a symbol of
 * the module that builds it, not in a module-level table (docs/adr/0124): the engine
 * holds no state of its own, and what a version derived goes when the version goes.
 *
 * Non-enumerable, so it is never stored, transferred (transfer.ts walks own enumerable
 * members; the V8 serializer too), serialized to JSON or copied by a spread: a copy of a
 * model or form derives its own.
 */
export function derived<T>(owner: object, key: symbol, build: () => T): T {
  const slots = owner as Record<symbol, T | undefined>;
  const known = slots[key];
  if (known !== undefined) return known;
  const value = build();
  Object.defineProperty(owner, key, { value, enumerable: false, writable: false });
  return value;
}
