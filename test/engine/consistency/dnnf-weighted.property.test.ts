/**
 * The weighted queries on the decision-DNNF (dnnf-weighted.ts) against brute force on
 * random nogoods: under random restrictions and integer weights (negative ones too), the
 * least weight, each value's least weight with its own layer's restriction left out, a
 * least solution, and the nearest solution to random targets (fewest changes, earlier
 * targets kept on ties, then the least price; dnnf-nearest.ts's one pass and the tie
 * passes of nearest.ts on the circuit) equal the enumeration's; the price bounds'
 * walk of two weights at once (dnnf-pair.ts) equals the single passes.
 */
import { describe, expect, it } from 'vitest';
import { compileDnnf } from '../../../src/engine/consistency/dnnf-compile.js';
import {
  circuitLeastPath,
  circuitMinPass,
  circuitMins,
  circuitValueMins,
  prepareCircuit,
} from '../../../src/engine/consistency/dnnf-weighted.js';
import { circuitNearest } from '../../../src/engine/consistency/dnnf-nearest.js';
import { circuitPairMins } from '../../../src/engine/consistency/dnnf-pair.js';
import { valueBases } from '../../../src/engine/consistency/form.js';
import { nearestOver } from '../../../src/engine/consistency/nearest.js';
import { prng } from '../../support/prng.js';
import { assignments, holds, randomProblem } from './random-nogoods.js';

const OPEN = { deadline: Infinity, bytes: 1e9, steps: 1e9 };
const PROBLEMS = 400;

describe('weighted queries on the decision-DNNF against brute force', () => {
  it(`${PROBLEMS} random problems: least weight, per-value least weights, a least solution`, () => {
    let finite = 0;
    for (let seed = 1; seed <= PROBLEMS; seed++) {
      const random = prng(5000 + seed);
      const problem = randomProblem(random);
      const { domain } = problem;
      const valueBase = valueBases(domain);
      const dnnf = compileDnnf(domain, problem.nogoods, OPEN);
      const prepared = prepareCircuit({ ...dnnf, domain, valueBase });
      expect(prepared, `seed ${seed}: smooth`).toBeDefined();
      if (prepared === undefined) continue;
      const solutions = [...assignments(domain)].filter((values) => holds(problem, values));
      const nodes = dnnf.nodeLayer.length;
      // Reused from round to round, as the price bounds reuse them from click to click.
      const scratch = {
        upA: new Float64Array(nodes),
        upB: new Float64Array(nodes),
        downA: new Float64Array(nodes),
        downB: new Float64Array(nodes),
      };
      for (let round = 0; round < 5; round++) {
        const label = `seed ${seed} round ${round}`;
        const weight = Float64Array.from(
          { length: valueBase[domain.length] },
          () => Math.floor(random() * 21) - 6,
        );
        const fixed = Int32Array.from(domain, (size) =>
          random() < 0.3 ? Math.floor(random() * size) : -1,
        );
        const fits = (values: readonly number[], except = -1): boolean =>
          values.every((v, l) => l === except || fixed[l] < 0 || fixed[l] === v);
        const total = (values: readonly number[]): number =>
          values.reduce((sum, v, l) => sum + weight[valueBase[l] + v], 0);
        const matching = solutions.filter((values) => fits(values));
        const pass = circuitMinPass(prepared, weight, fixed);
        expect(pass.best, label).toBe(Math.min(Infinity, ...matching.map(total)));
        const expected = new Float64Array(valueBase[domain.length]).fill(Infinity);
        for (const values of solutions)
          for (let l = 0; l < domain.length; l++) {
            if (!fits(values, l)) continue;
            const at = valueBase[l] + values[l];
            expected[at] = Math.min(expected[at], total(values));
          }
        const through = circuitValueMins(prepared, weight, fixed, pass);
        expect([...through], label).toEqual([...expected]);
        const other = weight.map((w, i) => (i % 2 === 0 ? -w : w * 3));
        const otherPass = circuitMinPass(prepared, other, fixed);
        const pair = circuitPairMins(prepared, weight, other, fixed, scratch);
        expect([pair.bestA, pair.bestB], label).toEqual([pass.best, otherPass.best]);
        expect([...pair.throughA], label).toEqual([...through]);
        expect([...pair.throughB], label).toEqual([
          ...circuitValueMins(prepared, other, fixed, otherPass),
        ]);
        if (pass.best === Infinity) continue;
        finite++;
        const path = [...circuitLeastPath(prepared, weight, fixed, pass)];
        expect(holds(problem, path) && fits(path), label).toBe(true);
        expect(total(path), label).toBe(pass.best);
      }
    }
    expect(finite).toBeGreaterThan(PROBLEMS);
  });

  it(`${PROBLEMS} random problems: the nearest solution to random targets, ties as the contract ranks`, () => {
    let changed = 0;
    for (let seed = 1; seed <= PROBLEMS; seed++) {
      const random = prng(9000 + seed);
      const problem = randomProblem(random);
      const { domain } = problem;
      const layers = domain.length;
      const valueBase = valueBases(domain);
      const prepared = prepareCircuit({
        ...compileDnnf(domain, problem.nogoods, OPEN),
        domain,
        valueBase,
      });
      if (prepared === undefined) throw new Error(`seed ${seed}: not smooth`);
      const solutions = [...assignments(domain)].filter((values) => holds(problem, values));
      for (let round = 0; round < 4; round++) {
        const label = `seed ${seed} round ${round}`;
        const target = Int32Array.from(domain, (size) =>
          random() < 0.7 ? Math.floor(random() * size) : -1,
        );
        const fixed = new Int32Array(layers).fill(-1);
        const forced = Math.floor(random() * layers);
        if (random() < 0.5) {
          fixed[forced] = Math.floor(random() * domain[forced]);
          target[forced] = -1;
        }
        const price = Float64Array.from({ length: valueBase[layers] }, () =>
          Math.floor(random() * 50),
        );
        const order = [...target.keys()].filter((l) => target[l] >= 0);
        const query = { target, fixed, price, order, maxPasses: layers + 1 };
        // The lexicographic pass (the resolution's) and the tie passes on composite weights.
        const found = circuitNearest(prepared, query);
        const byTies = nearestOver(circuitMins(prepared), query);
        const candidates = solutions.filter((values) =>
          values.every((v, l) => fixed[l] < 0 || fixed[l] === v),
        );
        if (candidates.length === 0) {
          expect(found.path, label).toBeUndefined();
          continue;
        }
        // The contract's key: changes, then the kept targets earliest first, then price.
        const key = (values: readonly number[]) => {
          const kept = order.map((l) => (values[l] === target[l] ? '1' : '0')).join('');
          const changes = order.length - kept.replaceAll('0', '').length;
          const cost = values.reduce((sum, v, l) => sum + price[valueBase[l] + v], 0);
          return { changes, kept, cost };
        };
        const best = candidates
          .map(key)
          .sort(
            (a, b) =>
              a.changes - b.changes ||
              (a.kept < b.kept ? 1 : a.kept > b.kept ? -1 : 0) ||
              a.cost - b.cost,
          )[0];
        const path = [...(found.path ?? [])];
        expect(holds(problem, path), label).toBe(true);
        expect(key(path), label).toEqual(best);
        expect(found.changes, label).toBe(best.changes);
        expect(found.tiesBroken, label).toBe(true);
        expect(key([...(byTies.path ?? [])]), label).toEqual(best);
        if (best.changes > 0) changed++;
      }
    }
    expect(changed).toBeGreaterThan(100);
  });
});
