import { type ConsistencyForm, PAIR_MATRIX_BYTES as MATRIX_BYTES } from './form.js';
import { FALSE, TRUE } from './mdd.js';
import type { Segments } from './segments.js';

/**
 * The pairwise relation of a compiled diagram, built once per form (prepared.ts): value
 * a and value b are *compatible* when some valid configuration holds both. Every
 * explanation asks it first (one answer that excludes an option is the usual minimal
 * conflict), and each evaluation used to rebuild a row per unavailable value with a full
 * pass over the value's segment (hundreds of such passes on a large car's first click).
 *
 * One pass per segment gives every row: per node, the values on some path from the
 * segment's start to it (`above`) and from it to the segment's end (`below`), as bit
 * sets over the segment's values (a skipped layer — an edge over it — contributes all
 * its values); the row of value v of layer l is the union, over the edges (u, v, c), of
 * above(u), v and below(c), and, for the edges that skip layer l, of everything on
 * their paths. Values of other segments are compatible with v exactly when both are live
 * (segments are independent). Work and memory: nodes × segment values / 32 words per
 * segment; a segment past MATRIX_WORDS (or the rows past MATRIX_BYTES in all) has no
 * matrix, and its rows are computed per value on use (query.ts `compatibleWith`).
 */
export interface PairMatrices {
  /** Per segment: its rows (row i of value valueBase[from] + i, `words[s]` words each), or undefined. */
  readonly rows: ReadonlyArray<Uint32Array | undefined>;
  readonly words: Int32Array;
}

/** Temporary words (above + below) one segment's build may use: 32 MB. */
const MATRIX_WORDS = 8 * 1024 * 1024;

export function buildPairMatrices(form: ConsistencyForm, segments: Segments): PairMatrices {
  const count = segments.fromLayer.length;
  const rows = new Array<Uint32Array | undefined>(count);
  const words = new Int32Array(count);
  let bytes = 0;
  for (let s = 0; s < count; s++) {
    const width = form.valueBase[segments.toLayer[s]] - form.valueBase[segments.fromLayer[s]];
    words[s] = (width + 31) >>> 5;
    const size = width * words[s] * 4;
    if (bytes + size > MATRIX_BYTES) continue;
    rows[s] = segmentMatrix(form, segments, s, words[s]);
    if (rows[s] !== undefined) bytes += size;
  }
  return { rows, words };
}

/** Bits [from, to) of the set at `at` (words `words`). */
function setRange(bits: Uint32Array, at: number, from: number, to: number): void {
  for (let b = from; b < to;) {
    const word = b >>> 5;
    const low = b & 31;
    const high = Math.min(32, low + (to - b));
    const mask = high === 32 ? ~0 << low : ((1 << high) - 1) & (~0 << low);
    bits[at + word] |= mask;
    b += high - low;
  }
}

function orInto(
  target: Uint32Array,
  at: number,
  source: Uint32Array,
  from: number,
  words: number,
): void {
  for (let w = 0; w < words; w++) target[at + w] |= source[from + w];
}

function segmentMatrix(
  form: ConsistencyForm,
  segments: Segments,
  s: number,
  words: number,
): Uint32Array | undefined {
  const { nodeLayer, kidStart, kids, domain, valueBase } = form;
  const from = segments.fromLayer[s];
  const to = segments.toLayer[s];
  const start = segments.startNode[s];
  const end = segments.endNode[s];
  const hi = end === TRUE ? nodeLayer.length : end;
  const base = valueBase[from];
  const width = valueBase[to] - base;
  const nodes = hi - start;
  if (nodes * words * 2 > MATRIX_WORDS) return undefined;
  const below = new Uint32Array(nodes * words);
  const above = new Uint32Array(nodes * words);
  const rows = new Uint32Array(width * words);
  /** Per layer of the segment: what the paths over it (edges skipping it) hold. */
  const skipped = new Uint32Array((to - from) * words);
  const next = (child: number): number => (child === end ? to : nodeLayer[child]);
  // Below, bottom-up (children have larger ids).
  for (let id = hi - 1; id >= start; id--) {
    const layer = nodeLayer[id];
    const at = (id - start) * words;
    for (let v = 0, first = kidStart[id]; v < domain[layer]; v++) {
      const child = kids[first + v];
      if (child === FALSE) continue;
      const bit = valueBase[layer] + v - base;
      below[at + (bit >>> 5)] |= 1 << (bit & 31);
      setRange(below, at, valueBase[layer + 1] - base, valueBase[next(child)] - base);
      if (child !== end) orInto(below, at, below, (child - start) * words, words);
    }
  }
  // Above, top-down; then each edge's paths into its value's row (and the skipped layers').
  const path = new Uint32Array(words);
  for (let id = start; id < hi; id++) {
    const layer = nodeLayer[id];
    const at = (id - start) * words;
    for (let v = 0, first = kidStart[id]; v < domain[layer]; v++) {
      const child = kids[first + v];
      if (child === FALSE) continue;
      const bit = valueBase[layer] + v - base;
      const gapFrom = valueBase[layer + 1] - base;
      const gapTo = valueBase[next(child)] - base;
      if (child !== end) {
        const into = (child - start) * words;
        orInto(above, into, above, at, words);
        above[into + (bit >>> 5)] |= 1 << (bit & 31);
        setRange(above, into, gapFrom, gapTo);
      }
      path.set(above.subarray(at, at + words));
      path[bit >>> 5] |= 1 << (bit & 31);
      setRange(path, 0, gapFrom, gapTo);
      if (child !== end) orInto(path, 0, below, (child - start) * words, words);
      orInto(rows, bit * words, path, 0, words);
      for (let l = layer + 1; l < next(child); l++)
        orInto(skipped, (l - from) * words, path, 0, words);
    }
  }
  for (let l = from; l < to; l++) {
    const at = (l - from) * words;
    for (let bit = valueBase[l] - base; bit < valueBase[l + 1] - base; bit++)
      orInto(rows, bit * words, skipped, at, words);
  }
  return rows;
}

/** Whether row `a` (relative to the segment's first value) holds `b`. */
export function matrixHolds(rows: Uint32Array, words: number, a: number, b: number): boolean {
  return (rows[a * words + (b >>> 5)] & (1 << (b & 31))) !== 0;
}
