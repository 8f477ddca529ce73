/**
 * A TypeScript port of /work/shared/tools/gen-model.mjs (same output for the same
 * arguments, checked by test/engine/generated.test.ts), so that `npm run bench` also
 * works from a clean clone that has no shared tools folder.
 */
type Json = Record<string, unknown>;

export interface GeneratedModel {
  model: Json;
  answers: Record<string, { values: unknown[] }>;
}

const pad = (i: number): string => String(i).padStart(5, '0');

export function generateModel(nQuestions: number, nOptions = 5): GeneratedModel {
  const questions: Json[] = [];
  const variables: Json[] = [];
  const rules: Json[] = [];
  const triggers: Json[] = [];
  const bom: Json[] = [];
  const answers: Record<string, { values: unknown[] }> = {};
  const nl: Record<string, string> = {};

  for (let i = 0; i < nQuestions; i++) {
    const key = `q${pad(i)}`;
    if (i % 4 === 3) {
      questions.push({
        key,
        type: 'integer',
        label: `Size ${i}`,
        required: true,
        min: 0,
        max: 10000,
        step: 1,
      });
      answers[key] = { values: [100 + (i % 50)] };
      variables.push({ key: `v${pad(i)}`, expr: `${key} * 2 + ${i % 7}` });
      rules.push({
        key: `r${pad(i)}`,
        when: `${key} > 5000`,
        assert: `v${pad(i)} < 15000`,
        message: `Size ${i} too large`,
      });
      bom.push({
        key: `b${pad(i)}`,
        sku: `SKU-${pad(i)}`,
        description: `Part ${i}`,
        when: `${key} > 0`,
        quantity: `${key} / 100.0`,
        unit: 'm',
        unit_price: `${(i % 13) + 1}.25`,
      });
      continue;
    }
    const options: Json[] = [];
    for (let o = 1; o <= nOptions; o++) {
      const option: Json = { key: `o${o}`, label: `Option ${o}`, price: `${o}.10` };
      if (o === nOptions && i > 0 && (i - 1) % 4 !== 3)
        option.available_if = `q${pad(i - 1)} != 'o${nOptions}'`;
      options.push(option);
    }
    questions.push({
      key,
      type: 'choice',
      label: `Choice ${i}`,
      required: i % 2 === 0,
      options,
      ...(i % 2 ? { default: 'o2' } : {}),
    });
    if (i % 2 === 0) answers[key] = { values: ['o1'] };
    nl[`questions.${key}.label`] = `Keuze ${i}`;
    if (i > 0 && i % 4 === 1) {
      const rows = Array.from({ length: nOptions }, (_, o) => [
        `o${o + 1}`,
        `o${((o + 1) % nOptions) + 1}`,
      ]);
      rules.push({
        key: `t${pad(i)}`,
        allowed: { columns: [`q${pad(i - 1)}`, key], rows: [...rows, ['o1', 'o1'], ['o1', 'o2']] },
        message: `Choices ${i - 1} and ${i} do not fit`,
      });
    }
    if (i % 20 === 0 && i + 1 < nQuestions) {
      triggers.push({
        key: `g${pad(i)}`,
        when: `${key} == 'o3'`,
        set: { [`q${pad(i + 1)}`]: 'o4' },
      });
    }
    bom.push({
      key: `b${pad(i)}`,
      sku: `SKU-${pad(i)}`,
      description: `Part ${i}`,
      when: `${key} != 'o${nOptions}'`,
      quantity: 1,
      unit: 'pcs',
      unit_price: `${(i % 9) + 1}.50`,
    });
  }

  const model: Json = {
    general: {
      name: `Synthetic model with ${nQuestions} questions`,
      code: `SYN-${nQuestions}`,
      currency: 'EUR',
      default_language: 'en',
    },
    questions,
    variables,
    rules,
    triggers,
    bom_items: bom,
    pricing: {
      base_price: '100.00',
      adjustments: [{ key: 'volume', label: 'Volume discount', percent: '-5' }],
      rounding: { scale: 2, mode: 'half_even' },
    },
    translation: { nl },
  };
  return { model, answers };
}
