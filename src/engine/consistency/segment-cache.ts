import { type ConsistencyForm, SEGMENT_CACHE_BYTES, SEGMENT_CACHE_MIN_EDGES } from './form.js';
import { TRUE } from './mdd.js';
import { bigCount, type PassScratch, passSegment } from './segment-pass.js';

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

/** `counted`, from the memo when the segment is large and its restrictions were seen. */
export function cachedPass(
  form: ConsistencyForm,
  fixed: Int32Array,
  s: number,
  supported: Uint8Array,
  scratch: PassScratch,
  cache: SegmentMemo,
): Counted {
  const { kidStart, kids, valueBase } = form;
  const { segments } = scratch;
  const end = segments.endNode[s];
  const edges = (end === TRUE ? kids.length : kidStart[end]) - kidStart[segments.startNode[s]];
  if (edges < SEGMENT_CACHE_MIN_EDGES) return counted(form, fixed, s, supported, scratch);
  const from = segments.fromLayer[s];
  const to = segments.toLayer[s];
  let key = '';
  for (let layer = from; layer < to; layer++) key += String.fromCharCode(fixed[layer] + 1);
  let entries = cache.bySegment.get(s);
  if (entries === undefined) {
    entries = new Map();
    cache.bySegment.set(s, entries);
  }
  const offset = valueBase[from];
  const known = entries.get(key);
  if (known !== undefined) {
    supported.set(known.values, offset);
    return known;
  }
  const result = counted(form, fixed, s, supported, scratch);
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
