#!/usr/bin/env node
// Writes a synthetic model of a chosen size (docs/model-format.md) and a valid set of
// answers for it, for benchmarks and scale tests. Adapted from the project's reference
// generator; the same arguments always give the same model.
// usage: node tools/gen-model.mjs --questions 1000 [--options 5] [--out model.json] [--answers answers.json]
// As a module: import { generateModel } from './gen-model.mjs' → { model, answers }.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const pad = (i) => String(i).padStart(5, '0');

/** The model of `nQuestions` questions with `nOptions` options per choice, and its answers. */
export function generateModel(nQuestions, nOptions = 5) {
  const questions = [];
  const variables = [];
  const rules = [];
  const triggers = [];
  const bom = [];
  const answers = {};
  const translation = { nl: {} };

  for (let i = 0; i < nQuestions; i++) {
    const key = `q${pad(i)}`;
    if (i % 4 === 3) {
      // every fourth question is a number
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
    } else {
      const options = [];
      for (let o = 1; o <= nOptions; o++) {
        const opt = { key: `o${o}`, label: `Option ${o}`, price: `${o}.10` };
        if (o === nOptions && i > 0 && (i - 1) % 4 !== 3)
          opt.available_if = `q${pad(i - 1)} != 'o${nOptions}'`;
        options.push(opt);
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
      translation.nl[`questions.${key}.label`] = `Keuze ${i}`;
      if (i > 0 && i % 4 === 1) {
        rules.push({
          key: `t${pad(i)}`,
          allowed: {
            columns: [`q${pad(i - 1)}`, key],
            rows: Array.from({ length: nOptions }, (_, o) => [
              `o${o + 1}`,
              `o${((o + 1) % nOptions) + 1}`,
            ]).concat([
              ['o1', 'o1'],
              ['o1', 'o2'],
            ]),
          },
          message: `Choices ${i - 1} and ${i} do not fit`,
        });
      }
      if (i % 20 === 0 && i + 1 < nQuestions) {
        // the target, q(i+1), is an optional choice with a default: the trigger may replace it
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
  }

  const model = {
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
    translation,
  };
  return { model, answers };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = Object.fromEntries(
    process.argv
      .slice(2)
      .reduce(
        (pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs),
        [],
      ),
  );
  const out = args.out ?? 'model.json';
  const answersOut = args.answers ?? 'answers.json';
  const { model, answers } = generateModel(
    Number(args.questions ?? 1000),
    Number(args.options ?? 5),
  );
  writeFileSync(out, JSON.stringify(model));
  writeFileSync(answersOut, JSON.stringify(answers));
  const count = (list) => (list ?? []).length;
  console.log(
    `${out}: ${count(model.questions)} questions, ${count(model.variables)} variables, ${count(model.rules)} rules, ${count(model.triggers)} triggers, ${count(model.bom_items)} BOM items`,
  );
}
