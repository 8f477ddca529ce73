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
