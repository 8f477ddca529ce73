/**
 * The decision-DNNF's counts kept from one query to the next (dnnf-count.ts, docs/adr/0235)
 * against brute force and a fresh BigInt pass: walks of restrictions that change one to a
 * few layers at a time (answered, changed, cleared), now and then a jump to unrelated
 * restrictions, with the pairwise relation (its own restrictions) asked between steps, so
 * that every query follows whatever the previous one left.
 */
import { describe, expect, it } from 'vitest';
import { compileDnnf } from '../../../src/engine/consistency/dnnf-compile.js';
import type { DnnfForm } from '../../../src/engine/consistency/dnnf-form.js';
import { DnnfQueries } from '../../../src/engine/consistency/dnnf-query.js';
import { valueBases } from '../../../src/engine/consistency/form.js';
import { prng } from '../../support/prng.js';
import {
  assignments,
  bigIntCount,
  holds,
  type Problem,
  randomProblem,
  wideProblem,
} from './random-nogoods.js';

const OPEN = { deadline: Infinity, bytes: 1e9, steps: 1e9 };

/** The next restrictions of a walk: 1–3 layers answered, changed or cleared; 1 in 8 a jump. */
function nextStep(random: () => number, domain: Int32Array, fixed: Int32Array): Int32Array {
  const next = fixed.slice();
  if (random() < 0.125) {
    for (let l = 0; l < domain.length; l++)
      next[l] = random() < 0.3 ? Math.floor(random() * domain[l]) : -1;
    return next;
  }
  const changes = 1 + Math.floor(random() * 3);
  for (let c = 0; c < changes; c++) {
    const l = Math.floor(random() * domain.length);
    next[l] = random() < 0.25 ? -1 : Math.floor(random() * domain[l]);
  }
  return next;
}

/** A walk's queries in a random order, a pairwise row asked between them now and then. */
function walk(
  problem: Problem,
  random: () => number,
  steps: number,
  check: (queries: DnnfQueries, fixed: Int32Array, label: string, dnnf: DnnfForm) => void,
): void {
  const { domain } = problem;
  const dnnf = compileDnnf(domain, problem.nogoods, OPEN);
  const queries = new DnnfQueries(dnnf, domain, valueBases(domain));
  let fixed: Int32Array = new Int32Array(domain.length).fill(-1);
  for (let step = 0; step < steps; step++) {
    fixed = nextStep(random, domain, fixed);
    if (random() < 0.3) {
      const l = Math.floor(random() * domain.length);
      queries.pairwise(l, Math.floor(random() * domain[l]));
    }
    check(queries, fixed, `step ${step}`, dnnf);
  }
}

describe('decision-DNNF counts kept between queries', () => {
  it('300 walks of 40 steps on random problems: count, consistency and valid domains equal brute force', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = prng(20_000 + seed);
      const problem = randomProblem(random);
      const { domain } = problem;
      const valueBase = valueBases(domain);
      const solutions = [...assignments(domain)].filter((values) => holds(problem, values));
      walk(problem, random, 40, (queries, fixed, step) => {
        const label = `seed ${seed} ${step}`;
        const fits = (values: readonly number[], except = -1): boolean =>
          values.every((v, l) => l === except || fixed[l] < 0 || fixed[l] === v);
        const matching = solutions.filter((values) => fits(values)).length;
        const expected = new Uint8Array(valueBase[domain.length]);
        for (const values of solutions)
          for (let l = 0; l < domain.length; l++)
            if (fits(values, l)) expected[valueBase[l] + values[l]] = 1;
        const order = random() < 0.5;
        if (order) expect(String(queries.configurations(fixed)), label).toBe(String(matching));
        expect(queries.consistent(fixed), label).toBe(matching > 0);
        const { supported, consistent } = queries.supports(fixed);
        expect(consistent, label).toBe(matching > 0);
        expect([...supported], label).toEqual([...expected]);
        if (!order) expect(String(queries.configurations(fixed)), label).toBe(String(matching));
      });
    }
  });

  it('100 walks of 60 steps on 20–80 layers: the count past 2^52 equals a fresh BigInt pass', () => {
    let large = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const random = prng(30_000 + seed);
      const problem = wideProblem(random);
      walk(problem, random, 60, (queries, fixed, step, dnnf) => {
        const expected = bigIntCount(dnnf, fixed);
        if (expected >= 2n ** 52n) large++;
        if (random() < 0.5) expect(queries.consistent(fixed)).toBe(expected > 0n);
        expect(BigInt(queries.configurations(fixed)), `seed ${seed} ${step}`).toBe(expected);
      });
    }
    expect(large).toBeGreaterThan(2_000);
  });

  it('a large count that changes by one: 2^60 and 2^60 − 1 are one double, two answers', () => {
    // 61 boolean layers, not all of them true: 2^61 − 1 solutions.
    const layers = 61;
    const domain = new Int32Array(layers).fill(2);
    const nogoods = {
      start: Int32Array.of(0, layers),
      layer: Int32Array.from({ length: layers }, (_, l) => l),
      mask: new Int32Array(layers).fill(2),
    };
    const queries = new DnnfQueries(compileDnnf(domain, nogoods, OPEN), domain, valueBases(domain));
    const fixed = new Int32Array(layers).fill(-1);
    const expected: Array<[number, number, bigint]> = [
      [0, 0, 2n ** 60n],
      [0, 1, 2n ** 60n - 1n],
      [0, 0, 2n ** 60n],
      [0, -1, 2n ** 61n - 1n],
      [60, 1, 2n ** 60n - 1n],
      [60, 0, 2n ** 60n],
      [60, 1, 2n ** 60n - 1n],
    ];
    for (const [layer, value, count] of expected) {
      fixed[layer] = value;
      expect(BigInt(queries.configurations(fixed)), `layer ${layer} = ${value}`).toBe(count);
    }
  });
});
