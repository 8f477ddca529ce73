/**
 * The fallback past the compile budget (generalized arc consistency over each part, then
 * a completion search within a budget) against brute force on random small models:
 * propagation alone is sound (never unavailable when a valid completion exists;
 * conflicts and refusals proven), never weaker than checking one constraint at a time,
 * and exact when the constraints' hypergraph is Berge-acyclic (a single table with unary
 * bounds, among others); with the search, which these models never exhaust, availability
 * and conflict sets are exact.
 */
import { describe, expect, it } from 'vitest';
import { compileDocument, type CompiledModel } from '../../../src/engine/work.js';
import { evaluateConfiguration } from '../../../src/engine/evaluate/evaluate.js';
import type { AnswerUnit } from '../../../src/engine/evaluate/answer-units.js';
import { restrict } from '../../../src/engine/evaluate/answer-units.js';
import { propagatedCheck } from '../../../src/engine/evaluate/propagated.js';
import { propagatorOf } from '../../../src/engine/consistency/prepared.js';
import {
  type Assignment,
  allAssignments,
  validAssignments,
  celValue,
  type Constraint,
  constraintsOf,
  domainCount,
  prng,
  randomModel,
  agrees,
  type Fix,
  userFixes,
} from './random-model.js';

type Specs = ReturnType<typeof randomModel>['specs'];
const MODELS = Number(process.env.PROPAGATION_MODELS ?? 100);

/** The model reduced to one table (the first), literal `required`, no other expressions. */
function singleTable(document: Record<string, unknown>): Record<string, unknown> {
  const questions = (document.questions as Array<Record<string, unknown>>).map((question) => {
    const copy: Record<string, unknown> = { ...question };
    delete copy.visible_if;
    if (typeof copy.required !== 'boolean') delete copy.required;
    if (Array.isArray(copy.options))
      copy.options = (copy.options as Array<Record<string, unknown>>).map(
        ({ available_if: _, ...option }) => option,
      );
    return copy;
  });
  const rules = (document.rules as Array<Record<string, unknown>>).filter((rule) => rule.allowed);
  return { ...document, questions, rules: rules.slice(0, 1) };
}

/** Berge-acyclic: the bipartite graph of layers and constraints (by scope) has no cycle. */
function bergeAcyclic(constraints: readonly Constraint[]): boolean {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let at = x;
    while ((parent.get(at) ?? at) !== at) at = parent.get(at) as string;
    return at;
  };
  for (const [i, constraint] of constraints.entries()) {
    for (const layer of new Set(constraint.scope)) {
      const a = find(`c${i}`);
      const b = find(`v${layer}`);
      if (a === b) return false;
      parent.set(a, b);
    }
  }
  return true;
}

/** A brute-force oracle over every assignment: exact, and one constraint at a time. */
class Oracle {
  /** Per constraint: the questions it reads and its satisfying assignments of them. */
  private readonly locals: Array<{ questions: Set<number>; satisfying: Assignment[] }>;
  private readonly valid: Assignment[];
  constructor(model: CompiledModel, specs: Specs) {
    this.valid = validAssignments(model, specs);
    this.locals = constraintsOf(model, specs).map((constraint) => {
      const questions = new Set(
        constraint.scope.map((layer) =>
          specs.findIndex((spec) => spec.key === layer.split('.')[0]),
        ),
      );
      // Only the constraint's questions vary (it reads no other): the rest stay 0.
      const partial = allAssignments(specs.filter((_, q) => questions.has(q)));
      const order = [...questions].sort((a, b) => a - b);
      const satisfying = partial
        .map((values) => {
          const assignment = specs.map(() => 0);
          order.forEach((q, i) => (assignment[q] = values[i]));
          return assignment;
        })
        .filter((assignment) => constraint.holds(assignment));
      return { questions, satisfying };
    });
  }
  count(fixes: readonly Fix[]): number {
    return this.valid.filter((a) => agrees(a, fixes)).length;
  }
  exact(fixes: readonly Fix[]): boolean {
    return this.valid.some((a) => agrees(a, fixes));
  }
  /** Every constraint alone has an assignment agreeing with the fixes. */
  local(fixes: readonly Fix[]): boolean {
    return this.locals.every(({ questions, satisfying }) => {
      const relevant = fixes.filter((fix) => questions.has(fix.question));
      return satisfying.some((a) => agrees(a, relevant));
    });
  }
}

/** Fixes as the engine's answer units (for the propagation check itself). */
function unitsOf(model: CompiledModel, specs: Specs, fixes: readonly Fix[]): AnswerUnit[] {
  return fixes.map((fix) => {
    const first = model.consistency.firstLayer[fix.question];
    if (specs[fix.question].type !== 'multi_choice')
      return { question: fix.question, layers: [first], values: [fix.code] };
    const layers = specs[fix.question].options.flatMap((_, o) =>
      (fix.mask & (1 << o)) !== 0 ? [first + o] : [],
    );
    return { question: fix.question, layers, values: layers.map(() => 1) };
  });
}

function randomAnswers(random: () => number, specs: Specs): Record<string, { values: unknown[] }> {
  const answers: Record<string, { values: unknown[] }> = {};
  for (const spec of specs) {
    if (!(random() < 0.45)) continue;
    const value = celValue(spec, 1 + Math.floor(random() * (domainCount(spec) - 1)));
    answers[spec.key] = {
      values: Array.isArray(value) ? value : [typeof value === 'bigint' ? Number(value) : value],
    };
  }
  return answers;
}

describe('propagation past the compile budget against brute force', () => {
  it.each([
    { models: MODELS, logical: false },
    // The same with clause, cardinality, requires and excludes rules added.
    { models: Math.ceil(MODELS * 0.6), logical: true },
  ])(
    '$models random models (logical rules $logical) and their single-table reductions',
    ({ models, logical }) => {
      const seen = {
        acyclic: 0,
        stronger: 0,
        refutedBySearch: 0,
        options: 0,
        values: 0,
        conflicts: 0,
        blocked: 0,
      };
      for (let seed = 1; seed <= models; seed++) {
        const random = prng(7_000 + seed);
        const generated = randomModel(random, { logical });
        for (const document of [generated.document, singleTable(generated.document)]) {
          const specs = generated.specs;
          const context = `seed ${seed} ${document === generated.document ? 'model' : 'single table'}`;
          const exactCompile = compileDocument(document);
          const fallback = compileDocument(document, { consistencyMs: 0 });
          if (!fallback.ok) {
            // A refusal past the budget is proven: the exact compile refuses it too.
            expect(exactCompile.ok, context).toBe(false);
            expect(new Set(fallback.problems.map((p) => p.code)), context).toEqual(
              new Set(['inconsistent_model']),
            );
            continue;
          }
          const model = fallback.model;
          expect(model.consistency.compiled, context).toBe(false);
          const oracle = new Oracle(model, specs);
          const acyclic = bergeAcyclic(constraintsOf(model, specs));
          if (acyclic) seen.acyclic++;
          if (!exactCompile.ok) {
            expect(acyclic, `${context}: propagation decides acyclic models`).toBe(false);
            continue;
          }
          const analysis = model.consistency.analysis;
          expect(analysis.exact).toBe(false);
          expect(analysis.configurations, context).toBeNull();
          expect(
            BigInt(analysis.configurations_at_most!) >= BigInt(oracle.count([])),
            context,
          ).toBe(true);
          const exactDead = new Set(exactCompile.model.consistency.analysis.dead_options);
          for (const path of analysis.dead_options) expect(exactDead.has(path), context).toBe(true);
          if (acyclic) expect([...analysis.dead_options].sort()).toEqual([...exactDead].sort());
          // The answers' check (propagation, then the search): what `conflict` sets are minimal for.
          const check = propagatedCheck(model.consistency);
          const propagator = propagatorOf(model.consistency);
          /** Whether propagation alone keeps `own` in the closure of `others` (before the search). */
          const propagationKeeps = (others: readonly Fix[], own: Fix): boolean => {
            const form = model.consistency;
            const domains = propagator.closure(restrict(form, unitsOf(model, specs, others)));
            const [unit] = unitsOf(model, specs, [own]);
            return (
              domains !== undefined &&
              unit.layers.every((layer, i) => domains[form.valueBase[layer] + unit.values[i]] === 1)
            );
          };

          for (let request = 0; request < 6; request++) {
            const answers = randomAnswers(random, specs);
            const result = evaluateConfiguration(model, {
              modelId: 1,
              versionNumber: 1,
              questions: answers,
            });
            const line = result.line;
            const at = `${context} answers ${JSON.stringify(answers)}`;
            const fixes = userFixes(line, specs);
            const keysOf = (set: readonly string[]): Fix[] =>
              fixes.filter((fix) => set.includes(specs[fix.question].key));
            /**
             * The set conflicts; without any one of its answers, `holds` (a valid completion
             * exists, or propagation keeps it: minimal for the oracle that refuted it).
             */
            const expectMinimal = (
              set: readonly string[],
              extra: readonly Fix[],
              holds: (fixes: Fix[]) => boolean = (fixes) => oracle.exact(fixes),
            ): void => {
              expect(oracle.exact([...keysOf(set), ...extra]), `${at}: ${set} must conflict`).toBe(
                false,
              );
              for (const key of set) {
                const rest = [...keysOf(set.filter((other) => other !== key)), ...extra];
                expect(holds(rest), `${at}: ${key} needed`).toBe(true);
              }
            };
            expect(line.consistency.exact).toBe(false);
            const count = oracle.count(fixes);
            expect(line.consistency.configurations, at).toBeNull();
            const bound = BigInt(line.consistency.configurations_at_most ?? -1);
            expect(bound >= BigInt(count), at).toBe(true);
            const problems = result.errors.filter((error) => error.code === 'conflict');
            const conflict = (problems[0]?.answers ?? []).map((answer) => answer.question);
            // One per answer of the set, each naming the whole set.
            expect(
              problems.map((p) => p.path),
              at,
            ).toEqual(conflict.map((q) => `questions.${q}`));
            if (conflict.length > 0) {
              seen.conflicts++;
              expectMinimal(conflict, [], (fixes) => check(unitsOf(model, specs, fixes)));
            }
            if (acyclic && count === 0)
              expect(line.consistency.configurations_at_most, at).toBe('0');

            // Small models never exhaust the search's budget: every value shown is confirmed.
            expect(line.consistency.unconfirmed, at).toBeUndefined();
            const judge = (reported: boolean, others: Fix[], own: Fix, label: string): void => {
              const exact = oracle.exact([...others, own]);
              const local = oracle.local([...others, own]);
              expect(reported, `${at} ${label}: exact`).toBe(exact);
              if (!local) expect(reported, `${at} ${label}: never weaker than local`).toBe(false);
              if (!exact && propagationKeeps(others, own)) seen.refutedBySearch++;
              if (!reported && local) seen.stronger++;
            };
            specs.forEach((spec, q) => {
              const others = (o: number): Fix[] =>
                fixes.flatMap((fix) => {
                  if (fix.question !== q) return [fix];
                  if (spec.type !== 'multi_choice') return [];
                  return [{ ...fix, mask: fix.mask & ~(1 << o) }];
                });
              const question = line.questions[q];
              if (spec.type === 'choice' || spec.type === 'multi_choice') {
                spec.options.forEach((_, o) => {
                  const own: Fix =
                    spec.type === 'multi_choice'
                      ? { question: q, code: 1 << o, mask: 1 << o }
                      : { question: q, code: o + 1, mask: -1 };
                  const option = question.options?.[o];
                  judge(option?.available === true, others(o), own, `${spec.key}.${option?.key}`);
                  if (option?.unavailable_because.includes('blocked_by_conflict') === true) {
                    // Blocked: the other answers alone have no completion (sound).
                    expect(option.unavailable_because, at).toEqual(['blocked_by_conflict']);
                    expect(oracle.exact(others(o)), `${at} ${spec.key}.${option.key}`).toBe(false);
                    seen.blocked++;
                  }
                  // Refuted by propagation: minimal for propagation; only by the search: minimal.
                  const bySearch = propagationKeeps(others(o), own);
                  if (option?.available === false)
                    expectMinimal(option.conflicts_with, [own], (fixes) =>
                      bySearch
                        ? oracle.exact(fixes)
                        : propagator.closure(
                            restrict(model.consistency, unitsOf(model, specs, fixes)),
                          ) !== undefined,
                    );
                  else expect(option?.conflicts_with).toEqual([]);
                  seen.options++;
                });
                return;
              }
              // Boolean and integer values: `unavailable_values`.
              for (let code = 1; code < domainCount(spec); code++) {
                const value = celValue(spec, code);
                const shown = typeof value === 'bigint' ? Number(value) : value;
                const unavailable = question.unavailable_values ?? [];
                judge(
                  !unavailable.includes(shown as number | boolean),
                  others(0),
                  { question: q, code, mask: -1 },
                  `${spec.key}=${String(shown)}`,
                );
                seen.values++;
              }
            });
          }
        }
      }
      // Every branch is exercised: acyclic models, propagation stronger than one
      // constraint at a time, values propagation keeps on cyclic ones that the search refutes,
      // conflicts.
      // (Logical rules add constraints: fewer of those models are acyclic.)
      expect(seen.acyclic, JSON.stringify(seen)).toBeGreaterThan(logical ? models / 5 : models / 2);
      expect(seen.stronger, JSON.stringify(seen)).toBeGreaterThan(0);
      expect(seen.refutedBySearch, JSON.stringify(seen)).toBeGreaterThan(0);
      expect(seen.conflicts, JSON.stringify(seen)).toBeGreaterThan(0);
      expect(seen.blocked, JSON.stringify(seen)).toBeGreaterThan(0);
      expect(seen.values, JSON.stringify(seen)).toBeGreaterThan(models);
    },
    300_000,
  );
});
