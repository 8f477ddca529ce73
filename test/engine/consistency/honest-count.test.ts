/**
 * MODEL_FORMAT.md "Consistency": `configurations` only when exact; a bound goes in
 * `configurations_at_most` (issue #28, part 3).
 */
import { describe, expect, it } from 'vitest';
import { compileDocument } from '../../../src/engine/index.js';
import { deserializeConsistency, serializeConsistency } from '../../../src/engine/runtime.js';
import { ModelAnalysisDto } from '../../../src/models/dto/model-analysis.dto.js';
import { choice, compileOk, model } from '../helpers.js';

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
    const old = serializeConsistency({ ...form, analysis: { ...rest, configurations: bound! } });
    // Rewrite the header's format number (the JSON header follows a u32 length).
    const length = new DataView(old.buffer).getUint32(0, true);
    const header = new TextDecoder().decode(old.subarray(4, 4 + length));
    const patched = new TextEncoder().encode(header.replace('"format":3', '"format":2'));
    expect(patched.length).toBe(length);
    old.set(patched, 4);
    const back = deserializeConsistency(old);
    expect(back?.analysis.configurations).toBeNull();
    expect(back?.analysis.configurations_at_most).toBe('4');
    // An exact stored form of format 2 keeps its count.
    expect(
      deserializeConsistency(serializeConsistency(compileOk(differ()).consistency))?.analysis
        .configurations,
    ).toBe('2');
  });
});
