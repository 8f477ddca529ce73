/**
 * MODEL_FORMAT.md "Consistency": `configurations` only when exact; a bound goes in
 * `configurations_at_most` (issue #28, part 3).
 */
import { deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  compileDocument,
  deserializeConsistency,
  serializeConsistency,
} from '../../../src/engine/work.js';
import { ModelAnalysisDto } from '../../../src/models/dto/model-analysis.dto.js';
import { choice, compileOk, model } from '../helpers.js';

/**
 * A stored form as an older format wrote it: the header with its format number rewritten
 * and without the relations' lengths, then the form's arrays without the relations (format
 * 5 appends them) and the DNNF's (format 6, empty for these forms), deflated from format 4
 * on, raw before (serialize.ts).
 */
function storedAsFormat(bytes: Uint8Array, format: 2 | 3 | 4): Uint8Array {
  const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length))) as {
    format: number;
    lengths: number[];
  };
  expect(header.format).toBe(6);
  header.format = format;
  // Format 6's three DNNF arrays (empty without one), then the relations: live, pairWords,
  // pairStart, pairBits.
  header.lengths = header.lengths.slice(0, -7);
  const words = header.lengths.reduce((sum, n) => sum + n, 0);
  const arrays = inflateSync(bytes.subarray((4 + length + 3) & ~3)).subarray(0, words * 4);
  const body = format >= 4 ? deflateSync(arrays) : arrays;
  const text = new TextEncoder().encode(JSON.stringify(header));
  const start = (4 + text.length + 3) & ~3;
  const old = new Uint8Array(start + body.byteLength);
  new DataView(old.buffer).setUint32(0, text.length, true);
  old.set(text, 4);
  old.set(body, start);
  return old;
}

/** a ≠ b over two required questions of two values: 2 configurations, 4 without the rule. */
const differ = () =>
  model({
    questions: [
      choice('a', ['x', 'y'], { required: true }),
      choice('b', ['x', 'y'], { required: true }),
    ],
    rules: [{ key: 'differ', message: 'm', assert: 'a != b' }],
  });

describe('the analysis counts only when exact', () => {
  it('exact: the count, no bound', () => {
    const { analysis } = compileOk(differ()).consistency;
    expect(analysis.exact).toBe(true);
    expect(analysis.configurations).toBe('2');
    expect(analysis).not.toHaveProperty('configurations_at_most');
    expect(ModelAnalysisDto.from(analysis).configurations).toBe('2');
    expect(ModelAnalysisDto.from(analysis)).not.toHaveProperty('configurations_at_most');
  });

  it('a part left out of the diagram: null, and the diagram count as the bound', () => {
    const result = compileDocument(differ(), { consistencyEnumeration: 3 });
    if (!result.ok) throw new Error('rejected');
    const { analysis } = result.model.consistency;
    expect(analysis.exact).toBe(false);
    expect(analysis.configurations).toBeNull();
    expect(analysis.configurations_at_most).toBe('4');
    const dto = ModelAnalysisDto.from(analysis);
    expect(dto).toMatchObject({ exact: false, configurations: null, configurations_at_most: '4' });
  });

  it('past the budget (propagation): null, and the product of the propagated domains', () => {
    const result = compileDocument(differ(), { consistencyMs: 0 });
    if (!result.ok) throw new Error('rejected');
    const { analysis } = result.model.consistency;
    expect(analysis.exact).toBe(false);
    expect(analysis.configurations).toBeNull();
    expect(analysis.configurations_at_most).toBe('4');
  });

  it('a stored form of format 2 is read with its bound moved out of `configurations`', () => {
    const result = compileDocument(differ(), { consistencyMs: 0 });
    if (!result.ok) throw new Error('rejected');
    const form = result.model.consistency;
    const { configurations_at_most: bound, ...rest } = form.analysis;
    const old = storedAsFormat(
      serializeConsistency({ ...form, analysis: { ...rest, configurations: bound! } }),
      2,
    );
    const back = deserializeConsistency(old);
    expect(back?.analysis.configurations).toBeNull();
    expect(back?.analysis.configurations_at_most).toBe('4');
    // An exact stored form of format 2 keeps its count.
    const exact = serializeConsistency(compileOk(differ()).consistency);
    expect(deserializeConsistency(storedAsFormat(exact, 2))?.analysis.configurations).toBe('2');
  });

  it('stored forms of formats 3 (raw) and 4 (deflated, no relations) are read as written', () => {
    const form = compileOk(differ()).consistency;
    for (const format of [3, 4] as const) {
      const back = deserializeConsistency(storedAsFormat(serializeConsistency(form), format));
      expect(back?.analysis).toEqual(form.analysis);
      expect(back?.kids).toEqual(form.kids);
      expect(back?.nodeLayer).toEqual(form.nodeLayer);
    }
  });
});
