/**
 * Random priced models for the guided configuration property tests: the consistency
 * tests' random models (random-model.ts) without soft values, with option prices, BOM
 * items and adjustments, and the brute-force helpers both property tests share.
 */
import { compileDocument, evaluate, type CompiledModel } from '../../../src/engine/work.js';
import {
  type Assignment,
  celValue,
  domainCount,
  type Fix,
  randomModel,
} from '../consistency/random-model.js';

export const MODELS = Number(process.env.GUIDED_MODELS ?? 40);

/**
 * The three forms a guided query runs on: the diagram, the decision-DNNF (a model past the
 * diagram's budget, docs/adr/0193) and none (past the compile budget).
 */
export const FORMS = ['compiled', 'decision-DNNF', 'past the budget'] as const;
export type Form = (typeof FORMS)[number];

/** `document` compiled into `form`. */
export const compiledAs = (document: Record<string, unknown>, form: Form) =>
  compileDocument(document, form === 'past the budget' ? { consistencyMs: 0 } : {}, {
    diagram: form === 'compiled',
  });
type Random = () => number;
export type Specs = ReturnType<typeof randomModel>['specs'];
export type Answers = Record<string, { values: unknown[] }>;

const PRICES = ['0', '5.25', '10', '99.99', '-3.5', '120'];
const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)];

/**
 * The random model without soft values (a completion's total is then the total of its
 * answers) with option prices, a base price and, by `pricing`, decomposable terms (a BOM
 * item and an amount adjustment on one question, percents ≥ 0) or terms that are not (a
 * BOM item on two questions, a conditional percent).
 */
export function pricedModel(random: Random, pricing: 'decomposable' | 'other') {
  const { document, specs } = randomModel(random);
  const questions = document.questions as Array<Record<string, unknown>>;
  for (const question of questions) {
    delete question.default;
    for (const option of (question.options as Array<Record<string, unknown>> | undefined) ?? [])
      if (random() < 0.7) option.price = pick(random, PRICES);
  }
  document.triggers = [];
  const choices = specs.filter((spec) => spec.type === 'choice');
  const atom = (spec: Specs[number]) => `${spec.key} == '${pick(random, spec.options)}'`;
  const bom: Array<Record<string, unknown>> = [
    { key: 'frame', sku: 'F', description: 'frame', quantity: 2, unit_price: '7.10' },
  ];
  const adjustments: Array<Record<string, unknown>> = [];
  if (choices.length > 0) {
    bom.push({
      key: 'one',
      sku: 'O',
      description: 'one',
      quantity: 3,
      unit_price: '4.05',
      when: atom(choices[0]),
      children: [{ key: 'kid', sku: 'K', description: 'kid', quantity: 2, unit_price: '1.10' }],
    });
    adjustments.push({ key: 'fee', label: 'fee', amount: '-12.00', when: atom(choices[0]) });
  }
  if (pricing === 'decomposable') {
    adjustments.length = 0;
    if (random() < 0.5) adjustments.push({ key: 'vat', label: 'VAT', percent: '19' });
    else if (choices.length > 0)
      adjustments.push({ key: 'fee', label: 'fee', amount: '-12.00', when: atom(choices[0]) });
  } else {
    const two = specs.filter((spec) => spec.type === 'choice' || spec.type === 'boolean');
    if (two.length >= 2)
      bom.push({
        key: 'two',
        sku: 'T',
        description: 'two',
        quantity: 1,
        unit_price: '33.00',
        when: `${two[0].key} != null && ${two[1].key} != null`,
      });
    if (choices.length > 0)
      adjustments.push({ key: 'promo', label: 'promo', percent: '-15', when: atom(choices[0]) });
    adjustments.push({ key: 'vat', label: 'VAT', percent: '8' });
  }
  document.bom_items = bom;
  document.pricing = { base_price: '100.00', adjustments };
  return { document, specs };
}

export function answersOf(specs: Specs, assignment: Assignment): Answers {
  const answers: Answers = {};
  specs.forEach((spec, q) => {
    const value = celValue(spec, assignment[q]);
    if (value === null) return;
    answers[spec.key] = {
      values: Array.isArray(value) ? value : [typeof value === 'bigint' ? Number(value) : value],
    };
  });
  return answers;
}

export function randomAnswers(random: Random, specs: Specs, density: number): Answers {
  const answers: Answers = {};
  specs.forEach((spec) => {
    if (random() >= density) return;
    const code = 1 + Math.floor(random() * (domainCount(spec) - 1));
    const value = celValue(spec, code);
    answers[spec.key] = {
      values: Array.isArray(value) ? value : [typeof value === 'bigint' ? Number(value) : value],
    };
  });
  return answers;
}

export const request = (questions: unknown, extra: Record<string, unknown> = {}) => ({
  modelId: 1,
  versionNumber: 1,
  questions,
  ...extra,
});

/** The fixes of "the answers minus question q", plus q taking `option` (its layer value). */
export function withValue(fixes: readonly Fix[], specs: Specs, q: number, o: number): Fix[] {
  const spec = specs[q];
  const others = fixes.flatMap((fix) => {
    if (fix.question !== q) return [fix];
    if (spec.type !== 'multi_choice') return [];
    return [{ ...fix, mask: fix.mask & ~(1 << o) }];
  });
  return [
    ...others,
    spec.type === 'multi_choice'
      ? { question: q, code: 1 << o, mask: 1 << o }
      : { question: q, code: o + 1, mask: -1 },
  ];
}

export const cents = (text: string): number => Math.round(Number(text) * 100);

export function totalsOf(model: CompiledModel, specs: Specs, valid: Assignment[]): number[] {
  return valid.map((assignment) =>
    cents(
      evaluate(
        model,
        request(answersOf(specs, assignment), { priceBounds: false, view: 'compact' }),
      ).line.pricing.total,
    ),
  );
}

/** Answer units as the contract counts them: one per single answer, one per selected option. */
export function units(
  specs: Specs,
  answers: Answers,
): Array<{ q: number; bit: number; code: number }> {
  const list: Array<{ q: number; bit: number; code: number }> = [];
  specs.forEach((spec, q) => {
    const values = answers[spec.key]?.values;
    if (values === undefined || values.length === 0) return;
    if (spec.type === 'multi_choice') {
      spec.options.forEach((option, o) => {
        if (values.includes(option)) list.push({ q, bit: 1 << o, code: -1 });
      });
      return;
    }
    const value = values[0];
    const code =
      spec.type === 'choice'
        ? spec.options.indexOf(value as string) + 1
        : spec.type === 'boolean'
          ? value === true
            ? 2
            : 1
          : (value as number) - (spec.min as number) + 1;
    list.push({ q, bit: 0, code });
  });
  return list;
}

export const keeps = (unit: { q: number; bit: number; code: number }, assignment: Assignment) =>
  unit.bit !== 0 ? (assignment[unit.q] & unit.bit) !== 0 : assignment[unit.q] === unit.code;
