import { setFlagsFromString, getHeapStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { reviveModel, toTransferable } from '../../src/engine/transfer.js';
import { choice, compileOk, evaluate, evaluationJson, model } from './helpers.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
setFlagsFromString('--no-expose-gc');

/**
 * What building a value adds to the heap once garbage is collected (the value kept alive):
 * the least of three builds, since other work in the test process (a file before this one
 * still closing its app) may allocate between the two readings, which only raises one.
 */
function heapOf<T>(build: () => T): { value: T; bytes: number } {
  let least: { value: T; bytes: number } | undefined;
  for (let i = 0; i < 3; i++) {
    gc();
    gc();
    const before = getHeapStatistics().used_heap_size;
    const value = build();
    gc();
    gc();
    const bytes = getHeapStatistics().used_heap_size - before;
    if (least === undefined || bytes < least.bytes) least = { value, bytes };
  }
  return least as { value: T; bytes: number };
}

/**
 * Ten tables over three of twelve questions of options o0…o19, each allowing the 5,333
 * rows whose option numbers do not add up to a multiple of 3: 160,000 cells of 20 texts.
 */
function tablesModel() {
  const values = Array.from({ length: 20 }, (_, i) => `o${i}`);
  const keys = Array.from({ length: 12 }, (_, i) => `q${i}`);
  const rows: string[][] = [];
  for (let a = 0; a < 20; a++)
    for (let b = 0; b < 20; b++)
      for (let c = 0; c < 20; c++)
        if ((a + b + c) % 3 !== 0) rows.push([values[a], values[b], values[c]]);
  return model({
    questions: keys.map((key) => choice(key, values)),
    rules: keys.slice(2).map((key, i) => ({
      key: `t${i}`,
      message: 'm',
      allowed: { columns: [keys[i], keys[i + 1], key], rows },
    })),
  });
}

describe('a revived model’s heap', () => {
  it('keeps one string per cell text, as the compiled model does', () => {
    const compiled = compileOk(tablesModel());
    const bytes = toTransferable(compiled);
    const cells = compiled.rules.reduce((n, rule) => n + (rule.table?.cells.length ?? 0), 0);
    expect(cells).toBeGreaterThan(150_000);
    const revived = heapOf(() => reviveModel(bytes).model);
    // A string per cell would be 16+ bytes each (3.4 MB and more) on top of the cell arrays.
    expect(revived.bytes).toBeLessThan(cells * 8 + 2_000_000);
    const answers = { q0: { values: ['o0'] }, q5: { values: ['o0'] } };
    expect(evaluationJson(evaluate(revived.value, answers))).toBe(
      evaluationJson(evaluate(compiled, answers)),
    );
  });
});
