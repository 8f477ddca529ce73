import type { CompatibilityTable, CompiledQuestion, CelValue } from '../model-core.js';

/**
 * A compatibility table in flat arrays: the cells row by row, and for every option of
 * every column the rows holding it, packed into one Int32Array (`offers`):
 *
 * - `offers[c]` (c < columns): the entry of column c's first option; option o of
 *   column c has entry `e = offers[c] + o`;
 * - entry e: its rows are `offers[offers[e]] … offers[offers[e + 1] - 1]`.
 *
 * A large model has thousands of small tables: typed arrays instead of a Map per
 * column keep each table a few hundred contiguous bytes.
 */
export function indexTable(
  columns: readonly number[],
  rows: ReadonlyArray<readonly CelValue[]>,
  questions: readonly CompiledQuestion[],
): CompatibilityTable {
  const width = columns.length;
  const cells: CelValue[] = [];
  for (const row of rows) for (const cell of row) cells.push(cell);
  const lists: number[][] = [];
  const entryOf: number[] = [];
  for (let c = 0; c < width; c++) {
    entryOf.push(width + 1 + lists.length);
    for (const option of questions[columns[c]].options) {
      const list: number[] = [];
      for (let r = 0; r < rows.length; r++) if (cells[r * width + c] === option.key) list.push(r);
      lists.push(list);
    }
  }
  const entries = width + 1 + lists.length + 1;
  const offers = new Int32Array(entries + lists.reduce((sum, list) => sum + list.length, 0));
  entryOf.forEach((entry, c) => (offers[c] = entry));
  offers[width] = width + 1 + lists.length;
  let next = entries;
  lists.forEach((list, e) => {
    offers[width + 1 + e] = next;
    for (const r of list) offers[next++] = r;
  });
  offers[entries - 1] = next;
  return { columns: Int32Array.from(columns), cells, rowCount: rows.length, offers };
}

/** A copy whose arrays are freshly allocated (see compact.ts). */
export function copyTable(table: CompatibilityTable): CompatibilityTable {
  return {
    columns: table.columns.slice(),
    cells: table.cells.slice(),
    rowCount: table.rowCount,
    offers: table.offers.slice(),
  };
}
