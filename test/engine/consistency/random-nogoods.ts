/**
 * Random nogoods over small finite domains and their brute-force solutions: the
 * decision-DNNF tests (dnnf-compile.test.ts, dnnf-weighted.property.test.ts) share them.
 */
import { AND, type DnnfForm } from '../../../src/engine/consistency/dnnf-form.js';
import type { Nogoods } from '../../../src/engine/consistency/dnnf-nogoods.js';

export interface Problem {
  domain: Int32Array;
  nogoods: Nogoods;
}

export function randomProblem(random: () => number): Problem {
  const layers = 1 + Math.floor(random() * 8);
  const domain = Int32Array.from({ length: layers }, () => 2 + Math.floor(random() * 2));
  const width = (): number | undefined => {
    const drawn = Math.floor(random() * 4); // 0: the empty nogood (no solution) now and then
    return drawn === 0 && random() < 0.8 ? undefined : drawn;
  };
  const count = Math.floor(random() * 10);
  const nogoods = drawNogoods(
    random,
    domain,
    count,
    width,
    (l) => 1 + Math.floor(random() * ((1 << domain[l]) - 1)),
  );
  return { domain, nogoods };
}

/**
 * `rules` nogoods over `width()` layers each (undefined: none drawn this time; a layer drawn
 * twice is taken once), each layer's excluded values `mask(layer)`, drawn in that order.
 */
function drawNogoods(
  random: () => number,
  domain: Int32Array,
  rules: number,
  width: () => number | undefined,
  mask: (layer: number) => number,
): Nogoods {
  const start = [0];
  const layer: number[] = [];
  const masks: number[] = [];
  for (let i = 0; i < rules; i++) {
    const drawn = width();
    if (drawn === undefined) continue;
    const used = new Set<number>();
    for (let m = 0; m < drawn; m++) {
      const l = Math.floor(random() * domain.length);
      if (used.has(l)) continue;
      used.add(l);
      layer.push(l);
      masks.push(mask(l));
    }
    start.push(layer.length);
  }
  return {
    start: Int32Array.from(start),
    layer: Int32Array.from(layer),
    mask: Int32Array.from(masks),
  };
}

export function* assignments(domain: Int32Array): Generator<number[]> {
  const values = new Array<number>(domain.length).fill(0);
  for (;;) {
    yield [...values];
    let l = 0;
    while (l < domain.length && ++values[l] === domain[l]) values[l++] = 0;
    if (l === domain.length) return;
  }
}

export function holds({ nogoods }: Problem, values: readonly number[]): boolean {
  const { start, layer, mask } = nogoods;
  for (let i = 0; i + 1 < start.length; i++) {
    let all = true;
    for (let j = start[i]; j < start[i + 1]; j++)
      if ((mask[j] & (1 << values[layer[j]])) === 0) all = false;
    if (all) return false;
  }
  return true;
}

/** 20–80 layers of 2–5 values, nogoods of one value per layer over 2–3 layers: most problems keep solutions, their counts past 2^52. */
export function wideProblem(random: () => number): Problem {
  const layers = 20 + Math.floor(random() * 60);
  const domain = Int32Array.from({ length: layers }, () => 2 + Math.floor(random() * 4));
  // Nogoods of one value per layer over 2–3 layers: most problems keep solutions.
  const rules = Math.floor((random() * layers) / 2);
  const nogoods = drawNogoods(
    random,
    domain,
    rules,
    () => 2 + Math.floor(random() * 2),
    (l) => 1 << Math.floor(random() * domain[l]),
  );
  return { domain, nogoods };
}

/** The count of `fixed`'s completions by a pass in BigInt at every node. */
export function bigIntCount(dnnf: DnnfForm, fixed: Int32Array): bigint {
  const { nodeLayer, kidStart, kids, root } = dnnf;
  const count: bigint[] = [0n, 1n];
  for (let n = 2; n <= root; n++) {
    let total = nodeLayer[n] === AND ? 1n : 0n;
    for (let k = kidStart[n]; k < kidStart[n + 1]; k++) {
      if (nodeLayer[n] === AND) total *= count[kids[k]];
      else if (fixed[nodeLayer[n]] < 0 || fixed[nodeLayer[n]] === k - kidStart[n])
        total += count[kids[k]];
    }
    count[n] = total;
  }
  return count[root];
}
