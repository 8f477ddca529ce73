/**
 * Generated table models for the consistency benchmark: `questions` required choice
 * questions of `options` options, compatibility tables of 2–3 columns over questions
 * close in declaration order (shuffled a little, so the variable order matters),
 * `rows` rows in all, plus one table of three 40-option questions with a large share
 * of its 64,000 combinations (tens of thousands of rows). A hidden solution's row is
 * in every table, so the model always has a valid configuration.
 */
export function generateTableModel(
  questions: number,
  options: number,
  rows: number,
  seed: number,
): Record<string, unknown> {
  let state = seed >>> 0;
  const random = (): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
  const below = (n: number): number => Math.floor(random() * n);
  const keys = Array.from({ length: questions }, (_, i) => `q${i}`);
  const solution = keys.map(() => below(options));
  const list: Array<Record<string, unknown>> = keys.map((key) => ({
    key,
    type: 'choice',
    label: key,
    required: random() < 0.5,
    options: Array.from({ length: options }, (_, o) => ({ key: `o${o}`, label: `${o}` })),
  }));
  const rules: Array<Record<string, unknown>> = [];
  const tables = Math.max(1, Math.floor(questions / 2));
  const perTable = Math.max(2, Math.floor(rows / tables));
  for (let t = 0; t < tables; t++) {
    const width = random() < 0.7 ? 2 : 3;
    const start = below(Math.max(1, questions - 6));
    const columns = new Set<number>();
    while (columns.size < width) columns.add(start + below(Math.min(6, questions - start)));
    const cols = [...columns];
    const seen = new Set<string>();
    const tableRows: string[][] = [];
    const add = (cells: number[]): void => {
      const id = cells.join(',');
      if (seen.has(id)) return;
      seen.add(id);
      tableRows.push(cells.map((cell) => `o${cell}`));
    };
    add(cols.map((c) => solution[c]));
    const count = Math.min(perTable, Math.floor(options ** width * 0.6));
    for (let r = 0; r < count * 2 && tableRows.length < count; r++)
      add(cols.map(() => below(options)));
    rules.push({
      key: `t${t}`,
      message: 'incompatible',
      allowed: { columns: cols.map((c) => keys[c]), rows: tableRows },
    });
  }
  // One large table over three 40-option questions.
  const wide = ['w0', 'w1', 'w2'];
  for (const key of wide) {
    list.push({
      key,
      type: 'choice',
      label: key,
      options: Array.from({ length: 40 }, (_, o) => ({ key: `o${o}`, label: `${o}` })),
    });
  }
  const wideRows: string[][] = [];
  for (let a = 0; a < 40; a++)
    for (let b = 0; b < 40; b++)
      for (let c = 0; c < 40; c++) if (random() < 0.5) wideRows.push([`o${a}`, `o${b}`, `o${c}`]);
  rules.push({ key: 'wide', message: 'wide', allowed: { columns: wide, rows: wideRows } });
  return { general: { name: `tables-${questions}` }, questions: list, rules };
}

/** A small deterministic generator (LCG), as above. */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

/**
 * A model shaped like renault-megane (`../shared/benchmarks`: 99 questions of mostly 2–3
 * options, 111 `allowed` tables of 2–10 columns, mostly 6, 112,680 rows), `scale` times
 * its size: `scale` blocks of 99 questions, each with 111 tables over questions close in
 * declaration order (within `window` consecutive ones of the block, at least a table's
 * width), and a two-column table linking consecutive blocks (one connected model; with
 * tables across whole blocks the diagram passed the compile budget), each table with a
 * random share of its column product as rows, so that the rows in all stay near `rows` (the default tableRows limit is 500,000:
 * at 10× the real car's 1.1 million would not be accepted). A hidden solution's row is in
 * every table: the model always has a valid configuration.
 */
export function generateWideTableModel(
  scale: number,
  rows: number,
  seed: number,
  window = 8,
): Record<string, unknown> {
  const random = lcg(seed);
  const below = (n: number): number => Math.floor(random() * n);
  const questions = 99 * scale;
  const optionCounts = Array.from({ length: questions }, () => {
    const r = random();
    return r < 0.55 ? 2 : r < 0.7 ? 3 : r < 0.8 ? 1 : r < 0.9 ? 5 : 4;
  });
  const keys = Array.from({ length: questions }, (_, i) => `q${i}`);
  const solution = optionCounts.map((count) => below(count));
  const list = keys.map((key, q) => ({
    key,
    type: 'choice',
    label: key,
    required: random() < 0.5,
    options: Array.from({ length: optionCounts[q] }, (_, o) => ({ key: `o${o}`, label: `${o}` })),
  }));
  const widths = [2, 2, 3, 4, 5, 6, 6, 6, 6, 7, 8, 10];
  const perTable = Math.max(2, Math.floor(rows / (111 * scale)));
  const rules: Array<Record<string, unknown>> = [];
  const addTable = (cols: number[]): void => {
    const product = cols.reduce((p, c) => p * optionCounts[c], 1);
    const count = Math.min(perTable, Math.max(1, Math.floor(product * (0.3 + 0.4 * random()))));
    const seen = new Set<string>();
    const tableRows: string[][] = [];
    const add = (cells: number[]): void => {
      const id = cells.join(',');
      if (seen.has(id)) return;
      seen.add(id);
      tableRows.push(cells.map((cell) => `o${cell}`));
    };
    add(cols.map((c) => solution[c]));
    for (let r = 0; r < count * 3 && tableRows.length < count; r++)
      add(cols.map((c) => below(optionCounts[c])));
    rules.push({
      key: `t${rules.length}`,
      message: 'incompatible',
      allowed: { columns: cols.map((c) => keys[c]), rows: tableRows },
    });
  };
  // `scale` blocks of 99 questions, each with 111 tables inside it (a megane each), and
  // one two-column table linking consecutive blocks: one connected model.
  for (let block = 0; block < scale; block++) {
    const offset = block * 99;
    for (let t = 0; t < 111; t++) {
      const width = widths[below(widths.length)];
      const span = Math.max(width, window);
      const start = below(99 - span + 1);
      const columns = new Set<number>();
      while (columns.size < width) columns.add(offset + start + below(span));
      addTable([...columns]);
    }
    if (block > 0) addTable([offset - 1, offset]);
  }
  return { general: { name: `wide-${scale}x` }, questions: list, rules };
}

/**
 * The crafted model of issue #28: 8 required choice questions of 50 options and one
 * `allowed` table over all of them with `rows` distinct random rows (5,000), so that a
 * few answers leave most options unavailable, each to be explained.
 */
export function generateSingleTableModel(rows: number, seed: number): Record<string, unknown> {
  const random = lcg(seed);
  const keys = Array.from({ length: 8 }, (_, i) => `c${i}`);
  const questions = keys.map((key) => ({
    key,
    type: 'choice',
    label: key,
    required: true,
    options: Array.from({ length: 50 }, (_, o) => ({ key: `o${o}`, label: `${o}` })),
  }));
  const seen = new Set<string>();
  const tableRows: string[][] = [];
  while (tableRows.length < rows) {
    const cells = keys.map(() => `o${Math.floor(random() * 50)}`);
    const id = cells.join(',');
    if (seen.has(id)) continue;
    seen.add(id);
    tableRows.push(cells);
  }
  const rules = [
    { key: 'table', message: 'not offered', allowed: { columns: keys, rows: tableRows } },
  ];
  return { general: { name: 'single-table' }, questions, rules };
}
