import { describe, expect, it } from 'vitest';
import { CompiledModelCache } from '../../src/engine/work.js';
import {
  derivedCacheBytes,
  PAIR_CACHE_BYTES,
  SEGMENT_CACHE_BYTES,
} from '../../src/engine/consistency/form.js';
import { reviveModel, toTransferable } from '../../src/engine/transfer.js';
import {
  compileOk,
  doorDocument,
  evaluate,
  evaluationJson,
  model,
  windowDocument,
} from './helpers.js';
import { pairMatrixBytes } from '../../src/engine/consistency/prepared.js';

describe('transferable compiled models', () => {
  it('a revived model gives the same lines as the compiled one', () => {
    for (const document of [windowDocument(), doorDocument()]) {
      const compiled = compileOk(document);
      const { model: revived, bytes } = reviveModel(toTransferable(compiled));
      expect(bytes).toBeGreaterThan(10_000);
      for (const answers of [{}, { width: 1200, height: 1400 }, { width: 'x' }]) {
        expect(evaluationJson(evaluate(revived, answers))).toBe(
          evaluationJson(evaluate(compiled, answers)),
        );
      }
    }
  });

  it('long arrays at any depth (a text catalog) travel in slices and arrive whole', () => {
    const questions = Array.from({ length: 300 }, (_, i) => ({
      key: `q${i}`,
      type: 'choice',
      label: `Q${i}`,
      options: [
        { key: 'a', label: `A${i}` },
        { key: 'b', label: `B${i}` },
      ],
    }));
    const compiled = compileOk(model({ questions }));
    const revived = reviveModel(toTransferable(compiled)).model;
    expect(revived.text).toEqual(compiled.text);
    expect(revived.questions).toHaveLength(300);
    const answers = { q0: { values: ['b'] }, q299: { values: ['a'] } };
    expect(evaluationJson(evaluate(revived, answers))).toBe(
      evaluationJson(evaluate(compiled, answers)),
    );
  });

  it('extensions travel verbatim, even when they look like encoded values', () => {
    const document = { ...model(), 'x-data': { '\u0000expression': 0, '\u0000money': '1' } };
    const { model: revived } = reviveModel(toTransferable(compileOk(document)));
    expect(revived.extensions).toEqual({ 'x-data': { '\u0000expression': 0, '\u0000money': '1' } });
  });
});

describe('CompiledModelCache by bytes', () => {
  const small = compileOk(model());

  it('evicts superseded versions first, then the least recently used', () => {
    const cache = new CompiledModelCache(100, 300);
    cache.set('1:1', small, { bytes: 100, group: '1', version: 1 });
    cache.set('2:1', small, { bytes: 100, group: '2', version: 1 });
    cache.get('1:1');
    cache.set('1:2', small, { bytes: 100, group: '1', version: 2 });
    expect(cache.bytes).toBe(300);
    cache.set('3:1', small, { bytes: 100, group: '3', version: 1 });
    // 1:1 was used more recently than 2:1, but version 2 superseded it.
    expect(cache.get('1:1')).toBeUndefined();
    expect(cache.get('2:1')).toBe(small);
    cache.set('4:1', small, { bytes: 100, group: '4', version: 1 });
    expect(cache.get('1:2')).toBeUndefined();
    expect(cache.bytes).toBe(300);
  });

  it('does not keep a model larger than the whole cache', () => {
    const cache = new CompiledModelCache(100, 300);
    cache.set('big', small, { bytes: 301 });
    expect(cache.get('big')).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });
});

describe('the bound of a form’s derived caches', () => {
  it('is a few kilobytes for a small model and counts in the revived bytes', () => {
    const compiled = compileOk(windowDocument());
    const bound = derivedCacheBytes(compiled.consistency);
    const values = compiled.consistency.valueBase[compiled.consistency.valueBase.length - 1];
    // The rows computed on use; the prepared pairwise matrices count as built.
    expect(bound).toBe(values * (values + 100));
    const matrices = pairMatrixBytes(compiled.consistency);
    expect(matrices).toBeGreaterThan(0);
    expect(matrices).toBeLessThanOrEqual(Math.ceil((values * values) / 8) * 4);
    expect(bound + matrices).toBeLessThan(1024 * 1024);
    const { bytes } = reviveModel(toTransferable(compiled));
    expect(bytes).toBeGreaterThan(bound + matrices);
  });

  it('is both caches’ caps for a large diagram', () => {
    const large = {
      ...compileOk(windowDocument()).consistency,
      compiled: true,
      valueBase: Int32Array.of(0, 20_000),
      kids: new Int32Array(5_000),
    };
    expect(derivedCacheBytes(large)).toBe(PAIR_CACHE_BYTES + SEGMENT_CACHE_BYTES);
    expect(derivedCacheBytes({ ...large, compiled: false })).toBe(PAIR_CACHE_BYTES);
  });
});
