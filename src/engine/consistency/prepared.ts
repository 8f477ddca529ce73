import { derived } from '../derived.js';
import type { ConsistencyForm } from './form.js';
import { TRUE } from './mdd.js';
import { buildPairMatrices, type PairMatrices } from './pairs.js';
import { DnnfQueries } from './dnnf-query.js';
import { Propagator } from './propagate.js';
import { newSegmentMemo, type SegmentMemo } from './segment-cache.js';
import { newPassScratch, type PassScratch, passSegment } from './segment-pass.js';
import { computeSegments, type Segments } from './segments.js';

/**
 * What every evaluation of a version reads besides its consistency form, built once per
 * form: the segments, the scratch arrays of passes and checks, the live values, the
 * pairwise relation (pairs.ts) and, past the compile budget, the propagator. Each of these
 * used to be a WeakMap of its own, filled on first use, so a version's first
 * clicks paid for them one by one (the pairwise rows a full pass each).
 *
 * Built by `prepareForm` where a form is made or loaded, or on the first evaluation of a
 * form revived in another thread, and kept on the form (derived.ts), which stays plain
 * data to store and transfer. Its costly part, the live values and the pairwise matrices (0.25 s
 * for one 5,000-row table, in the evaluation worker other tenants' versions share),
 * travels with the form as `FormRelations` (transfer.ts, serialize.ts format 5), so a
 * worker that adopts or loads a version only copies it (docs/adr/0123).
 */
export interface PreparedForm {
  readonly segments: Segments;
  readonly pass: PassScratch;
  readonly visit: VisitScratch;
  /** Per value: 1 when some valid configuration holds it (0: dead). */
  readonly live: Uint8Array;
  readonly pairs: PairMatrices;
  /** Rows of segments without a matrix, computed on use (query.ts compatibleWith). */
  readonly pairRows: Map<number, Uint8Array>;
  readonly memo: SegmentMemo;
  /** Past the compile budget: the parts' propagator (propagate.ts); else undefined. */
  readonly propagator: Propagator | undefined;
  /** The queries of the form's decision-DNNF (dnnf-query.ts), when it has one (then no propagator). */
  readonly dnnf: DnnfQueries | undefined;
  /**
   * Per rule with a table: its local availability for the last answers of its columns
   * (evaluate/availability.ts). Consecutive clicks of a configuration change one answer,
   * so most tables read the same answers as the click before.
   */
  readonly localTables: Array<LocalTableMemo | undefined>;
}

export interface LocalTableMemo {
  /** The table (a form loaded for another model with the same layers must not reuse it). */
  readonly table: object;
  /** The answers of the table's columns. */
  readonly key: string;
  /** Some row fits every answered column. */
  readonly matched: boolean;
  /** Per column, per option (the layout of the table's `offers`): 1 when a fitting row offers it. */
  readonly offered: Uint8Array;
}

/** Visit stamps of consistency checks (query.ts isConsistent); evaluation is synchronous. */
export interface VisitScratch {
  readonly stamp: Int32Array;
  readonly stack: Int32Array;
  epoch: number;
}

/**
 * The prepared form's live values and pairwise matrices as flat arrays: segment s's rows
 * are `pairBits[pairStart[s] …]` (`pairWords[s]` words a row), or absent when
 * `pairStart[s]` is -1.
 */
export interface FormRelations {
  readonly live: Uint8Array;
  readonly pairWords: Int32Array;
  readonly pairStart: Int32Array;
  readonly pairBits: Uint32Array;
}

/** Where a form keeps its prepared form (derived.ts). */
const PREPARED = Symbol('prepared form');

/**
 * The form's prepared form, built now if it was not yet; from `relations` (built for this
 * form where it was compiled) instead of recomputing them, when given.
 */
export function prepareForm(form: ConsistencyForm, relations?: FormRelations): PreparedForm {
  return derived(form, PREPARED, () => build(form, relations));
}

/**
 * The prepared form's relations, to transfer or store with the form. A copy of its
 * matrices, not kept: a form in a worker's cache holds its matrices once (the cache
 * counts them once, pairMatrixBytes).
 */
export function formRelations(form: ConsistencyForm): FormRelations {
  const { live, pairs } = prepareForm(form);
  const count = pairs.rows.length;
  const pairStart = new Int32Array(count).fill(-1);
  let words = 0;
  for (let s = 0; s < count; s++) {
    const rows = pairs.rows[s];
    if (rows === undefined) continue;
    pairStart[s] = words;
    words += rows.length;
  }
  const pairBits = new Uint32Array(words);
  pairs.rows.forEach((rows, s) => rows && pairBits.set(rows, pairStart[s]));
  return { live, pairWords: pairs.words, pairStart, pairBits };
}

export function segmentsOf(form: ConsistencyForm): Segments {
  return prepareForm(form).segments;
}

/** Bytes of the prepared form's pairwise matrices (pairs.ts; ≤ 32 MB), building it if needed. */
export function pairMatrixBytes(form: ConsistencyForm): number {
  let bytes = 0;
  for (const rows of prepareForm(form).pairs.rows) bytes += rows?.byteLength ?? 0;
  return bytes;
}

/** The propagator of a form past the compile budget. */
export function propagatorOf(form: ConsistencyForm): Propagator {
  const { propagator } = prepareForm(form);
  if (propagator === undefined) throw new Error('a compiled form has no propagator');
  return propagator;
}

/**
 * What checks the answers of a form past the compile budget: its decision-DNNF's queries
 * (exact) or its propagator; both count their work in `revised` (the explanation budget).
 */
export function checkerOf(form: ConsistencyForm): DnnfQueries | Propagator {
  const { dnnf, propagator } = prepareForm(form);
  const checker = dnnf ?? propagator;
  if (checker === undefined) throw new Error('a compiled form has no propagator');
  return checker;
}

function build(form: ConsistencyForm, relations: FormRelations | undefined): PreparedForm {
  const segments = computeSegments(form);
  const given = relations !== undefined && relations.pairStart.length === segments.fromLayer.length;
  const pass = newPassScratch(form, segments);
  const size = form.nodeLayer.length;
  const visit = { stamp: new Int32Array(size), stack: new Int32Array(size), epoch: 0 };
  const compiled = form.compiled;
  return {
    segments,
    pass,
    visit,
    live: !compiled ? new Uint8Array(0) : given ? relations.live : liveValues(form, segments, pass),
    pairs: !compiled
      ? { rows: [], words: new Int32Array(0) }
      : given
        ? matricesOf(relations, form, segments)
        : buildPairMatrices(form, segments),
    pairRows: new Map(),
    memo: newSegmentMemo(),
    propagator: compiled || form.dnnf !== undefined ? undefined : new Propagator(form),
    dnnf:
      form.dnnf === undefined ? undefined : new DnnfQueries(form.dnnf, form.domain, form.valueBase),
    localTables: [],
  };
}

/** The matrices of flat relations: each segment's rows (one per value) a view of `pairBits`. */
function matricesOf(
  { pairWords, pairStart, pairBits }: FormRelations,
  { valueBase }: ConsistencyForm,
  { fromLayer, toLayer }: Segments,
): PairMatrices {
  const rows = Array.from(pairStart, (start, s) => {
    const values = valueBase[toLayer[s]] - valueBase[fromLayer[s]];
    return start < 0 ? undefined : pairBits.subarray(start, start + values * pairWords[s]);
  });
  return { rows, words: pairWords };
}

/** Values with a valid completion when nothing is answered: one pass per segment. */
function liveValues(form: ConsistencyForm, segments: Segments, pass: PassScratch): Uint8Array {
  const { valueBase, domain, root } = form;
  const live = new Uint8Array(valueBase[domain.length]);
  if (root <= TRUE) {
    if (root === TRUE) live.fill(1);
    return live;
  }
  const free = new Int32Array(domain.length).fill(-1);
  for (let s = 0; s < segments.fromLayer.length; s++) passSegment(form, free, s, live, pass);
  live.fill(1, 0, valueBase[form.nodeLayer[root]]); // layers no part reads
  return live;
}
