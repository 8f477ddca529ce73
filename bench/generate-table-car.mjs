/**
 * A seeded model of renault-medium's size and shape, so that `npm run bench:ui` needs
 * nothing outside the repository: 148 choice questions (426 options: most of two, a few
 * of up to 20), 174 compatibility tables over two to eight nearby questions. Every table's
 * rows are the projections of a thousand hidden complete configurations plus some
 * random rows, so the model has valid configurations and many options stay available.
 * The same seed gives the same model.
 *
 *   node bench/generate-table-car.mjs [--seed 1] > model.json
 */
import { fileURLToPath } from 'node:url';

/** Option counts of renault-medium's 148 questions (124 of two, the rest larger). */
const OPTION_COUNTS = [
  ...Array(124).fill(2),
  ...[4, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 20, 20, 5, 5, 8, 8, 7, 7, 13, 17, 6, 9, 14],
];
/** Column counts of its 174 tables. */
const COLUMN_COUNTS = [
  ...Array(143).fill(2),
  ...Array(14).fill(3),
  ...Array(7).fill(4),
  ...Array(4).fill(6),
  ...[7, 7, 10, 10, 5, 8],
];
const SOLUTIONS = 1000;
const EXTRA_ROWS = 0.15;

export function generateTableCar(seed = 1) {
  let state = seed >>> 0 || 1;
  const random = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 4294967296;
  };
  const pick = (n) => Math.floor(random() * n);
  // Shuffled so that large questions are spread through the form.
  const counts = [...OPTION_COUNTS].sort(() => random() - 0.5);
  const questions = counts.map((n, i) => ({
    key: `v${i}`,
    type: 'choice',
    label: `Feature ${i + 1}`,
    required: true,
    options: Array.from({ length: n }, (_, o) => ({
      key: `o${o}`,
      label: `Variant ${o + 1}`,
      ...(o > 0 && { price: `${(i % 9) * 10 + o * 5}.00` }),
    })),
  }));
  const solutions = Array.from({ length: SOLUTIONS }, () => counts.map((n) => pick(n)));
  const rules = COLUMN_COUNTS.map((width, t) => {
    // Nearby questions, as a car's options constrain their neighbours: a narrow form.
    const start = pick(counts.length - width * 2);
    const columns = new Set();
    while (columns.size < width) columns.add(start + pick(width * 2));
    const cols = [...columns].sort((a, b) => a - b);
    const rows = new Map();
    for (const s of solutions)
      rows.set(
        cols.map((c) => s[c]).join(','),
        cols.map((c) => s[c]),
      );
    const extra = Math.floor(rows.size * EXTRA_ROWS);
    for (let i = 0; i < extra; i++) {
      const row = cols.map((c) => pick(counts[c]));
      rows.set(row.join(','), row);
    }
    return {
      key: `t${t}`,
      message: `Feature combination ${t + 1} is not built`,
      allowed: {
        columns: cols.map((c) => `v${c}`),
        rows: [...rows.values()].map((row) => row.map((o) => `o${o}`)),
      },
    };
  });
  return {
    general: { name: 'Table car (renault-medium size)', code: `TABLE-CAR-${seed}` },
    questions,
    rules,
    pricing: { base_price: '18990.00' },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--seed');
  const seed = at >= 0 ? Number(process.argv[at + 1]) : 1;
  process.stdout.write(`${JSON.stringify(generateTableCar(seed))}\n`);
}
