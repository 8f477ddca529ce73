/**
 * Guided configuration against brute force on random small models (docs/model-format.md
 * "Guided configuration"): price bounds per option and per line, `allowed` ranges, the
 * nearest valid configuration (minimal, keeps the forced pick, earlier answers kept on
 * ties) over the diagram and past the compile budget, and the cheapest completion.
 */
import { describe, expect, it } from 'vitest';
import { compileDocument, evaluate, type CompiledModel } from '../../../src/engine/index.js';
import {
  type Assignment,
  agrees,
  celValue,
  domainCount,
  type Fix,
  prng,
  randomModel,
  userFixes,
  validAssignments,
} from '../consistency/random-model.js';

const MODELS = Number(process.env.GUIDED_MODELS ?? 40);
type Random = () => number;
type Specs = ReturnType<typeof randomModel>['specs'];
type Answers = Record<string, { values: unknown[] }>;

const PRICES = ['0', '5.25', '10', '99.99', '-3.5', '120'];
const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)];

/**
 * The random model without soft values (a completion's total is then the total of its
 * answers) with option prices, a base price and, by `pricing`, decomposable terms (a BOM
 * item and an amount adjustment on one question, percents ≥ 0) or terms that are not (a
 * BOM item on two questions, a conditional percent).
 */
function pricedModel(random: Random, pricing: 'decomposable' | 'other') {
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

function answersOf(specs: Specs, assignment: Assignment): Answers {
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

function randomAnswers(random: Random, specs: Specs, density: number): Answers {
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

const request = (questions: unknown, extra: Record<string, unknown> = {}) => ({
  modelId: 1,
  versionNumber: 1,
  questions,
  ...extra,
});

/** The fixes of "the answers minus question q", plus q taking `option` (its layer value). */
function withValue(fixes: readonly Fix[], specs: Specs, q: number, o: number): Fix[] {
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

const cents = (text: string): number => Math.round(Number(text) * 100);

function totalsOf(model: CompiledModel, specs: Specs, valid: Assignment[]): number[] {
  return valid.map((assignment) =>
    cents(
      evaluate(model, request(answersOf(specs, assignment), { priceBounds: false, view: 'compact' }))
        .line.pricing.total,
    ),
  );
}

/** Answer units as the contract counts them: one per single answer, one per selected option. */
function units(specs: Specs, answers: Answers): Array<{ q: number; bit: number; code: number }> {
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

const keeps = (unit: { q: number; bit: number; code: number }, assignment: Assignment) =>
  unit.bit !== 0 ? (assignment[unit.q] & unit.bit) !== 0 : assignment[unit.q] === unit.code;

describe('guided configuration against brute force on random small models', () => {
  it(`${MODELS} models: price bounds, ranges, cheapest completion`, () => {
    let checkedOptions = 0;
    let inexact = 0;
    for (let seed = 1; seed <= MODELS; seed++) {
      const random = prng(seed);
      const kind = seed % 3 === 0 ? 'other' : 'decomposable';
      const { document, specs } = pricedModel(random, kind);
      const compiled = compileDocument(document);
      if (!compiled.ok) continue;
      const model = compiled.model;
      const valid = validAssignments(model, specs);
      if (valid.length > 1500) continue;
      const totals = totalsOf(model, specs, valid);
      for (let r = 0; r < 6; r++) {
        const answers = randomAnswers(random, specs, 0.35);
        // Past the work budget (every 3rd request): sound bounds from the supported values.
        const boxed = r % 3 === 2;
        const result = evaluate(model, request(answers, boxed ? { priceBoundsWork: -1 } : {}));
        const line = result.line;
        const context = `seed ${seed} ${kind} answers ${JSON.stringify(answers)} boxed ${boxed}`;
        const fixes = userFixes(line, specs);
        const inRange = totals.filter((_, i) => agrees(valid[i], fixes));
        const exact = line.price_bounds?.exact === true;
        if (kind === 'other' || boxed) expect(exact, context).toBe(false);
        if (!exact) inexact++;
        if (inRange.length === 0) expect(line.price_range, context).toBeNull();
        else {
          const range = line.price_range as { min: string; max: string };
          if (exact) {
            expect(cents(range.min), context).toBe(Math.min(...inRange));
            expect(cents(range.max), context).toBe(Math.max(...inRange));
          } else {
            expect(cents(range.min), context).toBeLessThanOrEqual(Math.min(...inRange));
            expect(cents(range.max), context).toBeGreaterThanOrEqual(Math.max(...inRange));
          }
        }
        specs.forEach((spec, q) => {
          const question = line.questions[q];
          if (spec.type === 'integer') {
            const admissible: number[] = [];
            for (let code = 1; code < domainCount(spec); code++) {
              const others = fixes.filter((fix) => fix.question !== q);
              const fix = { question: q, code, mask: -1 };
              if (valid.some((assignment) => agrees(assignment, [...others, fix])))
                admissible.push((spec.min as number) + code - 1);
            }
            const listed = (question.allowed ?? []).flatMap(([from, to]) =>
              Array.from({ length: to - from + 1 }, (_, i) => from + i),
            );
            expect(listed, `${context} ${spec.key}`).toEqual(admissible);
            return;
          }
          if (spec.type !== 'choice' && spec.type !== 'multi_choice') return;
          (question.options ?? []).forEach((option, o) => {
            if (!option.available) return;
            const through = totals.filter((_, i) =>
              agrees(valid[i], withValue(fixes, specs, q, o)),
            );
            const where = `${context} ${spec.key}.${option.key}`;
            expect(through.length, where).toBeGreaterThan(0);
            expect(option.price_from, where).toBeDefined();
            const from = cents(option.price_from as string);
            const to = cents(option.price_to as string);
            if (exact) {
              expect(from, where).toBe(Math.min(...through));
              expect(to, where).toBe(Math.max(...through));
            } else {
              expect(from, where).toBeLessThanOrEqual(Math.min(...through));
              expect(to, where).toBeGreaterThanOrEqual(Math.max(...through));
            }
            checkedOptions++;
          });
        });
        // The cheapest completion: valid, keeps the answers, totals the least of the range.
        if (inRange.length > 0 && exact && !boxed) {
          const completed = evaluate(model, request(answers, { complete: 'cheapest' }));
          expect(
            completed.errors.filter((error) => error.code === 'conflict'),
            context,
          ).toEqual([]);
          expect(cents(completed.line.pricing.total), context).toBe(Math.min(...inRange));
          for (const question of completed.line.questions)
            if (answers[question.key] === undefined && question.values.length > 0)
              expect(question.source, context).toMatch(/completion|default|trigger/);
        }
      }
    }
    expect(checkedOptions).toBeGreaterThan(100);
    expect(inexact).toBeGreaterThan(10);
  }, 300_000);

  for (const budget of ['compiled', 'past the budget'] as const)
    it(`${MODELS} models (${budget}): the resolution is minimal and keeps the forced pick`, () => {
      let resolved = 0;
      let forcedPicks = 0;
      for (let seed = 1; seed <= MODELS; seed++) {
        const random = prng(1000 + seed);
        const { document, specs } = pricedModel(random, 'decomposable');
        const compiled = compileDocument(
          document,
          budget === 'compiled' ? {} : { consistencyMs: 0 },
        );
        if (!compiled.ok) continue;
        const model = compiled.model;
        expect(model.consistency.compiled).toBe(budget === 'compiled');
        const valid = validAssignments(model, specs);
        for (let r = 0; r < 4; r++) {
          const answers = randomAnswers(random, specs, 0.7);
          const forcedAt = random() < 0.6 ? Math.floor(random() * specs.length) : -1;
          let resolve: true | { question: string; value: unknown } = true;
          let forcedFix: Fix | undefined;
          if (forcedAt >= 0) {
            const spec = specs[forcedAt];
            const code = 1 + Math.floor(random() * (domainCount(spec) - 1));
            const value = celValue(spec, code);
            if (spec.type === 'multi_choice') {
              const o = Math.floor(random() * spec.options.length);
              resolve = { question: spec.key, value: spec.options[o] };
              forcedFix = { question: forcedAt, code: 1 << o, mask: 1 << o };
            } else {
              resolve = { question: spec.key, value: typeof value === 'bigint' ? Number(value) : value };
              forcedFix = { question: forcedAt, code, mask: -1 };
            }
            forcedPicks++;
          }
          const result = evaluate(model, request(answers, { resolve }));
          const context = `seed ${seed} answers ${JSON.stringify(answers)} resolve ${JSON.stringify(resolve)}`;
          const candidates = valid.filter(
            (assignment) => forcedFix === undefined || agrees(assignment, [forcedFix]),
          );
          const resolution = result.line.resolution;
          expect(resolution, context).toBeDefined();
          if (candidates.length === 0) {
            expect(result.errors.map((error) => error.code), context).toContain(
              'resolution_impossible',
            );
            continue;
          }
          resolved++;
          // The answer units the contract counts (the forced question's own do not count).
          const counted = units(specs, answers).filter((unit) => unit.q !== forcedAt);
          const cost = (assignment: Assignment) =>
            counted.filter((unit) => !keeps(unit, assignment)).length;
          const least = Math.min(...candidates.map(cost));
          // What the resolution changed, in the same units.
          const after: Answers = {};
          for (const question of result.line.questions)
            if (question.source === 'user' || question.source === 'completion')
              after[question.key] = { values: question.values };
          const changedUnits = (resolution?.changes ?? []).reduce((sum, change) => {
            const q = specs.findIndex((spec) => spec.key === change.question);
            if (q === forcedAt) return sum;
            if (specs[q].type !== 'multi_choice') return sum + 1;
            return sum + change.from.filter((value) => !change.to.includes(value)).length;
          }, 0);
          if (resolution?.exact) expect(changedUnits, context).toBe(least);
          else expect(changedUnits, context).toBeGreaterThanOrEqual(least);
          // A' is completable and keeps the forced pick.
          const fixes = userFixes(result.line, specs);
          expect(
            valid.some((assignment) => agrees(assignment, [...fixes, ...(forcedFix ? [forcedFix] : [])])),
            context,
          ).toBe(true);
          expect(result.errors.filter((error) => error.code === 'conflict'), context).toEqual([]);
          if (budget === 'compiled') {
            expect(resolution?.exact, context).toBe(true);
            // Ties keep the answers of earlier questions: the kept units are the
            // lexicographically greatest among the nearest configurations.
            const kept = (assignment: Assignment) =>
              counted.map((unit) => (keeps(unit, assignment) ? '1' : '0')).join('');
            const best = candidates
              .filter((assignment) => cost(assignment) === least)
              .map(kept)
              .sort()
              .reverse()[0];
            const mine = counted
              .map((unit) => {
                const change = resolution?.changes.find((c) => c.question === specs[unit.q].key);
                if (change === undefined) return '1';
                if (unit.bit === 0) return '0';
                const option = specs[unit.q].options[Math.log2(unit.bit)];
                return change.to.includes(option) ? '1' : '0';
              })
              .join('');
            expect(mine, context).toBe(best);
          }
        }
      }
      expect(resolved).toBeGreaterThan(60);
      expect(forcedPicks).toBeGreaterThan(30);
    }, 300_000);

  it('drops answers that do not fit the model and lists them as changes', () => {
    const random = prng(7);
    const { document } = pricedModel(random, 'decomposable');
    const questions = document.questions as Array<Record<string, unknown>>;
    questions.push(
      { key: 'size', type: 'integer', label: 'size', min: 1, max: 5 },
      { key: 'pick', type: 'choice', label: 'pick', options: [{ key: 'a', label: 'a' }] },
    );
    const compiled = compileDocument(document);
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
    const result = evaluate(
      compiled.model,
      request(
        { gone: { values: ['x'] }, size: { values: [9] }, pick: { values: ['750'] } },
        { resolve: true },
      ),
    );
    expect(result.errors.map((error) => error.code)).not.toContain('unknown_question');
    expect(result.line.resolution?.changes).toEqual([
      { question: 'size', from: [9], to: [] },
      { question: 'pick', from: ['750'], to: [] },
      { question: 'gone', from: ['x'], to: [] },
    ]);
  });
});
