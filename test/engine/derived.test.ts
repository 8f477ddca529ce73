/**
 * docs/adr/0124: what evaluations derive (the prepared form, rule mentions, shared line
 * parts, the pooled context) lives on the object it derives from, non-enumerable, so it is
 * never stored, transferred or copied with the model.
 */
import { Deserializer } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { serializeConsistency } from '../../src/engine/work.js';
import { toTransferable } from '../../src/engine/transfer.js';
import { compileOk, doorDocument, evaluate, evaluationJson, windowDocument } from './helpers.js';

/**
 * The values a transfer holds, not its bytes: V8 writes the same number as an int32 or as a
 * double depending on how the object it was read from stores it, and a model's objects share
 * their hidden classes with every other object built alike in the process (other test files
 * too), so the bytes of an unchanged model may differ in that alone.
 */
function transferredValues(bytes: Uint8Array): unknown[] {
  const deserializer = new Deserializer(bytes);
  deserializer.readHeader();
  const values: unknown[] = [];
  for (let i = 0; i < 5; i++) values.push(deserializer.readValue());
  return values;
}

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
      expect(transferredValues(toTransferable(model))).toEqual(transferredValues(transferred));
      // A spread copy derives its own state and answers the same.
      const copy = { ...model, consistency: { ...model.consistency } };
      expect(Object.getOwnPropertySymbols(copy)).toEqual([]);
      expect(evaluationJson(evaluate(copy, { width: 1200, height: 1400 }))).toBe(first);
      expect(Object.getOwnPropertySymbols(model).length).toBeGreaterThan(0);
    }
  });
});
