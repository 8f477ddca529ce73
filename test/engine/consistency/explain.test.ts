/**
 * explainConflict (QuickXplain writing candidates into one restriction array) against
 * the generic quickXplain with a fresh restriction array per check: the same conflict
 * on random small models and random restrictions, for every value of every layer; with
 * consistent restrictions (answers), the same conflict searched in the value's segment.
 */
import { describe, expect, it } from 'vitest';
import { explainConflict, type Restriction } from '../../../src/engine/consistency/explain.js';
import type { ConsistencyForm } from '../../../src/engine/consistency/form.js';
import { freeAssignment, isConsistent } from '../../../src/engine/consistency/query.js';
import { quickXplain } from '../../../src/engine/consistency/quickxplain.js';
import { compileDocument } from '../../../src/engine/work.js';
import { generateTableModel } from '../../../bench/generate-table-model.js';
import { prng, randomModel } from './random-model.js';

/** One restriction per question: a value for a single layer, some layers of a multi_choice. */
function randomRestrictions(form: ConsistencyForm, random: () => number): Restriction[] {
  const list: Restriction[] = [];
  for (let q = 0; q < form.firstLayer.length; q++) {
    const first = form.firstLayer[q];
    if (first < 0 || random() < 0.4) continue;
    const layers: number[] = [];
    const values: number[] = [];
    for (let l = first; l < first + form.layerCount[q]; l++) {
      if (form.layerCount[q] > 1 && random() < 0.5) continue;
      layers.push(l);
      values.push(Math.floor(random() * form.domain[l]));
    }
    if (layers.length > 0) list.push({ layers, values });
  }
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

/** Generic QuickXplain over the candidates without their restriction of `layer`. */
function reference(
  form: ConsistencyForm,
  candidates: readonly Restriction[],
  layer: number,
  value: number,
): number[] | undefined {
  const trimmed = candidates
    .map((candidate, index) => {
      const keep = candidate.layers.flatMap((l, i) => (l === layer ? [] : [i]));
      return {
        index,
        layers: keep.map((i) => candidate.layers[i]),
        values: keep.map((i) => candidate.values[i]),
      };
    })
    .filter((candidate) => candidate.layers.length > 0);
  const consistent = (set: ReadonlyArray<(typeof trimmed)[number]>): boolean => {
    const fixed = freeAssignment(form);
    for (const unit of set)
      for (let i = 0; i < unit.layers.length; i++) fixed[unit.layers[i]] = unit.values[i];
    fixed[layer] = value;
    return isConsistent(form, fixed);
  };
  return quickXplain(trimmed, consistent)?.map((unit) => unit.index);
}

/** Random restrictions kept in turn while they still have a completion together (answers). */
function consistentRestrictions(form: ConsistencyForm, random: () => number): Restriction[] {
  const fixed = freeAssignment(form);
  const kept: Restriction[] = [];
  for (const candidate of randomRestrictions(form, random)) {
    const before = fixed.slice();
    candidate.layers.forEach((l, i) => (fixed[l] = candidate.values[i]));
    if (isConsistent(form, fixed)) kept.push(candidate);
    else fixed.set(before);
  }
  return kept;
}

function compare(
  form: ConsistencyForm,
  random: () => number,
  context: string,
  answers = false,
): number {
  const candidates = answers
    ? consistentRestrictions(form, random)
    : randomRestrictions(form, random);
  let conflicts = 0;
  for (let layer = 0; layer < form.domain.length; layer++) {
    for (let value = 0; value < form.domain[layer]; value++) {
      const fixed = freeAssignment(form);
      fixed[layer] = value;
      const found = explainConflict(form, candidates, fixed, { keep: layer });
      const expected = reference(form, candidates, layer, value);
      const at = `${context} layer ${layer} value ${value}`;
      // Only the trimmed candidates can be in the reference's answer; same indices.
      expect(found, at).toEqual(expected);
      expect(
        [...fixed].filter((f, l) => l !== layer && f >= 0),
        at,
      ).toEqual([]);
      // Consistent candidates: the conflict is in the value's segment, same answer.
      if (answers)
        expect(explainConflict(form, candidates, fixed, { keep: layer, focus: layer }), at).toEqual(
          expected,
        );
      if (expected !== undefined && expected.length > 0) conflicts++;
    }
  }
  return conflicts;
}

describe('explainConflict', () => {
  it('gives QuickXplain’s conflict for every value on random small models', () => {
    let conflicts = 0;
    for (let seed = 1; seed <= 120; seed++) {
      const random = prng(seed);
      const compiled = compileDocument(randomModel(random).document);
      if (!compiled.ok) continue;
      for (let round = 0; round < 4; round++)
        conflicts += compare(compiled.model.consistency, random, `seed ${seed}`, round === 3);
    }
    expect(conflicts).toBeGreaterThan(200);
  }, 120_000);

  it('gives QuickXplain’s conflict on a table model (long edges, a wide table)', () => {
    const compiled = compileDocument(generateTableModel(24, 5, 300, 3));
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
    const random = prng(9);
    let conflicts = 0;
    for (let round = 0; round < 6; round++)
      conflicts += compare(compiled.model.consistency, random, `round ${round}`, round >= 3);
    expect(conflicts).toBeGreaterThan(20);
  }, 120_000);
});
