/**
 * Valid domains and counts segment by segment (query.ts `supports`, segment-pass.ts,
 * segment-cache.ts) against one pass over the whole diagram (the algorithm they
 * replaced, kept here as the reference): the same supported values and the same count
 * under random restrictions — consistent or not, memoized or not — on random small
 * models and on table models with many segments and counts past 2^53.
 */
import { describe, expect, it } from 'vitest';
import type { ConsistencyForm } from '../../../src/engine/consistency/form.js';
import { compatibleWith, freeAssignment, supports } from '../../../src/engine/consistency/query.js';
import { segmentsOf } from '../../../src/engine/consistency/prepared.js';
import { compileDocument } from '../../../src/engine/work.js';
import { generateTableModel } from '../../../bench/generate-table-model.js';
import { prng, randomModel } from './random-model.js';

const FALSE = 0;
const TRUE = 1;

/** Whole diagram: per node the BigInt count of paths to TRUE under the restrictions. */
function reference(
  form: ConsistencyForm,
  fixed: Int32Array,
): { supported: number[]; count: bigint } {
  const { nodeLayer, kidStart, kids, domain, valueBase, root } = form;
  const layers = domain.length;
  const free = (from: number, to: number): bigint => {
    let product = 1n;
    for (let l = from; l < to; l++) product *= BigInt(fixed[l] >= 0 ? 1 : domain[l]);
    return product;
  };
  const supported = new Array<number>(valueBase[layers]).fill(0);
  if (root <= TRUE)
    return { supported: supported.fill(root), count: root === TRUE ? free(0, layers) : 0n };
  const next = (child: number): number => (child === TRUE ? layers : nodeLayer[child]);
  const count = new Array<bigint>(nodeLayer.length).fill(0n);
  count[TRUE] = 1n;
  for (let id = nodeLayer.length - 1; id > TRUE; id--) {
    const layer = nodeLayer[id];
    for (let v = 0; v < domain[layer]; v++) {
      if (fixed[layer] >= 0 && fixed[layer] !== v) continue;
      const child = kids[kidStart[id] + v];
      if (child !== FALSE) count[id] += count[child] * free(layer + 1, next(child));
    }
  }
  const reach = new Uint8Array(nodeLayer.length);
  reach[root] = 1;
  const open = new Int32Array(layers + 1);
  if (count[root] > 0n) {
    open[0]++;
    open[nodeLayer[root]]--;
  }
  for (let id = TRUE + 1; id < nodeLayer.length; id++) {
    if (reach[id] === 0) continue;
    const layer = nodeLayer[id];
    for (let v = 0; v < domain[layer]; v++) {
      const child = kids[kidStart[id] + v];
      if (child === FALSE) continue;
      const allowed = fixed[layer] < 0 || fixed[layer] === v;
      if (allowed && child > TRUE) reach[child] = 1;
      if (count[child] === 0n) continue;
      supported[valueBase[layer] + v] = 1;
      if (allowed && next(child) > layer + 1) {
        open[layer + 1]++;
        open[next(child)]--;
      }
    }
  }
  for (let layer = 0, depth = 0; layer < layers; layer++) {
    depth += open[layer];
    if (depth > 0) supported.fill(1, valueBase[layer], valueBase[layer + 1]);
  }
  return { supported, count: count[root] * free(0, nodeLayer[root]) };
}

function randomFixed(form: ConsistencyForm, random: () => number, share: number): Int32Array {
  const fixed = freeAssignment(form);
  for (let l = 0; l < fixed.length; l++)
    if (random() < share) fixed[l] = Math.floor(random() * form.domain[l]);
  return fixed;
}

function compare(form: ConsistencyForm, fixed: Int32Array, at: string): void {
  const expected = reference(form, fixed);
  const found = supports(form, fixed);
  expect([...found.supported], at).toEqual(expected.supported);
  expect(found.consistent, at).toBe(expected.count > 0n);
  expect(found.configurations(), at).toBe(String(expected.count));
}

describe('valid domains segment by segment', () => {
  it('match one pass over the whole diagram on random small models', () => {
    for (let seed = 1; seed <= 150; seed++) {
      const random = prng(seed);
      const compiled = compileDocument(randomModel(random).document);
      if (!compiled.ok) continue;
      const form = compiled.model.consistency;
      for (let round = 0; round < 6; round++)
        compare(form, randomFixed(form, random, round / 6), `seed ${seed} round ${round}`);
    }
  }, 60_000);

  it('match it on table models (many segments, memoized segments, counts past 2^53)', () => {
    const compiled = compileDocument(generateTableModel(60, 8, 2_000, 5));
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
    const form = compiled.model.consistency;
    expect(segmentsOf(form).fromLayer.length).toBeGreaterThan(5);
    const random = prng(3);
    for (let round = 0; round < 30; round++) {
      const fixed = randomFixed(form, random, (round % 10) / 30);
      compare(form, fixed, `round ${round}`);
      compare(form, fixed, `round ${round} again (memoized)`);
    }
    expect(supports(form, freeAssignment(form)).configurations().length).toBeGreaterThan(16);
  }, 60_000);

  it('counts a segment past 2^53 exactly (a chain of "different from the next" tables)', () => {
    const keys = Array.from({ length: 30 }, (_, i) => `q${i}`);
    const options = ['a', 'b', 'c', 'd', 'e'];
    const rows = options.flatMap((a) => options.filter((b) => b !== a).map((b) => [a, b]));
    const compiled = compileDocument({
      general: { name: 'chain' },
      questions: keys.map((key) => ({
        key,
        type: 'choice',
        label: key,
        options: options.map((o) => ({ key: o, label: o })),
      })),
      rules: keys.slice(1).map((key, i) => ({
        key: `t${i}`,
        message: 'different',
        allowed: { columns: [keys[i], key], rows },
      })),
    });
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
    const form = compiled.model.consistency;
    const random = prng(5);
    for (let round = 0; round < 20; round++)
      compare(form, randomFixed(form, random, round / 40), `round ${round}`);
    // Clicks on it: counts past 2^53 kept below the changed layer, and recounted above it.
    const fixed = freeAssignment(form);
    for (let step = 0; step < 40; step++) {
      const layer = Math.floor(random() * fixed.length);
      fixed[layer] = random() < 0.3 ? -1 : Math.floor(random() * form.domain[layer]);
      compare(form, fixed, `click ${step}`);
    }
    // Every question unanswered: no value, or one of five different from its neighbour's.
    expect(BigInt(supports(form, freeAssignment(form)).configurations())).toBeGreaterThan(
      2n ** 53n,
    );
  });

  it('match it along clicks (one restriction changed at a time: the passes keep the counts below it)', () => {
    // A walk sets, changes or frees one layer per step; every few steps a pairwise row
    // (a pass under another restriction) comes between, as explanations do.
    const walk = (form: ConsistencyForm, random: () => number, steps: number, at: string) => {
      const fixed = freeAssignment(form);
      for (let step = 0; step < steps; step++) {
        const layer = Math.floor(random() * fixed.length);
        fixed[layer] = random() < 0.2 ? -1 : Math.floor(random() * form.domain[layer]);
        compare(form, fixed, `${at} step ${step}`);
        if (step % 7 === 3) compatibleWith(form, layer, Math.floor(random() * form.domain[layer]));
      }
    };
    for (let seed = 1; seed <= 60; seed++) {
      const random = prng(1000 + seed);
      const compiled = compileDocument(randomModel(random).document);
      if (compiled.ok) walk(compiled.model.consistency, random, 25, `seed ${seed}`);
    }
    const table = compileDocument(generateTableModel(40, 8, 1_500, 7));
    if (!table.ok) throw new Error(JSON.stringify(table.problems));
    walk(table.model.consistency, prng(8), 60, 'table model');
  }, 60_000);

  it('gives the pairwise relation of one value fixed alone', () => {
    const compiled = compileDocument(generateTableModel(30, 6, 600, 11));
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
    const form = compiled.model.consistency;
    for (let layer = 0; layer < form.domain.length; layer++) {
      for (let value = 0; value < form.domain[layer]; value++) {
        const fixed = freeAssignment(form);
        fixed[layer] = value;
        const { supported, count } = reference(form, fixed);
        const expected = count > 0n ? supported : supported.map(() => 0);
        expect([...compatibleWith(form, layer, value)], `layer ${layer} value ${value}`).toEqual(
          expected,
        );
      }
    }
  }, 60_000);
});
