/**
 * Issue #28: the compile budget counts work, not time; the store is collected while
 * compiling; the computed table cannot hit an engine limit; the table builder.
 */
import { describe, expect, it } from 'vitest';
import { compileDocument } from '../../../src/engine/work.js';
import { ComputedTable } from '../../../src/engine/consistency/computed-table.js';
import { FALSE, MddStore, TRUE } from '../../../src/engine/consistency/mdd.js';
import { WORK_BUDGET_REASON } from '../../../src/engine/consistency/mdd-budget.js';
import { tableDiagram } from '../../../src/engine/consistency/table-diagram.js';
import { chainedTablesModel, lcg } from '../helpers.js';

const unlimitedTime = { consistencyMs: 3_600_000 };

describe('the compile work budget', () => {
  it('decides exactness by steps, whatever the time: the same answer on every run', () => {
    const document = chainedTablesModel(12, 5, { values: 6, rows: 30 });
    const exact = compileDocument(document, unlimitedTime);
    if (!exact.ok) throw new Error('rejected');
    expect(exact.model.consistency.exact).toBe(true);
    const runs = [1, 2, 3].map(() => {
      const result = compileDocument(document, { ...unlimitedTime, consistencySteps: 2_000 });
      if (!result.ok) throw new Error('rejected');
      return result.model.consistency;
    });
    for (const form of runs) {
      expect(form.compiled).toBe(false);
      // Past the diagram's 2,000 steps, the decision-DNNF compiles within as many decisions
      // (docs/adr/0193): exact, the same form on every run.
      expect(form.exact).toBe(true);
      expect(form.analysis.configurations).toBe(exact.model.consistency.analysis.configurations);
      expect(form.dnnf).toEqual(runs[0].dnnf);
      expect(form.partRoots).toEqual(runs[0].partRoots);
    }
    // Past 20 steps neither compiles: propagation, the diagram's reason kept.
    const past = compileDocument(document, { ...unlimitedTime, consistencySteps: 20 });
    if (!past.ok) throw new Error('rejected');
    expect(past.model.consistency.exact).toBe(false);
    expect(past.model.consistency.reason).toContain(`${WORK_BUDGET_REASON} (20 steps)`);
    expect(past.model.consistency.analysis.configurations).toBeNull();
  });

  it('a zero step budget compiles no diagram (like a zero time or byte budget)', () => {
    const result = compileDocument(chainedTablesModel(5, 1, { values: 6, rows: 30 }), {
      consistencySteps: 0,
    });
    expect(result.ok && result.model.consistency.compiled).toBe(false);
  });
});

describe('the store during a compile', () => {
  it('collects garbage: pinned roots keep their function, renumbered; the rest is freed', () => {
    const domain = Int32Array.from([3, 3, 3]);
    const store = new MddStore(domain, { deadline: Infinity, bytes: 1e9, steps: 1e9 });
    // x0 == v && x2 != v for some v, built from cubes (leaving garbage behind).
    const literal = (layer: number, value: number, negate = false) => {
      const kids = [0, 0, 0].map((_, v) => ((v === value) !== negate ? TRUE : FALSE));
      return store.node(layer, kids);
    };
    let root = FALSE;
    for (let v = 0; v < 3; v++)
      root = store.apply('or', root, store.apply('and', literal(0, v), literal(2, v, true)));
    const count = (node: number, layer = 0): number => {
      if (node === FALSE) return 0;
      if (node === TRUE || store.layerOf[node] > layer)
        return layer === 3 ? 1 : 3 * count(node, layer + 1);
      let total = 0;
      for (let v = 0; v < 3; v++) total += count(store.child(node, v), layer + 1);
      return total;
    };
    const before = count(root);
    const nodesBefore = store.nodeCount;
    store.pins.push(root);
    store.collect([]);
    expect(store.nodeCount).toBeLessThan(nodesBefore);
    expect(count(store.pins[0])).toBe(before);
    expect(before).toBe(3 * 3 * 2);
    // Hash-consing still finds the kept nodes after the collection.
    expect(store.apply('and', store.pins[0], store.pins[0])).toBe(store.pins[0]);
  });

  it('the computed table is bounded whatever the store (no Map: no RangeError past 2^24)', () => {
    const table = new ComputedTable();
    table.sizeFor(1e9);
    expect(table.bytes).toBeLessThanOrEqual(24 * 1024 * 1024);
    // Lossy, never wrong: an entry is either the value stored or absent.
    for (let i = 0; i < 100_000; i++) table.set(i % 3, i + 2, i * 7 + 2, i);
    for (let i = 0; i < 100_000; i++) {
      const found = table.get(i % 3, i + 2, i * 7 + 2);
      expect(found === -1 || found === i).toBe(true);
    }
  });
});

describe('the table builder', () => {
  it('matches rows exactly, "no value" matching every row, unknown cells never', () => {
    const next = lcg(3);
    for (let trial = 0; trial < 30; trial++) {
      const width = 1 + next(4);
      const domain = Int32Array.from({ length: width }, () => 2 + next(3));
      const rows = Array.from({ length: next(12) }, () =>
        Array.from(domain, (size) => (next(8) === 0 ? -1 : 1 + next(size - 1))),
      );
      const store = new MddStore(domain, { deadline: Infinity, bytes: 1e9, steps: 1e9 });
      const columns = Array.from(domain, (_, layer) => ({
        layer,
        cells: Int32Array.from(rows, (row) => row[layer]),
      }));
      const root = tableDiagram(store, columns, rows.length);
      const assignment = new Int32Array(width);
      const walk = (layer: number): void => {
        if (layer === width) {
          let node = root;
          while (node > TRUE) node = store.child(node, assignment[store.layerOf[node]]);
          const matches = rows.some((row) =>
            row.every((cell, c) => assignment[c] === 0 || assignment[c] === cell),
          );
          expect(node === TRUE, `trial ${trial} ${assignment.join()}`).toBe(matches);
          return;
        }
        for (let v = 0; v < domain[layer]; v++) {
          assignment[layer] = v;
          walk(layer + 1);
        }
      };
      walk(0);
    }
  });
});
