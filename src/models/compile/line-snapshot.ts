import { ENGINE_VERSION, type CartLine, type LineView } from '../../engine/index.js';
import { compactLine } from '../../engine/runtime.js';

/**
 * A line as a cart row stores it: its JSON without `version_number` (a column of the
 * row), as UTF-8 bytes in both views, with the engine version that made it. The bytes
 * move to the main thread (transferred, not copied), which deflates them (a large view
 * in zlib's thread pool; src/carts/stored-line.ts `deflatedSnapshot`): the engine worker is the
 * one every evaluation of the version waits for, so it does only what needs the engine.
 */
export interface LineSnapshot {
  readonly full: Uint8Array;
  readonly compact: Uint8Array;
  readonly engineVersion: string;
}

/**
 * An evaluated line's bytes in the asked view and, when asked, its snapshot. The line was
 * evaluated in the full view when a snapshot is asked (the compact view is cut from it).
 * Each view is serialized and encoded once: the answer's bytes and the stored form are
 * cut from the same bytes.
 */
export function lineBytes(
  evaluated: CartLine,
  task: { view: LineView; snapshot?: boolean },
  versionNumber: number,
): { line: Uint8Array; snapshot?: LineSnapshot } {
  const encoder = new TextEncoder();
  if (!task.snapshot) return { line: encoder.encode(JSON.stringify(evaluated)) };
  const full = encoder.encode(JSON.stringify(evaluated));
  const compact = encoder.encode(JSON.stringify(compactLine(evaluated)));
  return {
    line: task.view === 'compact' ? compact : full,
    snapshot: {
      full: stored(full, versionNumber),
      compact: stored(compact, versionNumber),
      engineVersion: ENGINE_VERSION,
    },
  };
}

/** The buffers that move with an evaluated line (each once: the line may be a view's). */
export function transferOf(line: Uint8Array, snapshot: LineSnapshot | undefined): ArrayBuffer[] {
  const views = snapshot ? [line, snapshot.full, snapshot.compact] : [line];
  return [...new Set(views.map((bytes) => bytes.buffer as ArrayBuffer))];
}

/**
 * A line's JSON bytes as a row stores them: without `version_number` (the row's column),
 * which the engine writes first, so the rest is copied after a `{` rather than the line
 * serialized again.
 */
function stored(json: Uint8Array, versionNumber: number): Uint8Array {
  const first = new TextEncoder().encode(`{"version_number":${versionNumber},`);
  if (!startsWith(json, first)) return withoutVersion(json);
  const bytes = new Uint8Array(json.length - first.length + 1);
  bytes[0] = first[0];
  bytes.set(json.subarray(first.length), 1);
  return bytes;
}

const startsWith = (bytes: Uint8Array, prefix: Uint8Array) =>
  bytes.length > prefix.length && prefix.every((byte, i) => bytes[i] === byte);

/** Should the engine ever write `version_number` elsewhere: the slow way, still right. */
function withoutVersion(json: Uint8Array): Uint8Array {
  const line = JSON.parse(new TextDecoder().decode(json)) as Record<string, unknown>;
  const { version_number: _version, ...rest } = line;
  return new TextEncoder().encode(JSON.stringify(rest));
}
