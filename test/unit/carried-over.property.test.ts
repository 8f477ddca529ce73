/**
 * A line carried over to a version (src/engine-runtime/tasks/carried-over.ts) against the
 * way it was first written, on random small models with visibility, required questions,
 * defaults and triggers: the completion evaluated the carried answers again and read the
 * filled questions from the line of a third evaluation. Reading them from the completion
 * itself must move every line to the same answers, changes and line.
 */
import { describe, expect, it } from 'vitest';
import {
  evaluate,
  type CartLine,
  type CompiledModel,
  type Evaluation,
  type EvaluationRequest,
} from '../../src/engine/work.js';
import { carriedOver } from '../../src/engine-runtime/tasks/carried-over.js';
import {
  answersAfter,
  chainedChanges,
  type AnswerChange,
  type LineResolution,
} from '../../src/engine-runtime/tasks/guidance.js';
import { prng, randomModel } from '../engine/consistency/random-model.js';
import { compiledAs, FORMS, MODELS, randomAnswers } from '../engine/evaluate/guided-models.js';

type Answers = Record<string, unknown>;
const resolutionOf = (line: CartLine): LineResolution =>
  line.resolution ?? { changes: [], exact: true };

/** The move as first written: resolve, then `complete: 'cheapest'` evaluated, then resolve. */
function threeEvaluations(model: CompiledModel, request: EvaluationRequest, answers: Answers) {
  const resolved = evaluate(model, { ...request, resolve: true }) as Evaluation;
  const resolution = resolutionOf(resolved.line);
  const carried = answersAfter(answers, resolution.changes);
  const first = { evaluation: resolved, answers: carried, resolution };
  if (resolved.valid) return first;
  const open = new Set(
    resolved.line.questions
      .filter((q) => q.visible && q.required && q.values.length === 0)
      .map((q) => q.key),
  );
  if (open.size === 0) return first;
  const completed = evaluate(model, {
    ...request,
    complete: 'cheapest',
    questions: carried,
  }) as Evaluation;
  const fills: AnswerChange[] = completed.line.questions
    .filter((q) => open.has(q.key) && q.values.length > 0)
    .map((q) => ({ question: q.key, from: [], to: q.values }));
  if (fills.length === 0) return first;
  const filled = answersAfter(carried, fills);
  const final = evaluate(model, { ...request, resolve: true, questions: filled }) as Evaluation;
  if (!final.valid) return first;
  const own = resolutionOf(final.line).changes;
  const changes = chainedChanges(chainedChanges(resolution.changes, fills), own);
  const carriedResolution = { changes, exact: resolution.exact && resolutionOf(final.line).exact };
  final.line.resolution = carriedResolution;
  return { evaluation: final, answers: answersAfter(filled, own), resolution: carriedResolution };
}

/** What a move answers, without the line's timing. */
const outcome = ({ evaluation, answers, resolution }: ReturnType<typeof threeEvaluations>) => ({
  answers,
  resolution,
  valid: evaluation.valid,
  errors: evaluation.errors,
  line: { ...evaluation.line, cache: { ...evaluation.line.cache, evaluated_in_ms: 0 } },
});

describe('a line carried over to a version, against three evaluations', () => {
  for (const budget of FORMS)
    it(`${MODELS * 2} random models (${budget}): the same answers, changes and line`, () => {
      let filled = 0;
      let moves = 0;
      for (let seed = 1; seed <= MODELS * 2; seed++) {
        const random = prng(7000 + seed);
        const { document, specs } = randomModel(random);
        const compiled = compiledAs(document, budget);
        if (!compiled.ok) continue;
        const model = compiled.model;
        for (let r = 0; r < 6; r++) {
          // Answers of another version: some of a question this one lacks.
          const answers: Answers = randomAnswers(random, specs, 0.5);
          if (random() < 0.2) answers.gone = { values: ['x'] };
          const request = { modelId: 1, versionNumber: 2, questions: answers, view: 'full' };
          const expected = threeEvaluations(model, request as EvaluationRequest, answers);
          const actual = carriedOver(model, request as EvaluationRequest, answers);
          expect(outcome(actual)).toEqual(outcome(expected));
          moves++;
          // Moved by filling a required question the carried answers left open.
          if (
            actual.evaluation.line.resolution !== undefined &&
            !actual.resolution.changes.every((c) => c.question in answers)
          )
            filled++;
        }
      }
      expect(moves).toBeGreaterThan(MODELS * 6);
      // Past the budget there is no form to complete from: nothing is filled.
      if (budget === 'past the budget') expect(filled).toBe(0);
      else expect(filled).toBeGreaterThan(MODELS);
    });
});
