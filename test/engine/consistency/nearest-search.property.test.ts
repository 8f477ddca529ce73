/**
 * The nearest path of a compiled diagram against brute force over its paths, by every way
 * of src/engine/consistency/nearest-by-search.ts: the best-first search alone, and the
 * lexicographic pass (no search budget) over the nodes the forward bound allows, and over
 * those the backward bound allows (no forward budget; nearest-changes.ts), each read by
 * stamp or from its list, and either as the stretch's size allows the forward one. Random targets, forced values, prices and
 * question orders on random models: the path keeps the forced values, has the fewest
 * changes, then the lexicographically greatest kept set in question order, then the
 * least price of a completion (the contract's ranking, docs/model-format.md).
 */
import { describe, expect, it } from 'vitest';
import type { ConsistencyForm } from '../../../src/engine/consistency/form.js';
import {
  NEAREST_TUNING,
  type NearestTuning,
  searchedNearest,
} from '../../../src/engine/consistency/nearest-by-search.js';
import type { NearestQuery } from '../../../src/engine/consistency/nearest.js';
import { compileDocument } from '../../../src/engine/work.js';
import { prng, randomModel } from './random-model.js';

const SEEDS = Number(process.env.NEAREST_SEEDS ?? 60);
const FALSE = 0;
const TRUE = 1;

/** Every complete assignment of the layers that a path of the diagram allows. */
function allPaths(form: ConsistencyForm): number[][] {
  const { domain, nodeLayer, kidStart, kids, root } = form;
  const layers = domain.length;
  const result: number[][] = [];
  const values: number[] = [];
  const walk = (node: number, layer: number): void => {
    if (result.length > 20_000) return;
    const at = node === TRUE ? layers : nodeLayer[node];
    if (layer < at) {
      for (let v = 0; v < domain[layer]; v++) {
        values[layer] = v;
        walk(node, layer + 1);
      }
      return;
    }
    if (node === TRUE) {
      result.push(values.slice(0, layers));
      return;
    }
    for (let v = 0; v < domain[layer]; v++) {
      const child = kids[kidStart[node] + v];
      if (child === FALSE) continue;
      values[layer] = v;
      walk(child, layer + 1);
    }
  };
  if (root !== FALSE) walk(root, 0);
  return result;
}

interface Key {
  changes: number;
  kept: string;
  price: number;
}

function keyOf(query: NearestQuery, path: readonly number[], valueBase: Int32Array): Key {
  let changes = 0;
  let kept = '';
  for (const layer of query.order) {
    const same = path[layer] === query.target[layer];
    if (!same) changes++;
    kept += same ? '1' : '0';
  }
  let price = 0;
  if (query.price !== undefined)
    for (let layer = 0; layer < path.length; layer++)
      price += query.price[valueBase[layer] + path[layer]];
  return { changes, kept, price };
}

/** a before b: fewer changes, then the greater kept string, then the lower price. */
const better = (a: Key, b: Key): boolean =>
  a.changes !== b.changes
    ? a.changes < b.changes
    : a.kept !== b.kept
      ? a.kept > b.kept
      : a.price < b.price;

describe('the nearest path of a diagram against brute force', () => {
  const ways: Record<string, NearestTuning> = {
    'best-first search': { ...NEAREST_TUNING, unguidedWork: Infinity },
  };
  for (const [bound, forwardWork] of [
    ['forward', Infinity],
    ['backward', 0],
  ] as const) {
    ways[`pass within the ${bound} bound, every node read`] = {
      unguidedWork: 0,
      forwardWork,
      forwardShare: Infinity,
      listShare: 0,
    };
    ways[`pass within the ${bound} bound, its nodes listed`] = {
      unguidedWork: 0,
      forwardWork,
      forwardShare: Infinity,
      listShare: 1,
    };
  }
  // The forward bound within a quarter of an edge per node above the last restricted
  // layer, else the backward one: each resolution takes whichever its stretch allows.
  ways['pass within the forward bound while it costs less than the backward one'] = {
    unguidedWork: 0,
    forwardWork: Infinity,
    forwardShare: 0.25,
    listShare: 1,
  };
  for (const [way, tuning] of Object.entries(ways))
    it(`${way}: fewest changes, earliest answers kept, least price`, () => {
      let checked = 0;
      let withChanges = 0;
      for (let seed = 1; seed <= SEEDS; seed++) {
        const random = prng(5000 + seed);
        const compiled = compileDocument(randomModel(random).document);
        if (!compiled.ok || !compiled.model.consistency.compiled) continue;
        const form = compiled.model.consistency;
        const { domain, valueBase } = form;
        const layers = domain.length;
        const paths = allPaths(form);
        if (paths.length === 0 || paths.length > 20_000) continue;
        for (let r = 0; r < 8; r++) {
          const target = new Int32Array(layers).fill(-1);
          const fixed = new Int32Array(layers).fill(-1);
          for (let layer = 0; layer < layers; layer++)
            if (random() < 0.6) target[layer] = Math.floor(random() * domain[layer]);
          if (random() < 0.5) {
            const layer = Math.floor(random() * layers);
            fixed[layer] = Math.floor(random() * domain[layer]);
            target[layer] = -1;
          }
          const order = [...Array(layers).keys()]
            .filter((layer) => target[layer] >= 0)
            .sort(() => random() - 0.5);
          const price =
            random() < 0.8
              ? Float64Array.from({ length: valueBase[layers] }, () => Math.floor(random() * 7) - 2)
              : undefined;
          const query: NearestQuery = { target, fixed, price, order, maxPasses: 16 };
          const allowed = paths.filter((p) => p.every((v, l) => fixed[l] < 0 || v === fixed[l]));
          const found = searchedNearest(form, query, undefined, tuning);
          const context = `seed ${seed} round ${r}`;
          if (allowed.length === 0) {
            expect(found.path, context).toBeUndefined();
            continue;
          }
          let best = keyOf(query, allowed[0], valueBase);
          for (const p of allowed) {
            const key = keyOf(query, p, valueBase);
            if (better(key, best)) best = key;
          }
          expect(found.path, context).toBeDefined();
          const mine = found.path as Int32Array;
          // The completions of the path's restricted layers: the cheapest is its key.
          const agreeing = allowed.filter((p) =>
            p.every((v, l) => (target[l] < 0 && fixed[l] < 0) || v === mine[l]),
          );
          expect(agreeing.length, context).toBeGreaterThan(0);
          let own = keyOf(query, agreeing[0], valueBase);
          for (const p of agreeing) {
            const key = keyOf(query, p, valueBase);
            if (better(key, own)) own = key;
          }
          expect(own, context).toEqual(best);
          expect(found.changes, context).toBe(best.changes);
          checked++;
          if (best.changes > 0) withChanges++;
        }
      }
      expect(checked).toBeGreaterThan(150);
      expect(withChanges).toBeGreaterThan(60);
    }, 120_000);
});
