/**
 * tools/dimacs-to-model.mjs: a CNF formula converted into required booleans and clause
 * rules has exactly the formula's models as configurations. Counts of random small
 * formulas against brute force, and bench/count-cnf.ts (the benchmark's independent
 * counter) against the same brute force.
 */
import { describe, expect, it } from 'vitest';
import { countModels, parseCnf } from '../../../bench/count-cnf.js';
import { compileDocument } from '../../../src/engine/work.js';
import { dimacsToModel } from '../../../tools/dimacs-to-model.mjs';
import { prng } from '../../support/prng.js';

function bruteForce(variables: number, clauses: readonly (readonly number[])[]): bigint {
  let models = 0n;
  for (let mask = 0; mask < 2 ** variables; mask++) {
    const holds = (literal: number) =>
      ((mask >> (Math.abs(literal) - 1)) & 1) === (literal > 0 ? 1 : 0);
    if (clauses.every((clause) => clause.some(holds))) models++;
  }
  return models;
}

/** A random CNF: a feature tree (child implies parent), or-groups, cross-tree clauses. */
function randomCnf(random: () => number): string {
  const variables = 3 + Math.floor(random() * 10);
  const clauses: number[][] = [];
  for (let v = 2; v <= variables; v++) {
    const parent = 1 + Math.floor(random() * (v - 1));
    clauses.push([-v, parent]);
  }
  const extra = Math.floor(random() * 8);
  for (let c = 0; c < extra; c++) {
    const width = 1 + Math.floor(random() * 4);
    clauses.push(
      Array.from({ length: width }, () => {
        const v = 1 + Math.floor(random() * variables);
        return random() < 0.5 ? v : -v;
      }),
    );
  }
  const lines = [`c 1 Root`, `c 2 root`, `p cnf ${variables} ${clauses.length}`];
  for (const clause of clauses) lines.push(`${clause.join(' ')} 0`);
  return lines.join('\n');
}

describe('DIMACS CNF → clause rules', () => {
  it('200 random formulas: the count is the number of models (brute force, and the bench counter)', () => {
    let unsatisfiable = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const text = randomCnf(prng(seed));
      const { variables, clauses } = parseCnf(text);
      const expected = bruteForce(variables, clauses);
      expect(countModels(variables, clauses), `seed ${seed}`).toBe(expected);
      const converted = dimacsToModel(text, { name: `seed ${seed}` });
      const compiled = compileDocument(converted.document);
      if (expected === 0n) {
        unsatisfiable++;
        expect(compiled.ok, `seed ${seed}`).toBe(false);
        continue;
      }
      expect(compiled.ok, `seed ${seed}`).toBe(true);
      if (!compiled.ok) continue;
      expect(compiled.model.consistency.analysis.configurations, `seed ${seed}`).toBe(
        String(expected),
      );
    }
    expect(unsatisfiable).toBeGreaterThan(0);
  });

  it('keys from the names, unique and valid; tautologies and repeated literals left out', () => {
    const converted = dimacsToModel(
      [
        'c 1 Root',
        'c 2 root',
        'c 3 in',
        'c 4 9lives',
        'p cnf 5 3',
        '1 0',
        '-2 3 3 0',
        '4 -4 0',
      ].join('\n'),
    );
    expect(converted.document.questions.map((q) => (q as { key: string }).key)).toEqual([
      'root',
      'root_2',
      'in_3',
      'f_9lives',
      'f5',
    ]);
    expect(converted.document.rules).toEqual([
      { key: 'c1', clause: ['root'] },
      { key: 'c2', clause: ['!root_2', 'in_3'] },
    ]);
    expect(converted.skipped).toBe(1);
    expect(compileDocument(converted.document).ok).toBe(true);
    expect(() => dimacsToModel('p cnf 1 1\n0\n')).toThrow(/empty/);
  });
});
