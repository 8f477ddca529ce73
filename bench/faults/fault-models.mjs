/**
 * Models the fault scenarios, the isolation bench and their e2e tests upload: a model whose
 * compile takes seconds (bench/faults/fair-compiles.scenario.mjs,
 * test/e2e/fair-compiles.e2e.test.ts) and small ones that compile at once.
 */

/**
 * `count` choice questions of 10 options each and a rule across each pair of neighbours (in
 * a ring): its diagram grows with `count`, so the compile takes seconds from ~2,500
 * questions on (its time grows about linearly).
 */
export function chainedModel(code, count) {
  const options = Array.from({ length: 10 }, (_, o) => ({ key: `o${o}`, label: `Option ${o}` }));
  return {
    general: { name: `Chained ${code}`, code },
    questions: Array.from({ length: count }, (_, q) => ({
      key: `q${q}`,
      type: 'choice',
      label: `Question ${q}`,
      options,
    })),
    rules: Array.from({ length: count }, (_, r) => ({
      key: `r${r}`,
      when: `q${r} != null`,
      assert: `q${r} != 'o9' || q${(r + 1) % count} != 'o9'`,
      message: 'not both',
    })),
  };
}

/** One question (size S or L) at a base price of 10.00: compiles at once; `more` is merged in. */
export function sizeModel(code, more = {}) {
  return {
    general: { name: `Small ${code}`, code },
    questions: [
      {
        key: 'size',
        type: 'choice',
        label: 'Size',
        options: [
          { key: 's', label: 'S' },
          { key: 'l', label: 'L' },
        ],
      },
    ],
    pricing: { base_price: '10.00' },
    ...more,
  };
}

/** One required question (S, or L at 10.00 more) at a base price of 100.00: a line to add. */
export function pricedSizeModel(code, name = `Small ${code}`) {
  return {
    general: { name, code },
    questions: [
      {
        key: 'size',
        type: 'choice',
        label: 'Size',
        required: true,
        options: [
          { key: 's', label: 'S' },
          { key: 'l', label: 'L', price: '10.00' },
        ],
      },
    ],
    pricing: { base_price: '100.00' },
  };
}
