/**
 * A value's JSON as UTF-8 bytes: the bytes of `TextEncoder#encode(JSON.stringify(value))`,
 * without that one string of the whole. V8 puts a string past its regular object size
 * (128 kB) on pages mapped for it alone and fresh each time, and every 4 kB of them faults
 * on its first write: a 1,000-question line (837 kB) is about 200 faults, two thirds of
 * all a preview causes in the service, and a fault costs 12–16 µs on a paravirtualized
 * machine (docs/adr/0241). Here the value is written in pieces (a container's members or
 * items, to SPLIT_DEPTH), each stringified on its own (small strings, on heap pages that
 * are reused) and encoded into a scratch buffer this thread keeps, then copied out once
 * into a buffer of the exact size, which can be transferred to another thread.
 *
 * The pieces join to what JSON.stringify writes: an object's own enumerable string keys in
 * their order, a member whose value has no JSON (undefined, a function, a symbol) left
 * out, an array's missing items as null. Values that are not plain objects or arrays, and
 * containers with a `toJSON` method on themselves or a member, are stringified whole.
 */

/** Containers at depths below this are written member by member (the top one is depth 0). */
const SPLIT_DEPTH = 2;
/** The scratch buffer's size at first, and the largest one kept between calls. */
const INITIAL_BYTES = 256 * 1024;
const KEPT_BYTES = 16 * 1024 * 1024;

const encoder = new TextEncoder();
/** This thread's scratch buffer: written from its start by each call, then copied out. */
let scratch = new Uint8Array(INITIAL_BYTES);

/** `value`'s JSON as UTF-8 bytes, in a buffer of their exact size. Throws as JSON.stringify. */
export function jsonBytes(value: unknown): Uint8Array {
  const writer = new ScratchWriter();
  if (!writer.value(value, 0)) throw new TypeError('The value has no JSON text');
  // Uninitialized (no zeroing of what is written over at once) and its own ArrayBuffer.
  const bytes = Buffer.allocUnsafeSlow(writer.at);
  bytes.set(scratch.subarray(0, writer.at));
  if (scratch.length > KEPT_BYTES) scratch = new Uint8Array(INITIAL_BYTES);
  return bytes;
}

/** Writes JSON text into `scratch` from its start, growing it as needed. */
class ScratchWriter {
  at = 0;

  /** Writes `value`'s JSON; false (nothing written) when it has none. */
  value(value: unknown, depth: number): boolean {
    if (depth < SPLIT_DEPTH && isSplittable(value)) this.container(value, depth);
    else {
      const text = JSON.stringify(value) as string | undefined;
      if (text === undefined) return false;
      this.text(text);
    }
    return true;
  }

  /** A splittable container (isSplittable), member by member. */
  private container(value: object, depth: number): void {
    if (Array.isArray(value)) {
      const items = value as readonly unknown[];
      this.text('[');
      for (let i = 0; i < items.length; i++) {
        if (i > 0) this.text(',');
        if (!this.value(items[i], depth + 1)) this.text('null');
      }
      this.text(']');
      return;
    }
    const members = value as Record<string, unknown>;
    this.text('{');
    let first = true;
    for (const key of Object.keys(members)) {
      const member = members[key];
      // A member's key is written only when its value has JSON, known before it is written.
      const split = depth + 1 < SPLIT_DEPTH && isSplittable(member);
      const text = split ? '' : (JSON.stringify(member) as string | undefined);
      if (text === undefined) continue;
      this.text(`${first ? '' : ','}${JSON.stringify(key)}:`);
      first = false;
      if (split) this.container(member, depth + 1);
      else this.text(text);
    }
    this.text('}');
  }

  private text(text: string): void {
    let rest = text;
    for (;;) {
      const { read, written } = encoder.encodeInto(rest, scratch.subarray(this.at));
      this.at += written;
      if (read === rest.length) return;
      // encodeInto stops before a character that does not fit whole: the rest goes on.
      rest = rest.slice(read);
      const larger = new Uint8Array(Math.max(scratch.length * 2, this.at + rest.length * 3));
      larger.set(scratch.subarray(0, this.at));
      scratch = larger;
    }
  }
}

/**
 * A plain object or array without `toJSON`, nor any of its members: its JSON is its
 * members', written here. (JSON.stringify calls a member's `toJSON` with the member's key,
 * which a piece stringified on its own would not pass: such a container goes whole.)
 */
function isSplittable(value: unknown): value is object {
  if (hasToJson(value)) return false;
  if (Array.isArray(value)) return !value.some(hasToJson);
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return false;
  const members = value as Record<string, unknown>;
  for (const key of Object.keys(members)) if (hasToJson(members[key])) return false;
  return true;
}

const hasToJson = (value: unknown): boolean =>
  value !== null &&
  typeof value === 'object' &&
  typeof (value as { toJSON?: unknown }).toJSON === 'function';
