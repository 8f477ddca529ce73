/**
 * The prepared form's relations (live values, pairwise matrices; prepared.ts) travel with
 * the form, to another worker (transfer.ts) and into the database (serialize.ts format
 * 5), instead of being rebuilt where the form arrives (docs/adr/0123). What arrives must
 * be what the receiver would have built, and a form stored before format 5 still rebuilds
 * them.
 */
import { describe, expect, it } from 'vitest';
import {
  compileDocument,
  deserializeConsistency,
  serializeConsistency,
} from '../../../src/engine/work.js';
import type { ConsistencyForm } from '../../../src/engine/consistency/form.js';
import { formRelations, prepareForm } from '../../../src/engine/consistency/prepared.js';
import { reviveModel, toTransferable } from '../../../src/engine/transfer.js';
import { evaluate, evaluationJson } from '../helpers.js';
import { prng, randomModel } from './random-model.js';

/** The relations a receiver builds itself: from a copy of the form's arrays. */
function rebuiltRelations(form: ConsistencyForm) {
  return formRelations({ ...form, kids: form.kids.slice() });
}

describe('relations stored and transferred with the consistency form', () => {
  it('60 random models: revived and loaded forms carry the relations a rebuild gives', () => {
    let compiledForms = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const { document } = randomModel(prng(seed));
      const compiled = compileDocument(document);
      if (!compiled.ok) continue;
      const form = compiled.model.consistency;
      const expected = rebuiltRelations(form);
      if (form.compiled && form.root > 1) compiledForms++;

      const loaded = deserializeConsistency(serializeConsistency(form));
      expect(loaded, `seed ${seed}`).toBeDefined();
      expect(formRelations(loaded!), `seed ${seed} stored`).toEqual(expected);

      const revived = reviveModel(toTransferable(compiled.model)).model;
      expect(formRelations(revived.consistency), `seed ${seed} transferred`).toEqual(expected);
      expect(evaluationJson(evaluate(revived, {})), `seed ${seed} evaluated`).toBe(
        evaluationJson(evaluate(compiled.model, {})),
      );
    }
    expect(compiledForms).toBeGreaterThan(20);
  });

  it('a form whose relations do not fit its segments rebuilds them', () => {
    const { document } = randomModel(prng(3));
    const compiled = compileDocument(document);
    if (!compiled.ok) throw new Error('seed 3 compiles');
    const form = compiled.model.consistency;
    const expected = rebuiltRelations(form);
    const copy = { ...form, kids: form.kids.slice() };
    const wrong = { ...expected, pairStart: new Int32Array(expected.pairStart.length + 1) };
    prepareForm(copy, wrong);
    expect(formRelations(copy)).toEqual(expected);
  });
});
