/**
 * docs/adr/0124: what evaluations derive (the prepared form, rule mentions, shared line
 * parts, the pooled context) lives on the object it derives from, non-enumerable, so it is
 * never stored, transferred or copied with the model.
 */
import { describe, expect, it } from 'vitest';
import { serializeConsistency } from '../../src/engine/work.js';
import { toTransferable } from '../../src/engine/transfer.js';
import { compileOk, doorDocument, evaluate, evaluationJson, windowDocument } from './helpers.js';

describe('derived state kept on its owner', () => {
  it('evaluating a model changes neither its members, its stored form nor its transfer bytes', () => {
    for (const document of [windowDocument(), doorDocument()]) {
      const model = compileOk(document);
      const keys = Object.keys(model).sort();
      const formKeys = Object.keys(model.consistency).sort();
      const stored = serializeConsistency(model.consistency);
      const transferred = toTransferable(model);
      const first = evaluationJson(evaluate(model, { width: 1200, height: 1400 }));
      evaluationJson(evaluate(model, {}, { languageCode: 'de' }));
      expect(Object.keys(model).sort()).toEqual(keys);
      expect(Object.keys(model.consistency).sort()).toEqual(formKeys);
      expect(serializeConsistency(model.consistency)).toEqual(stored);
      expect(toTransferable(model)).toEqual(transferred);
      // A spread copy derives its own state and answers the same.
      const copy = { ...model, consistency: { ...model.consistency } };
      expect(Object.getOwnPropertySymbols(copy)).toEqual([]);
      expect(evaluationJson(evaluate(copy, { width: 1200, height: 1400 }))).toBe(first);
      expect(Object.getOwnPropertySymbols(model).length).toBeGreaterThan(0);
    }
  });
});
