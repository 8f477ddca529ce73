/**
 * The engine version in a stored consistency form's header (serialize.ts: a little-endian
 * length, then the JSON header). Its own module, so the main thread can read it without
 * loading the form's reader (src/engine/index.ts).
 */
export function storedEngineVersion(bytes: Uint8Array): string | undefined {
  try {
    const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(
      0,
      true,
    );
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length))) as {
      engine?: unknown;
    };
    return typeof header.engine === 'string' ? header.engine : undefined;
  } catch {
    return undefined;
  }
}
