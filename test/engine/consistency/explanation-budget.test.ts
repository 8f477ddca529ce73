import { describe, expect, it } from 'vitest';
import {
  type CartLine,
  compileDocument,
  type CompiledModel,
  type Evaluation,
  compactLine,
} from '../../../src/engine/work.js';
import { evaluateConfiguration } from '../../../src/engine/evaluate/evaluate.js';
import {
  type Assignment,
  celValue,
  domainCount,
  prng,
  randomModel,
  validAssignments,
  agrees,
  type Fix,
  userFixes,
} from './random-model.js';

/**
 * The explanation budget (EngineLimits.explanationWork, docs/adr/0061-explanation-budget.md)
 * against brute force on random small models: availability is the same with a budget of
 * nothing, a small one and a huge one; every explanation given is minimal; every
 * unavailable option without one says `explained: false` (and only those); a conflict set
 * cut by the budget still conflicts.
 */
const MODELS = Number(process.env.CONSISTENCY_MODELS ?? 80);
const BUDGETS = [0, 40, 400, 1e12];

type Specs = ReturnType<typeof randomModel>['specs'];

function randomAnswers(random: () => number, specs: Specs): Record<string, { values: unknown[] }> {
  const answers: Record<string, { values: unknown[] }> = {};
  for (const spec of specs) {
    if (!(random() < 0.5)) continue;
    const value = celValue(spec, 1 + Math.floor(random() * (domainCount(spec) - 1)));
    answers[spec.key] = {
      values: Array.isArray(value) ? value : [typeof value === 'bigint' ? Number(value) : value],
    };
  }
  return answers;
}

/** What availability decides (never the budget): per option, per value, the count, errors. */
function availability(result: Evaluation, conflicting: boolean): unknown {
  const { line } = result;
  return {
    valid: result.valid,
    consistency: line.consistency,
    questions: line.questions.map((q) => ({
      values: q.values,
      suppressed: q.suppressed,
      available: q.options?.map((o) => o.available),
      unavailable_values: q.unavailable_values,
    })),
    // A conflict set cut by the budget names every answer (a single answer with an error
    // of its own gets no second one only when the set is that answer), and an answer in the
    // set has no `option_unavailable`, nor its rules a `rule_failed`, besides (ADR 0092):
    // conflicts and those aside.
    errors: result.errors
      .filter((e) => e.code !== 'conflict' && !(conflicting && mayStandFor(e.path)))
      .map((e) => `${e.code} ${e.path}`),
  };
}

/** An `option_unavailable` or `rule_failed` that some budget's conflict set may stand for. */
function mayStandFor(path: string | undefined): boolean {
  return path !== undefined && /^(questions\.[^.]+\.values\[|rules\.)/.test(path);
}

/** Whether the answers have no completion in any of these evaluations (a conflict). */
function conflictIn(results: readonly Evaluation[]): boolean {
  return results.some(
    (r) =>
      r.line.consistency.configurations === '0' ||
      r.line.consistency.configurations_at_most === '0' ||
      r.errors.some((e) => e.code === 'conflict'),
  );
}

describe('explanations within a work budget, against brute force', () => {
  it(`${MODELS} models × ${BUDGETS.length} budgets: same availability, minimal or explained: false`, () => {
    let explained = 0;
    let unexplained = 0;
    let cutConflicts = 0;
    let propagatedUnexplained = 0;
    for (let seed = 1; seed <= MODELS; seed++) {
      const random = prng(7_000 + seed);
      const { document, specs } = randomModel(random);
      const models = BUDGETS.map((explanationWork) =>
        compileDocument(document, { explanationWork }),
      );
      const fallback = [0, 1e12].map((explanationWork) =>
        compileDocument(document, { explanationWork, consistencyMs: 0 }),
      );
      const first = models[0];
      if (!first.ok) continue;
      const valid = validAssignments(first.model, specs);
      for (let request = 0; request < 5; request++) {
        const questions = randomAnswers(random, specs);
        const context = `seed ${seed} answers ${JSON.stringify(questions)}`;
        const evaluate = (model: CompiledModel): Evaluation =>
          evaluateConfiguration(model, { modelId: 1, versionNumber: 1, questions });
        const results = models.map((compiled) => {
          if (!compiled.ok) throw new Error('the same document compiles once');
          return evaluate(compiled.model);
        });
        const conflicting = conflictIn(results);
        const reference = availability(results[results.length - 1], conflicting);
        results.forEach((result, b) => {
          const budget = `${context} budget ${BUDGETS[b]}`;
          expect(availability(result, conflicting), budget).toEqual(reference);
          const fixes = userFixes(result.line, specs);
          const conflict = result.errors
            .filter((error) => error.code === 'conflict')
            .map((error) => (error.path as string).slice('questions.'.length));
          if (conflict.length > 0) {
            // Cut or not, the set conflicts; with the whole budget it is minimal.
            expect(holds(valid, fixes, specs, conflict, []), budget).toBe(false);
            if (BUDGETS[b] >= 1e12) expectMinimal(valid, fixes, specs, conflict, [], budget);
            else if (conflict.length === fixes.length && conflict.length > 1) cutConflicts++;
          }
          const counts = checkOptions(result.line, valid, fixes, specs, budget);
          explained += counts.explained;
          unexplained += counts.unexplained;
          if (BUDGETS[b] >= 1e12) expect(counts.unexplained, budget).toBe(0);
          // The compact view carries `explained: false` as well.
          const compact = evaluateConfiguration(models[b].ok ? models[b].model : first.model, {
            modelId: 1,
            versionNumber: 1,
            questions,
            view: 'compact',
          });
          expect(JSON.stringify(compact.line.questions), budget).toBe(
            JSON.stringify(compactLine(result.line).questions),
          );
        });
        // Past the compile budget (propagation): the same availability with any budget.
        if (fallback[0].ok && fallback[1].ok) {
          const [tiny, huge] = [evaluate(fallback[0].model), evaluate(fallback[1].model)];
          const either = conflictIn([tiny, huge]);
          expect(availability(tiny, either), `${context} propagation`).toEqual(
            availability(huge, either),
          );
          for (const [q, question] of tiny.line.questions.entries()) {
            for (const [o, option] of (question.options ?? []).entries()) {
              const other = huge.line.questions[q].options?.[o];
              expect(other?.explained, `${context} propagation, huge budget`).toBeUndefined();
              if (option.explained === false) {
                propagatedUnexplained++;
                expect(option.available).toBe(false);
                expect(option.conflicts_with).toEqual([]);
              } else if (!option.available)
                expect(option.conflicts_with).toEqual(other?.conflicts_with);
            }
          }
        }
      }
    }
    // Every branch is exercised: explained and cut options, cut conflict sets.
    expect(explained, 'explained options').toBeGreaterThan(100);
    expect(unexplained, 'options past the budget').toBeGreaterThan(100);
    expect(propagatedUnexplained, 'options past the budget (propagation)').toBeGreaterThan(0);
    expect(cutConflicts, 'conflict sets cut by the budget').toBeGreaterThan(0);
  }, 300_000);
});

/** Per option: available as brute force says (elsewhere), explained minimal or marked. */
function checkOptions(
  line: CartLine,
  valid: readonly Assignment[],
  fixes: readonly Fix[],
  specs: Specs,
  context: string,
): { explained: number; unexplained: number } {
  let explained = 0;
  let unexplained = 0;
  specs.forEach((spec, q) => {
    if (spec.type !== 'choice' && spec.type !== 'multi_choice') return;
    (line.questions[q].options ?? []).forEach((reported, o) => {
      const at = `${context} ${spec.key}.${reported.key}`;
      if (reported.available) {
        expect(reported.explained, at).toBeUndefined();
        return;
      }
      expect(reported.unavailable_because.length, at).toBeGreaterThanOrEqual(0);
      if (reported.explained === false) {
        expect(reported.conflicts_with, at).toEqual([]);
        unexplained++;
        return;
      }
      expect(Object.keys(reported), at).not.toContain('explained');
      const others = fixes.flatMap((fix) => {
        if (fix.question !== q) return [fix];
        if (spec.type !== 'multi_choice') return [];
        return [{ ...fix, mask: fix.mask & ~(1 << o) }];
      });
      const option: Fix =
        spec.type === 'multi_choice'
          ? { question: q, code: 1 << o, mask: 1 << o }
          : { question: q, code: o + 1, mask: -1 };
      expectMinimal(valid, others, specs, reported.conflicts_with, [option], at);
      explained++;
    });
  });
  return { explained, unexplained };
}

/** Whether the answers of `keys` (with `extra`) have a valid completion. */
function holds(
  valid: readonly Assignment[],
  fixes: readonly Fix[],
  specs: Specs,
  keys: readonly string[],
  extra: readonly Fix[],
): boolean {
  const of = fixes.filter((fix) => keys.includes(specs[fix.question].key));
  return valid.some((assignment) => agrees(assignment, [...of, ...extra]));
}

/** `keys` with `extra` have no valid completion; without any one key they do. */
function expectMinimal(
  valid: readonly Assignment[],
  fixes: readonly Fix[],
  specs: Specs,
  keys: readonly string[],
  extra: readonly Fix[],
  context: string,
): void {
  expect(
    holds(valid, fixes, specs, keys, extra),
    `${context}: ${keys.join(',')} must conflict`,
  ).toBe(false);
  for (const key of keys) {
    const without = keys.filter((other) => other !== key);
    expect(holds(valid, fixes, specs, without, extra), `${context}: ${key} is needed`).toBe(true);
  }
}
