import { ENGINE_VERSION, type CartLine, type LineView, compactLine } from '../../engine/work.js';
import { jsonBytes } from './json-encode.js';

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
 * Each view is serialized and encoded once, in pieces (json-encode.ts). With a snapshot, the answer's line is the
 * stored view itself (without `version_number`, which the main thread appends with the
 * row's other members, as a read of the stored line does): one buffer per view, no copy.
 */
export function lineBytes(
  evaluated: CartLine,
  task: { view: LineView; snapshot?: boolean },
  versionNumber: number,
): { line: Uint8Array; snapshot?: LineSnapshot } {
  if (!task.snapshot) return { line: jsonBytes(evaluated) };
  const full = stored(jsonBytes(evaluated), versionNumber);
  const compact = stored(jsonBytes(compactLine(evaluated)), versionNumber);
  return {
    line: task.view === 'compact' ? compact : full,
    snapshot: { full, compact, engineVersion: ENGINE_VERSION },
  };
}

/** The buffers that move with an evaluated line (each once: the line may be a view's). */
export function transferOf(line: Uint8Array, snapshot: LineSnapshot | undefined): ArrayBuffer[] {
  const views = snapshot ? [line, snapshot.full, snapshot.compact] : [line];
  return [...new Set(views.map((bytes) => bytes.buffer as ArrayBuffer))];
}

/**
 * A line's JSON bytes as a row stores them: without `version_number` (the row's column).
 * The engine writes it first, so the stored form is the same bytes from the comma after
 * it, which becomes the opening brace: a view of the buffer, not a copy of megabytes.
 */
function stored(json: Uint8Array, versionNumber: number): Uint8Array {
  const first = new TextEncoder().encode(`{"version_number":${versionNumber},`);
  if (!startsWith(json, first)) return withoutVersion(json);
  const bytes = json.subarray(first.length - 1);
  bytes[0] = first[0];
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
