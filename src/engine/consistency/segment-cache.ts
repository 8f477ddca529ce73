import { type ConsistencyForm, SEGMENT_CACHE_BYTES, SEGMENT_CACHE_MIN_EDGES } from './form.js';
import { TRUE } from './mdd.js';
import { bigCount, type PassScratch, passSegment } from './segment-pass.js';
import type { Segments } from './segments.js';

/**
 * Segment results memoized by the restrictions of the segment's layers: a segment's
 * valid domains and count depend on those alone, and consecutive evaluations of one
 * configuration (a buyer answering one question at a time) or of similar ones leave
 * most segments as they were. Only segments of at least SEGMENT_CACHE_MIN_EDGES edges (smaller
 * ones cost less to recompute than to look up), at most SEGMENT_CACHE_BYTES per form
 * (emptied when full: simple and bounded).
 */
/** Per entry besides its values: the key string, the map slot, the objects. */
const ENTRY_OVERHEAD = 160;

export interface Counted {
  readonly consistent: boolean;
  /** Paths through the segment (exact: a BigInt past 2^53). */
  readonly count: number | bigint;
}

interface Entry extends Counted {
  /** The segment's supported values (from valueBase[its first layer]). */
  readonly values: Uint8Array;
}

/** passSegment with the exact count (a BigInt count when the doubles passed 2^53). */
function counted(
  form: ConsistencyForm,
  fixed: Int32Array,
  s: number,
  supported: Uint8Array,
  scratch: PassScratch,
): Counted {
  const result = passSegment(form, fixed, s, supported, scratch);
  if (result.exact || !result.consistent) return result;
  return { consistent: true, count: bigCount(form, fixed, s, scratch) };
}

/** A form's memo (one per prepared form, prepared.ts). */
export interface SegmentMemo {
  bytes: number;
  readonly bySegment: Map<number, Map<string, Entry>>;
}

export function newSegmentMemo(): SegmentMemo {
  return { bytes: 0, bySegment: new Map() };
}

/** Segment `s`'s key in the memo under `fixed`; undefined when the segment is too small to keep. */
function memoKey(
  { kidStart, kids }: ConsistencyForm,
  segments: Segments,
  fixed: Int32Array,
  s: number,
): string | undefined {
  const end = segments.endNode[s];
  const edges = (end === TRUE ? kids.length : kidStart[end]) - kidStart[segments.startNode[s]];
  if (edges < SEGMENT_CACHE_MIN_EDGES) return undefined;
  let key = '';
  for (let layer = segments.fromLayer[s]; layer < segments.toLayer[s]; layer++)
    key += String.fromCharCode(fixed[layer] + 1);
  return key;
}

/**
 * Whether the memo holds every segment's result under `fixed` (answers evaluated before, on
 * a diagram whose segments are all large enough to keep): then availability's passes cost
 * nothing, and the price bounds' walks run after them, narrowed by their supported values
 * (evaluate/bounds-first.ts).
 */
export function memoHolds(
  form: ConsistencyForm,
  segments: Segments,
  fixed: Int32Array,
  cache: SegmentMemo,
): boolean {
  for (let s = 0; s < segments.fromLayer.length; s++) {
    const key = memoKey(form, segments, fixed, s);
    if (key === undefined || cache.bySegment.get(s)?.has(key) !== true) return false;
  }
  return true;
}

/** What the price bounds' walks found under the same restrictions (evaluate/bounds-first.ts). */
export interface Walked {
  /** Per value (flat): the supported values. */
  readonly supported: Uint8Array;
  /** Per segment: its paths. */
  readonly counts: ReadonlyArray<number | bigint>;
}

/**
 * `counted`, from the memo when the segment is large and its restrictions were seen.
 * `known`: what the walks found (supported values and count), where no pass is made.
 */
export function cachedPass(
  form: ConsistencyForm,
  fixed: Int32Array,
  s: number,
  supported: Uint8Array,
  scratch: PassScratch,
  cache: SegmentMemo,
  known?: Walked,
): Counted {
  const { valueBase } = form;
  const { segments } = scratch;
  const from = segments.fromLayer[s];
  const to = segments.toLayer[s];
  const offset = valueBase[from];
  const pass = (): Counted => {
    if (known === undefined) return counted(form, fixed, s, supported, scratch);
    supported.set(known.supported.subarray(offset, valueBase[to]), offset);
    const count = known.counts[s];
    return { consistent: count > 0, count };
  };
  const key = memoKey(form, scratch.segments, fixed, s);
  if (key === undefined) return pass();
  let entries = cache.bySegment.get(s);
  if (entries === undefined) {
    entries = new Map();
    cache.bySegment.set(s, entries);
  }
  const kept = entries.get(key);
  if (kept !== undefined) {
    supported.set(kept.values, offset);
    return kept;
  }
  const result = pass();
  const values = supported.slice(offset, valueBase[to]);
  const bytes = values.byteLength + key.length * 2 + ENTRY_OVERHEAD;
  if (cache.bytes + bytes > SEGMENT_CACHE_BYTES) {
    cache.bySegment.clear();
    cache.bytes = 0;
    entries = new Map();
    cache.bySegment.set(s, entries);
  }
  entries.set(key, { consistent: result.consistent, count: result.count, values });
  cache.bytes += bytes;
  return result;
}
