import { constants, deflateSync, inflateSync } from 'node:zlib';
import { ENGINE_VERSION } from '../version.js';
import type { ConsistencyForm, ModelAnalysis } from './form.js';
import { prepareForm } from './prepared.js';

export { storedEngineVersion } from './stored-version.js';

/**
 * Bumped whenever the byte layout below changes. 3: the analysis reports a bound in
 * `configurations_at_most` (format 2 is still read: its analysis is converted). 4: the
 * arrays are deflated (formats 2 and 3, raw, are still read).
 */
export const CONSISTENCY_FORMAT = 4;

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

interface Header {
  format: number;
  engine: string;
  exact: boolean;
  reason: string | null;
  compiled: boolean;
  root: number;
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
    partSources: form.partSources,
    conflict: form.conflict,
    analysis: form.analysis,
    lengths: ARRAYS.map((name) => form[name].length),
  };
  const text = new TextEncoder().encode(JSON.stringify(header));
  const start = align(4 + text.length);
  const arrays = new Uint8Array(ARRAYS.reduce((sum, name) => sum + form[name].length * 4, 0));
  const arraysView = new DataView(arrays.buffer);
  let at = 0;
  for (const name of ARRAYS) {
    for (const value of form[name]) {
      arraysView.setInt32(at, value, true);
      at += 4;
    }
  }
  const deflated = deflateSync(arrays, { level: constants.Z_BEST_SPEED });
  const bytes = new Uint8Array(start + deflated.byteLength);
  new DataView(bytes.buffer).setUint32(0, text.length, true);
  bytes.set(text, 4);
  bytes.set(deflated, start);
  return bytes;
}

/** The stored form, or undefined when it was built by another engine version or format (recompile). */
export function deserializeConsistency(bytes: Uint8Array): ConsistencyForm | undefined {
  let form: ConsistencyForm;
  try {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const length = view.getUint32(0, true);
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length))) as Header;
    if (header.format < 2 || header.format > CONSISTENCY_FORMAT) return undefined;
    if (header.engine !== ENGINE_VERSION) return undefined;
    const start = align(4 + length);
    // Formats 2 and 3 stored the arrays raw; 4 deflates them.
    const body = header.format >= 4 ? inflateSync(bytes.subarray(start)) : bytes.subarray(start);
    const bodyView = new DataView(body.buffer, body.byteOffset, body.byteLength);
    let at = 0;
    const arrays: Record<string, Int32Array> = {};
    ARRAYS.forEach((name, i) => {
      const array = new Int32Array(header.lengths[i]);
      for (let k = 0; k < array.length; k++, at += 4) array[k] = bodyView.getInt32(at, true);
      arrays[name] = array;
    });
    if (at !== body.byteLength) return undefined;
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
    };
  } catch {
    return undefined;
  }
  prepareForm(form); // what every evaluation reads, once per version (prepared.ts)
  return form;
}

function align(offset: number): number {
  return (offset + 3) & ~3;
}

/** Format 2 stored the bound of an inexact form as `configurations`: moved to its own member. */
function honestCount(analysis: ModelAnalysis): ModelAnalysis {
  if (analysis.exact || analysis.configurations === null) return analysis;
  return { ...analysis, configurations: null, configurations_at_most: analysis.configurations };
}
