/**
 * A click's pass keeps the counts of the layers below the deepest changed restriction
 * (segment-pass.ts, docs/adr/0212). Along random sequences of clicks — an answer set,
 * changed or freed, several answers moved at once as a pick does, a pass under another
 * restriction in between as a pairwise row is — every segment's result and supported
 * values must be those of a fresh scratch (nothing kept), and the whole diagram's those of
 * a brute-force count.
 */
import { describe, expect, it } from 'vitest';
import type { ConsistencyForm } from '../../../src/engine/consistency/form.js';
import { segmentsOf } from '../../../src/engine/consistency/prepared.js';
import { freeAssignment, supports } from '../../../src/engine/consistency/query.js';
import {
  bigCount,
  newPassScratch,
  type PassScratch,
  passSegment,
} from '../../../src/engine/consistency/segment-pass.js';
import { compileDocument } from '../../../src/engine/work.js';
import { generateTableModel } from '../../../bench/generate-table-model.js';
import { chainModel } from './chain-model.js';
import { prng, randomModel } from './random-model.js';

/** Every segment's result under `fixed` on `scratch`: supported values, consistency, count. */
function passAll(form: ConsistencyForm, fixed: Int32Array, scratch: PassScratch): string[] {
  const { segments } = scratch;
  return Array.from(segments.fromLayer, (from, s) => {
    const supported = new Uint8Array(form.valueBase[form.domain.length]);
    const result = passSegment(form, fixed, s, supported, scratch);
    const count =
      result.exact || !result.consistent
        ? String(result.count)
        : String(bigCount(form, fixed, s, scratch));
    const values = supported.slice(form.valueBase[from], form.valueBase[segments.toLayer[s]]);
    return `${result.consistent} ${count} ${values.join('')}`;
  });
}

/** The next restrictions: one answer set, changed or freed, or a few at once (a pick). */
function click(form: ConsistencyForm, fixed: Int32Array, random: () => number): void {
  const moves = random() < 0.3 ? 2 + Math.floor(random() * 4) : 1;
  for (let i = 0; i < moves; i++) {
    const layer = Math.floor(random() * fixed.length);
    fixed[layer] = random() < 0.25 ? -1 : Math.floor(random() * form.domain[layer]);
  }
}

function sequence(form: ConsistencyForm, random: () => number, steps: number, at: string): void {
  const segments = segmentsOf(form);
  const scratch = newPassScratch(form, segments);
  const fixed = freeAssignment(form);
  for (let step = 0; step < steps; step++) {
    click(form, fixed, random);
    const fresh = passAll(form, fixed, newPassScratch(form, segments));
    expect(passAll(form, fixed, scratch), `${at} step ${step}`).toEqual(fresh);
    fresh.forEach((result, s) =>
      expect(result.split(' ')[1], `${at} step ${step} segment ${s}`).toBe(
        String(segmentCount(form, fixed, s)),
      ),
    );
    if (random() < 0.3) {
      // A pairwise row: one value fixed alone.
      const other = freeAssignment(form);
      const layer = Math.floor(random() * fixed.length);
      other[layer] = Math.floor(random() * form.domain[layer]);
      passAll(form, other, scratch);
    }
  }
}

describe('a click recounts what its restrictions changed', () => {
  it('matches a fresh pass on random small models', () => {
    for (let seed = 1; seed <= 80; seed++) {
      const random = prng(5000 + seed);
      const compiled = compileDocument(randomModel(random).document);
      if (compiled.ok) sequence(compiled.model.consistency, random, 30, `seed ${seed}`);
    }
  }, 120_000);

  it('matches it on table models (many segments, counts past 2^53)', () => {
    for (const [questions, seed] of [
      [40, 7],
      [24, 9],
    ]) {
      const compiled = compileDocument(generateTableModel(questions, 8, 1_500, seed));
      if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
      sequence(compiled.model.consistency, prng(seed), 60, `table model ${questions}`);
    }
  }, 120_000);

  it('matches it on a chain of tables (one segment, its own count past 2^53)', () => {
    const compiled = compileDocument(chainModel(36, 6, prng(11)));
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
    const form = compiled.model.consistency;
    expect(segmentsOf(form).fromLayer.length).toBe(1);
    expect(segmentCount(form, freeAssignment(form), 0)).toBeGreaterThan(2n ** 60n);
    sequence(form, prng(12), 40, 'chain model');
  }, 120_000);

  it('matches the brute-force count along the engine’s own clicks', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const random = prng(7000 + seed);
      const compiled = compileDocument(randomModel(random).document);
      if (!compiled.ok) continue;
      const form = compiled.model.consistency;
      const fixed = freeAssignment(form);
      for (let step = 0; step < 20; step++) {
        click(form, fixed, random);
        const found = supports(form, fixed);
        const expected = bruteForce(form, fixed);
        expect(found.consistent, `seed ${seed} step ${step}`).toBe(expected.count > 0n);
        expect(found.configurations(), `seed ${seed} step ${step}`).toBe(String(expected.count));
        if (expected.count > 0n)
          expect([...found.supported], `seed ${seed} step ${step}`).toEqual(expected.supported);
      }
    }
  }, 120_000);
});

/**
 * Segment `s`'s paths under `fixed` in BigInt, every node of the segment summed bottom-up
 * (no kept counts, no doubles): the count passSegment and bigCount must give.
 */
function segmentCount(form: ConsistencyForm, fixed: Int32Array, s: number): bigint {
  const { domain, kids, kidStart, nodeLayer } = form;
  const segments = segmentsOf(form);
  const start = segments.startNode[s];
  const end = segments.endNode[s];
  const to = segments.toLayer[s];
  const paths = new Map<number, bigint>([[end, 1n]]);
  for (let id = (end === 1 ? nodeLayer.length : end) - 1; id >= start; id--) {
    const layer = nodeLayer[id];
    let total = 0n;
    for (let v = 0; v < domain[layer]; v++) {
      const child = kids[kidStart[id] + v];
      if (child === 0 || (fixed[layer] >= 0 && fixed[layer] !== v)) continue;
      let below = paths.get(child) ?? 0n;
      for (let skipped = layer + 1; skipped < (child === end ? to : nodeLayer[child]); skipped++)
        below *= BigInt(fixed[skipped] >= 0 ? 1 : domain[skipped]);
      total += below;
    }
    paths.set(id, total);
  }
  return paths.get(start) ?? 0n;
}

/**
 * Every assignment of the layers, checked against the diagram path by path: the count
 * under `fixed`, and per value whether some completion of the others' restrictions has it.
 */
function bruteForce(
  form: ConsistencyForm,
  fixed: Int32Array,
): { count: bigint; supported: number[] } {
  const { domain, valueBase, kids, kidStart, nodeLayer, root } = form;
  const layers = domain.length;
  const accepts = (values: number[]): boolean => {
    let node = root;
    while (node > 1) node = kids[kidStart[node] + values[nodeLayer[node]]];
    return node === 1;
  };
  const supported = new Array<number>(valueBase[layers]).fill(0);
  let count = 0n;
  const values = new Array<number>(layers).fill(0);
  const visit = (layer: number): void => {
    if (layer === layers) {
      if (!accepts(values)) return;
      const off = values.map((v, l) => (fixed[l] >= 0 && fixed[l] !== v ? l : -1));
      const wrong = off.filter((l) => l >= 0);
      if (wrong.length === 0) {
        count++;
        values.forEach((v, l) => (supported[valueBase[l] + v] = 1));
      } else if (wrong.length === 1) supported[valueBase[wrong[0]] + values[wrong[0]]] = 1;
      return;
    }
    for (let v = 0; v < domain[layer]; v++) {
      values[layer] = v;
      visit(layer + 1);
    }
  };
  visit(0);
  return { count, supported };
}
