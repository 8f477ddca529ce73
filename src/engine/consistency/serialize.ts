import { constants, deflateSync, inflateSync } from 'node:zlib';
import { ENGINE_VERSION } from '../version.js';
import type { ConsistencyForm, ModelAnalysis } from './form.js';
import { type FormRelations, formRelations, prepareForm } from './prepared.js';

export { storedEngineVersion } from './stored-version.js';

/**
 * Bumped whenever the byte layout below changes. 3: the analysis reports a bound in
 * `configurations_at_most` (format 2 is still read: its analysis is converted). 4: the
 * arrays are deflated (formats 2 and 3, raw, are still read). 5: the prepared form's
 * relations follow the form's arrays (prepared.ts; formats 2–4 rebuild them on load). 6: the
 * decision-DNNF's arrays follow the form's (empty without one; dnnf-form.ts).
 */
export const CONSISTENCY_FORMAT = 6;

const ARRAYS = [
  'domain',
  'layerQuestion',
  'layerOption',
  'firstLayer',
  'layerCount',
  'valueBase',
  'nodeLayer',
  'kidStart',
  'kids',
  'partRoots',
] as const;

/** Format 6: the decision-DNNF (dnnf-form.ts), between the form's arrays and the relations. */
const DNNF_ARRAYS = ['dnnfNodeLayer', 'dnnfKidStart', 'dnnfKids'] as const;

/** Format 5: the relations (`live` widened to Int32, `pairBits` as its Int32 view). */
const RELATIONS = ['live', 'pairWords', 'pairStart', 'pairBits'] as const;

/** The machine stores typed arrays little-endian (every platform Node ships for, in practice). */
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

interface Header {
  format: number;
  engine: string;
  exact: boolean;
  reason: string | null;
  compiled: boolean;
  root: number;
  /** Format 6: the decision-DNNF's root, or null without one. */
  dnnfRoot?: number | null;
  partSources: readonly string[];
  conflict: readonly string[];
  analysis: ModelAnalysis;
  lengths: number[];
}

/**
 * The form as bytes, to store with the model version: `u32 header length | header JSON
 * (format, engine version, analysis…) | padding to 4 | the Int32 arrays, little-endian, in
 * ARRAYS order, deflated`. Deflated because `kids` holds every value of every node,
 * mostly the false terminal: a 250 KB model with one 5,000-row table made 18.8 MB raw,
 * which an upload then wrote to the database (on SQLite a synchronous statement on the
 * main thread; docs/adr/0122-deflated-consistency-form.md). The header stays plain: the
 * main thread reads its engine version (stored-version.ts).
 */
export function serializeConsistency(form: ConsistencyForm): Uint8Array {
  const header: Header = {
    format: CONSISTENCY_FORMAT,
    engine: ENGINE_VERSION,
    exact: form.exact,
    reason: form.reason ?? null,
    compiled: form.compiled,
    root: form.root,
    dnnfRoot: form.dnnf?.root ?? null,
    partSources: form.partSources,
    conflict: form.conflict,
    analysis: form.analysis,
    lengths: [],
  };
  const dnnf = form.dnnf;
  const arrays = [
    ...ARRAYS.map((name) => form[name]),
    ...(dnnf === undefined
      ? DNNF_ARRAYS.map(() => new Int32Array(0))
      : [dnnf.nodeLayer, dnnf.kidStart, dnnf.kids]),
    ...relationArrays(formRelations(form)),
  ];
  header.lengths = arrays.map((array) => array.length);
  const text = new TextEncoder().encode(JSON.stringify(header));
  const start = align(4 + text.length);
  const body = new Int32Array(arrays.reduce((sum, array) => sum + array.length, 0));
  let at = 0;
  for (const array of arrays) {
    body.set(array, at);
    at += array.length;
  }
  const deflated = deflateSync(littleEndian(body), { level: constants.Z_BEST_SPEED });
  const bytes = new Uint8Array(start + deflated.byteLength);
  new DataView(bytes.buffer).setUint32(0, text.length, true);
  bytes.set(text, 4);
  bytes.set(deflated, start);
  return bytes;
}

/** The stored form, or undefined when it was built by another engine version or format (recompile). */
export function deserializeConsistency(bytes: Uint8Array): ConsistencyForm | undefined {
  let form: ConsistencyForm;
  let relations: FormRelations | undefined;
  try {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const length = view.getUint32(0, true);
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length))) as Header;
    if (header.format < 2 || header.format > CONSISTENCY_FORMAT) return undefined;
    if (header.engine !== ENGINE_VERSION) return undefined;
    const start = align(4 + length);
    // Formats 2 and 3 stored the arrays raw; 4 deflates them.
    const body = header.format >= 4 ? inflateSync(bytes.subarray(start)) : bytes.subarray(start);
    const words = int32s(body);
    if (words === undefined) return undefined;
    const names =
      header.format >= 6
        ? [...ARRAYS, ...DNNF_ARRAYS, ...RELATIONS]
        : header.format === 5
          ? [...ARRAYS, ...RELATIONS]
          : ARRAYS;
    if (header.lengths.length !== names.length) return undefined;
    let at = 0;
    const arrays: Record<string, Int32Array> = {};
    names.forEach((name, i) => {
      arrays[name] = words.slice(at, at + header.lengths[i]);
      at += header.lengths[i];
    });
    if (at !== words.length) return undefined;
    if (header.format >= 5)
      relations = {
        live: Uint8Array.from(arrays.live),
        pairWords: arrays.pairWords,
        pairStart: arrays.pairStart,
        pairBits: new Uint32Array(arrays.pairBits.buffer),
      };
    form = {
      exact: header.exact,
      reason: header.reason ?? undefined,
      compiled: header.compiled,
      root: header.root,
      partSources: header.partSources,
      conflict: header.conflict,
      analysis: header.format === 2 ? honestCount(header.analysis) : header.analysis,
      domain: arrays.domain,
      layerQuestion: arrays.layerQuestion,
      layerOption: arrays.layerOption,
      firstLayer: arrays.firstLayer,
      layerCount: arrays.layerCount,
      valueBase: arrays.valueBase,
      nodeLayer: arrays.nodeLayer,
      kidStart: arrays.kidStart,
      kids: arrays.kids,
      partRoots: arrays.partRoots,
      ...(header.dnnfRoot === undefined || header.dnnfRoot === null
        ? {}
        : {
            dnnf: {
              nodeLayer: arrays.dnnfNodeLayer,
              kidStart: arrays.dnnfKidStart,
              kids: arrays.dnnfKids,
              root: header.dnnfRoot,
            },
          }),
    };
  } catch {
    return undefined;
  }
  prepareForm(form, relations); // what every evaluation reads, once per version (prepared.ts)
  return form;
}

function relationArrays(relations: FormRelations): Int32Array[] {
  const { live, pairWords, pairStart, pairBits } = relations;
  return [
    Int32Array.from(live),
    pairWords,
    pairStart,
    new Int32Array(pairBits.buffer, pairBits.byteOffset, pairBits.length),
  ];
}

/** The array's bytes in little-endian order (a copy on a big-endian machine). */
function littleEndian(array: Int32Array): Uint8Array {
  const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  if (LITTLE_ENDIAN) return bytes;
  const copy = new Uint8Array(bytes.length);
  const view = new DataView(copy.buffer);
  array.forEach((value, i) => view.setInt32(i * 4, value, true));
  return copy;
}

/** Little-endian bytes as Int32s (undefined when their length is not a multiple of 4). */
function int32s(bytes: Uint8Array): Int32Array | undefined {
  if (bytes.byteLength % 4 !== 0) return undefined;
  const count = bytes.byteLength / 4;
  if (!LITTLE_ENDIAN) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return Int32Array.from({ length: count }, (_, i) => view.getInt32(i * 4, true));
  }
  // An Int32Array view needs a 4-aligned offset: a Buffer from zlib's pool may not have one.
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  return new Int32Array(aligned.buffer, aligned.byteOffset, count);
}

function align(offset: number): number {
  return (offset + 3) & ~3;
}

/** Format 2 stored the bound of an inexact form as `configurations`: moved to its own member. */
function honestCount(analysis: ModelAnalysis): ModelAnalysis {
  if (analysis.exact || analysis.configurations === null) return analysis;
  return { ...analysis, configurations: null, configurations_at_most: analysis.configurations };
}
