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
import {
  NEAREST_TUNING,
  nearestScratchBytes,
  searchedNearest,
} from '../../src/engine/consistency/nearest-by-search.js';
import { prepareForm } from '../../src/engine/consistency/prepared.js';
import { pairMatrixBytes } from '../../src/engine/consistency/prepared.js';
import { priceBoundsBytes } from '../../src/engine/consistency/segment-weights.js';
import { priceTerms } from '../../src/engine/evaluate/price-terms.js';
import { sharedPartBytes } from '../../src/engine/evaluate/shared-parts.js';
import { evaluate, modelHeapBytes, reviveModel, toTransferable } from '../../src/engine/work.js';
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
      const inUse =
        derivedCacheBytes(form) +
        pairMatrixBytes(form) +
        priceBoundsBytes(form) +
        nearestScratchBytes(form) +
        sharedPartBytes(compiled);
      const held = estimate - inUse;
      expect(held).toBeGreaterThanOrEqual(transferable.byteLength);
      expect(held).toBeLessThanOrEqual(MAX_FACTOR * transferable.byteLength);
    });
  }
});

/**
 * Bytes held by what the price bounds derive and keep on the price weights (the pass's
 * scratch and the kept segment results), at the layout costs priceBoundsBytes counts them:
 * typed arrays at their byte length, strings, Maps and objects with their headers.
 */
function keptOnWeights(weights: readonly Float64Array[], form: object): number {
  const seen = new Set<unknown>([form, ...weights]);
  let bytes = 0;
  const stack: unknown[] = weights.flatMap((w) =>
    Object.getOwnPropertySymbols(w).map((key) => (w as unknown as Record<symbol, unknown>)[key]),
  );
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'string') bytes += 24 + node.length;
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    if (ArrayBuffer.isView(node)) bytes += 96 + node.byteLength;
    else if (node instanceof Map) {
      bytes += 64 + 48 * node.size;
      for (const [key, value] of node) stack.push(key, value);
    } else {
      bytes += 48 + 16 * Object.keys(node).length;
      stack.push(...Object.values(node));
    }
  }
  return bytes;
}

/** 40 priced choices, each pair tied by a table: 20 segments that price bounds pass over. */
const pricedPairs = model({
  questions: Array.from({ length: 40 }, (_, i) => ({
    key: `p${i}`,
    type: 'choice',
    label: `Choice ${i}`,
    options: ['a', 'b', 'c', 'd'].map((key, o) => ({ key, label: key, price: `${o + i}.50` })),
  })),
  rules: Array.from({ length: 20 }, (_, i) => ({
    key: `t${i}`,
    allowed: {
      columns: [`p${2 * i}`, `p${2 * i + 1}`],
      rows: [
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'd'],
        ['d', 'a'],
        ['a', 'a'],
      ],
    },
    message: `Choices ${2 * i} and ${2 * i + 1} do not fit`,
  })),
});

describe('the price bounds in the estimate (priceBoundsBytes)', () => {
  it('counts up front what bounds queries keep on the model as it grows with each query', () => {
    const compiled = compileOk(pricedPairs);
    const form = compiled.consistency;
    const bound = priceBoundsBytes(form);
    expect(bound).toBeGreaterThan(0);
    const weights = priceTerms(compiled).weights;
    if (weights === undefined) throw new Error('the generated model has price weights');
    const all = [weights.lo, weights.hi, weights.negatedHi];
    const held = (): number =>
      keptOnWeights(all, form) + all.reduce((sum, w) => sum + 96 + w.byteLength, 0);
    const weightsOnly = held();
    expect(weightsOnly).toBeLessThan(bound);

    const choices = compiled.questions.filter((q) => q.options.length > 0);
    let random = 7;
    const next = (n: number): number => (random = (random * 48_271) % 2_147_483_647) % n;
    const sizes: number[] = [];
    for (let click = 0; click < 200; click++) {
      const answers: Record<string, { values: string[] }> = {};
      for (const question of choices)
        if (next(3) === 0)
          answers[question.key] = { values: [question.options[next(question.options.length)].key] };
      evaluate(compiled, { modelId: 1, versionNumber: 1, questions: answers });
      sizes.push(held());
    }
    // The first bounds query makes the scratch, later ones keep more segment results.
    expect(sizes[0]).toBeGreaterThan(weightsOnly);
    expect(sizes[sizes.length - 1]).toBeGreaterThan(sizes[0]);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(bound);
  });
});

/** Bytes held under the form's derived values of these descriptions (heap-estimate.ts layout). */
function derivedOn(
  form: object,
  descriptions: readonly string[],
  shared: readonly object[],
): number {
  const seen = new Set<unknown>([form, ...shared]);
  let bytes = 0;
  const stack: unknown[] = Object.getOwnPropertySymbols(form)
    .filter((key) => descriptions.includes(key.description ?? ''))
    .map((key) => (form as Record<symbol, unknown>)[key]);
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    if (ArrayBuffer.isView(node)) bytes += 96 + node.byteLength;
    else if (Array.isArray(node)) {
      bytes += 32 + 8 * node.length;
      stack.push(...(node as unknown[]));
    } else {
      bytes += 48 + 16 * Object.keys(node).length;
      stack.push(...Object.values(node));
    }
  }
  return bytes;
}

describe('the nearest configuration in the estimate (nearestScratchBytes)', () => {
  const searchOnly = NEAREST_TUNING;
  const passOnly = { unguidedWork: 0, forwardWork: Infinity, forwardShare: Infinity, listShare: 1 };
  it.each([
    ['the search', searchOnly],
    ['the bounded pass', passOnly],
  ] as const)('counts up front what %s keeps on the form', (_, tuning) => {
    const compiled = compileOk(pricedPairs);
    const form = compiled.consistency;
    const layers = form.domain.length;
    const bound = nearestScratchBytes(form, tuning);
    const price = Float64Array.from({ length: form.valueBase[layers] }, (_v, i) => i % 7);
    let random = 11;
    const next = (n: number): number => (random = (random * 48_271) % 2_147_483_647) % n;
    for (let query = 0; query < 50; query++) {
      const target = Int32Array.from(form.domain, (size) => (next(2) === 0 ? next(size) : -1));
      const fixed = new Int32Array(layers).fill(-1);
      const order = [...Array(layers).keys()].filter((layer) => target[layer] >= 0);
      searchedNearest(form, { target, fixed, price, order, maxPasses: 16 }, undefined, tuning);
    }
    // The completion checks' visit stamps are the prepared form's, counted with it.
    const held = derivedOn(
      form,
      ['nearest search scratch', 'least price below each node'],
      [prepareForm(form).visit],
    );
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThanOrEqual(bound);
  });
});
