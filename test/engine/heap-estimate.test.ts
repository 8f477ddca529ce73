/**
 * A cache miss caches the model its worker compiled, under `modelHeapBytes` read from the
 * model itself (docs/adr/0201), where it used to serialise and revive it to measure it.
 * The estimate must not depend on that path, and must bound what the model is made of:
 * its transferable bytes (transfer.ts, what V8's serializer writes of every object,
 * string, typed array and expression source) are a lower bound of its heap.
 */
import { describe, expect, it } from 'vitest';
import { generateModel } from '../../tools/gen-model.mjs';
import { derivedCacheBytes } from '../../src/engine/consistency/form.js';
import { pairMatrixBytes } from '../../src/engine/consistency/prepared.js';
import { sharedPartBytes } from '../../src/engine/evaluate/shared-parts.js';
import { modelHeapBytes, reviveModel, toTransferable } from '../../src/engine/work.js';
import { compileOk, doorDocument, model, windowDocument } from './helpers.js';

/**
 * The model as held (the estimate without the caches it may grow in use) is at most this
 * many times its transferable bytes: 2.7–7.3× on the models below. V8 objects carry headers
 * and 8-byte slots where the serializer writes a tag and a varint, and each expression is
 * counted as its cel-js AST and closures, not as its source text.
 */
const MAX_FACTOR = 8;

const catalog = model({
  questions: Array.from({ length: 300 }, (_, i) => ({
    key: `q${i}`,
    type: 'choice',
    label: `Question ${i} with a longer label`,
    options: ['a', 'b', 'c'].map((key) => ({ key, label: `${key.toUpperCase()} ${i}` })),
  })),
});

const MODELS: Record<string, unknown> = {
  'window.yaml': windowDocument(),
  'door.yaml': doorDocument(),
  'a 300-question catalog': catalog,
  'a generated 100-question model': generateModel(100).model,
  'a generated 1,000-question model': generateModel(1000).model,
};

describe('the heap estimate of a compiled model (modelHeapBytes)', () => {
  for (const [name, document] of Object.entries(MODELS)) {
    it(`${name}: the same compiled here or revived, and within ${MAX_FACTOR}× its transferable bytes`, () => {
      const compiled = compileOk(document);
      const transferable = toTransferable(compiled);
      const estimate = modelHeapBytes(compiled);
      const revived = reviveModel(transferable);
      expect(revived.bytes).toBe(estimate);
      expect(modelHeapBytes(revived.model)).toBe(estimate);

      const form = compiled.consistency;
      const inUse = derivedCacheBytes(form) + pairMatrixBytes(form) + sharedPartBytes(compiled);
      const held = estimate - inUse;
      expect(held).toBeGreaterThanOrEqual(transferable.byteLength);
      expect(held).toBeLessThanOrEqual(MAX_FACTOR * transferable.byteLength);
    });
  }
});
