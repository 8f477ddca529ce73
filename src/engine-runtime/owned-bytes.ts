/**
 * The bytes in an ArrayBuffer of their own, ready to move to another thread: a Buffer from
 * Node's pool shares its ArrayBuffer with others, which must not be transferred (detached).
 */
export function ownedBytes(bytes: Uint8Array): Uint8Array {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return whole && bytes.buffer instanceof ArrayBuffer ? bytes : new Uint8Array(bytes);
}
