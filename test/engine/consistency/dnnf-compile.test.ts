/**
 * The decision-DNNF compiler (dnnf-compile.ts) and its queries (dnnf-query.ts) against
 * brute force on random nogoods over small finite domains: the compiled form is smooth
 * and decomposable, and its count, consistency, valid domains ("the answers minus
 * itself") and closure equal the enumeration's under random restrictions.
 */
import { describe, expect, it } from 'vitest';
import { compileDnnf } from '../../../src/engine/consistency/dnnf-compile.js';
import { AND, type DnnfForm } from '../../../src/engine/consistency/dnnf-form.js';
import { DnnfQueries } from '../../../src/engine/consistency/dnnf-query.js';
import { valueBases } from '../../../src/engine/consistency/form.js';
import { BudgetExceeded } from '../../../src/engine/consistency/mdd-budget.js';
import { prng } from '../../support/prng.js';
import { assignments, bigIntCount, holds, randomProblem, wideProblem } from './random-nogoods.js';

const OPEN = { deadline: Infinity, bytes: 1e9, steps: 1e9 };

/** Layers each node's solutions mention (checks smoothness and decomposability on the way). */
function scopes(dnnf: DnnfForm): Array<Set<number> | undefined> {
  const { nodeLayer, kidStart, kids, root } = dnnf;
  const scope: Array<Set<number> | undefined> = [undefined, new Set()];
  for (let n = 2; n <= root; n++) {
    const here = new Set<number>();
    const kidScopes: Array<Set<number>> = [];
    for (let k = kidStart[n]; k < kidStart[n + 1]; k++) {
      expect(kids[k]).toBeLessThan(n);
      const s = scope[kids[k]];
      if (s !== undefined) kidScopes.push(s);
    }
    if (nodeLayer[n] === AND) {
      for (const s of kidScopes)
        for (const l of s) {
          expect(here.has(l), 'decomposable').toBe(false);
          here.add(l);
        }
    } else {
      for (const s of kidScopes) expect([...s].sort(), 'smooth').toEqual([...kidScopes[0]].sort());
      for (const l of kidScopes[0] ?? []) here.add(l);
      expect(here.has(nodeLayer[n])).toBe(false);
      here.add(nodeLayer[n]);
    }
    scope[n] = here;
  }
  return scope;
}

describe('decision-DNNF compiler', () => {
  it('500 random problems: smooth, decomposable; count, consistency, valid domains and closure equal brute force', () => {
    let empty = 0;
    for (let seed = 1; seed <= 500; seed++) {
      const random = prng(seed);
      const problem = randomProblem(random);
      const { domain } = problem;
      const dnnf = compileDnnf(domain, problem.nogoods, OPEN);
      const valueBase = valueBases(domain);
      if (dnnf.root > 1) expect(scopes(dnnf)[dnnf.root]?.size, `seed ${seed}`).toBe(domain.length);
      const queries = new DnnfQueries(dnnf, domain, valueBase);
      const solutions = [...assignments(domain)].filter((values) => holds(problem, values));
      if (solutions.length === 0) empty++;
      for (let round = 0; round < 6; round++) {
        const fixed = Int32Array.from(domain, (size) =>
          random() < 0.35 ? Math.floor(random() * size) : -1,
        );
        const fits = (values: readonly number[], except = -1): boolean =>
          values.every((v, l) => l === except || fixed[l] < 0 || fixed[l] === v);
        const matching = solutions.filter((values) => fits(values));
        const label = `seed ${seed} round ${round}`;
        expect(String(queries.configurations(fixed)), label).toBe(String(matching.length));
        expect(queries.consistent(fixed), label).toBe(matching.length > 0);
        const expected = new Uint8Array(valueBase[domain.length]);
        for (const values of solutions)
          for (let l = 0; l < domain.length; l++)
            if (fits(values, l)) expected[valueBase[l] + values[l]] = 1;
        const { supported, consistent } = queries.supports(fixed);
        expect(consistent, label).toBe(matching.length > 0);
        expect([...supported], label).toEqual([...expected]);
        const closure = new Uint8Array(valueBase[domain.length]);
        for (const values of matching) values.forEach((v, l) => (closure[valueBase[l] + v] = 1));
        const got = queries.closure(fixed);
        if (matching.length === 0) expect(got, label).toBeUndefined();
        else expect([...(got ?? [])], label).toEqual([...closure]);
      }
    }
    expect(empty).toBeGreaterThan(0);
  });

  it('counts past 2^53 exactly: 60 free layers of 3 values and one nogood', () => {
    const domain = new Int32Array(60).fill(3);
    const nogoods = {
      start: Int32Array.of(0, 2),
      layer: Int32Array.of(0, 1),
      mask: Int32Array.of(1, 1),
    };
    const dnnf = compileDnnf(domain, nogoods, OPEN);
    const queries = new DnnfQueries(dnnf, domain, valueBases(domain));
    expect(queries.configurations(new Int32Array(60).fill(-1))).toBe(3n ** 60n - 3n ** 58n);
  });

  it('200 random problems of 20–80 layers: the count past 2^52 equals a BigInt pass over the same form', () => {
    let large = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const random = prng(10_000 + seed);
      const { domain, nogoods } = wideProblem(random);
      const dnnf = compileDnnf(domain, nogoods, OPEN);
      const queries = new DnnfQueries(dnnf, domain, valueBases(domain));
      for (let round = 0; round < 4; round++) {
        const fixed = Int32Array.from(domain, (size) =>
          random() < 0.2 ? Math.floor(random() * size) : -1,
        );
        const expected = bigIntCount(dnnf, fixed);
        if (expected >= 2n ** 52n) large++;
        expect(BigInt(queries.configurations(fixed)), `seed ${seed} round ${round}`).toBe(expected);
      }
    }
    expect(large).toBeGreaterThan(400);
  });

  it('refuses a ring of 5,000 rules that never splits as past its budget, not by overflowing the stack', () => {
    // Not both x_i and x_(i+1), around a ring: every decision leaves one component.
    const layers = 5_000;
    const domain = new Int32Array(layers).fill(2);
    const start = Int32Array.from({ length: layers + 1 }, (_, i) => 2 * i);
    const layer = Int32Array.from({ length: 2 * layers }, (_, j) => (j >> 1) + (j & 1)).map(
      (l) => l % layers,
    );
    const mask = new Int32Array(2 * layers).fill(2);
    expect(() => compileDnnf(domain, { start, layer, mask }, OPEN)).toThrow(BudgetExceeded);
  });
});
