/**
 * A CEL value as JSON: ints (bigint) become numbers (strings beyond 2^53, to stay
 * exact), non-finite doubles null, bytes base64, timestamps ISO strings, maps objects.
 */
export function toJsonValue(value: unknown): unknown {
  switch (typeof value) {
    case 'bigint':
      return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
        ? Number(value)
        : value.toString();
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'string':
    case 'boolean':
      return value;
    case 'object':
      if (value === null) return null;
      if (Array.isArray(value)) return value.map(toJsonValue);
      if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
      if (value instanceof Date) return value.toISOString();
      if (value instanceof Map) {
        return Object.fromEntries([...value].map(([k, v]) => [String(k), toJsonValue(v)]));
      }
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonValue(v)]));
    default:
      return null;
  }
}
