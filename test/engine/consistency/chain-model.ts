/** A model whose one segment counts past 2^53 (tests of exact counts). */

/**
 * `questions` choice questions of `options` options, each consecutive pair in a table of
 * two thirds of its combinations: one segment whose width is the options, whose count is
 * about (2/3 options)^questions.
 */
export function chainModel(questions: number, options: number, random: () => number) {
  const key = (q: number): string => `q${q}`;
  const rules = Array.from({ length: questions - 1 }, (_, q) => {
    const rows: string[][] = [];
    for (let a = 0; a < options; a++)
      for (let b = 0; b < options; b++) if (random() < 2 / 3) rows.push([`o${a}`, `o${b}`]);
    return { key: `t${q}`, message: 'no', allowed: { columns: [key(q), key(q + 1)], rows } };
  });
  const list = Array.from({ length: questions }, (_, q) => ({
    key: key(q),
    type: 'choice',
    label: key(q),
    options: Array.from({ length: options }, (_, o) => ({ key: `o${o}`, label: `${o}` })),
  }));
  return { general: { name: 'chain' }, questions: list, rules };
}
