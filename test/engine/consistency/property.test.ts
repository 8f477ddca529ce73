import { describe, expect, it } from 'vitest';
import { compileDocument, evaluate } from '../../../src/engine/work.js';
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

const MODELS = Number(process.env.CONSISTENCY_MODELS ?? 250);

describe('consistency against brute force on random small models', () => {
  it.each([
    { models: MODELS, logical: false, diagram: true },
    // The same models with clause, cardinality, requires and excludes rules added.
    { models: Math.ceil(MODELS * 0.4), logical: true, diagram: true },
    // The form a model past the diagram's budget gets: its decision-DNNF (docs/adr/0193).
    { models: Math.ceil(MODELS * 0.6), logical: false, diagram: false },
    { models: Math.ceil(MODELS * 0.4), logical: true, diagram: false },
  ])(
    '$models models, logical rules $logical, diagram $diagram: inconsistency, counts, dead options, availability, conflicts_with',
    ({ models, logical, diagram }) => {
      let checkedOptions = 0;
      let inconsistentModels = 0;
      let conflictingRequests = 0;
      let blockedOptions = 0;
      let softChecks = 0;
      for (let seed = 1; seed <= models; seed++) {
        const random = prng(seed);
        const { document, specs } = randomModel(random, { logical });
        const compiled = compileDocument(document, undefined, { diagram });
        if (!compiled.ok) {
          const codes = new Set(compiled.problems.map((problem) => problem.code));
          expect([...codes], `seed ${seed}: ${JSON.stringify(compiled.problems)}`).toEqual([
            'inconsistent_model',
          ]);
          // Past the budget propagation may refute it too (sound); when it does not, the
          // model compiles and brute force confirms it has no valid configuration.
          const relaxed = compileDocument(document, { consistencyMs: 0 });
          if (relaxed.ok)
            expect(validAssignments(relaxed.model, specs), `seed ${seed}`).toEqual([]);
          else
            expect(new Set(relaxed.problems.map((p) => p.code))).toEqual(
              new Set(['inconsistent_model']),
            );
          inconsistentModels++;
          continue;
        }
        const model = compiled.model;
        const valid = validAssignments(model, specs);
        expect(valid.length, `seed ${seed}`).toBeGreaterThan(0);
        const analysis = model.consistency.analysis;
        expect(analysis.exact).toBe(true);
        expect(model.consistency.dnnf === undefined, `seed ${seed}`).toBe(diagram);
        expect(analysis.configurations, `seed ${seed}`).toBe(String(valid.length));
        const dead: string[] = [];
        specs.forEach((spec, q) => {
          spec.options.forEach((option, o) => {
            const used = valid.some((assignment) =>
              spec.type === 'multi_choice'
                ? (assignment[q] & (1 << o)) !== 0
                : assignment[q] === o + 1,
            );
            if (!used) dead.push(`questions.${spec.key}.options.${option}`);
          });
        });
        expect([...analysis.dead_options].sort(), `seed ${seed}`).toEqual(dead.sort());

        for (let request = 0; request < 6; request++) {
          const answers: Record<string, { values: unknown[] }> = {};
          specs.forEach((spec, q) => {
            if (!(random() < 0.45)) return;
            const code = 1 + Math.floor(random() * (domainCount(spec) - 1));
            const value = celValue(spec, code);
            answers[spec.key] = {
              values: Array.isArray(value)
                ? value
                : [typeof value === 'bigint' ? Number(value) : value],
            };
            void q;
          });
          const result = evaluate(model, {
            modelId: 1,
            versionNumber: 1,
            questions: answers,
          });
          const line = result.line;
          const fixes = userFixes(line, specs);
          const agreeing = valid.filter((assignment) => agrees(assignment, fixes));
          const context = `seed ${seed} answers ${JSON.stringify(answers)}`;
          if (agreeing.length === 0) {
            conflictingRequests++;
            expect(line.consistency.configurations, context).toBe('0');
            // One problem per answer of the minimal set, each naming all of it (one cause).
            const problems = result.errors.filter((error) => error.code === 'conflict');
            const conflict = (problems[0]?.answers ?? []).map((answer) => answer.question);
            if (problems.length > 0) {
              expect(
                problems.map((p) => p.path),
                context,
              ).toEqual(conflict.map((key) => `questions.${key}`));
              for (const p of problems) expect(p.answers, context).toEqual(problems[0].answers);
              for (const answer of problems[0].answers ?? [])
                expect(answer.values, context).toEqual(answers[answer.question].values);
              // Its rules are the model's, and their failures are not reported again.
              const keys = model.rules.map((rule) => rule.key);
              for (const key of problems[0].rules ?? []) {
                expect(keys, context).toContain(key);
                expect(errorPathsOf(result), context).not.toContain(`rules.${key}`);
              }
            }
            if (conflict.length > 0) expectMinimal(valid, fixes, specs, conflict, [], context);
            else {
              // A single answer with its own error (e.g. too_many_selected) is not repeated.
              expect(result.errors.length, context).toBeGreaterThan(0);
            }
          } else {
            expect(line.consistency.configurations, context).toBe(String(agreeing.length));
            expect(
              result.errors.filter((error) => error.code === 'conflict'),
              context,
            ).toEqual([]);
            // Soft values kept (defaults, trigger values) leave the configuration completable.
            const soft = userFixes(line, specs, ['default', 'trigger']);
            expect(
              valid.some((assignment) => agrees(assignment, [...fixes, ...soft])),
              `${context}: soft values ${JSON.stringify(soft)}`,
            ).toBe(true);
            softChecks += soft.length;
          }
          // User answers are never changed.
          for (const key of Object.keys(answers)) {
            const question = line.questions.find((candidate) => candidate.key === key);
            if (question?.visible) expect(question.source, context).toBe('user');
          }
          specs.forEach((spec, q) => {
            if (spec.type !== 'choice' && spec.type !== 'multi_choice') return;
            const options = line.questions[q].options ?? [];
            spec.options.forEach((_, o) => {
              const others = fixes.flatMap((fix) => {
                if (fix.question !== q) return [fix];
                if (spec.type !== 'multi_choice') return [];
                return [{ ...fix, mask: fix.mask & ~(1 << o) }];
              });
              const option: Fix =
                spec.type === 'multi_choice'
                  ? { question: q, code: 1 << o, mask: 1 << o }
                  : { question: q, code: o + 1, mask: -1 };
              const expected = valid.some((assignment) => agrees(assignment, [...others, option]));
              const reported = options[o];
              expect(reported.available, `${context} ${spec.key}.${reported.key}`).toBe(expected);
              if (reported.unavailable_because.includes('blocked_by_conflict')) {
                // Blocked: no value of it has a completion, the other answers conflict.
                expect(reported.unavailable_because, context).toEqual(['blocked_by_conflict']);
                expect(
                  valid.some((assignment) => agrees(assignment, others)),
                  `${context} ${spec.key}.${reported.key} blocked`,
                ).toBe(false);
                blockedOptions++;
              }
              if (!expected) {
                expectMinimal(valid, others, specs, reported.conflicts_with, [option], context);
              } else {
                expect(reported.conflicts_with).toEqual([]);
              }
              checkedOptions++;
            });
          });
        }
      }
      // The generator must exercise every branch (not only consistent models).
      expect(inconsistentModels, 'inconsistent models').toBeGreaterThan(0);
      expect(conflictingRequests, 'conflicting requests').toBeGreaterThan(0);
      expect(blockedOptions, 'options blocked by a conflict').toBeGreaterThan(0);
      expect(checkedOptions).toBeGreaterThan(models * 10);
      expect(softChecks, 'soft values checked').toBeGreaterThan(0);
    },
    400_000,
  );
});

/** `keys` (question keys) with `extra` have no valid completion; without any one key they do. */
function expectMinimal(
  valid: readonly Assignment[],
  fixes: readonly Fix[],
  specs: ReturnType<typeof randomModel>['specs'],
  keys: readonly string[],
  extra: readonly Fix[],
  context: string,
): void {
  const of = (subset: readonly string[]): Fix[] =>
    fixes.filter((fix) => subset.includes(specs[fix.question].key));
  const holds = (subset: readonly string[]): boolean =>
    valid.some((assignment) => agrees(assignment, [...of(subset), ...extra]));
  expect(holds(keys), `${context}: ${keys.join(',')} must conflict`).toBe(false);
  for (const key of keys) {
    expect(holds(keys.filter((other) => other !== key)), `${context}: ${key} is needed`).toBe(true);
  }
}

const errorPathsOf = (result: { errors: Array<{ path?: string }> }): Array<string | undefined> =>
  result.errors.map((error) => error.path);
