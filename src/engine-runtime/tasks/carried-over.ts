import {
  cheapestCompletion,
  effectiveAnswers,
  evaluate,
  type CartLine,
  type CompiledModel,
  type Evaluation,
  type EvaluationRequest,
} from '../../engine/work.js';
import {
  answersAfter,
  chainedChanges,
  type AnswerChange,
  type LineResolution,
} from './guidance.js';

type Answers = Record<string, unknown>;

/** A line carried over to a version: its evaluation, the answers it stores, what changed. */
export interface CarriedOver {
  readonly evaluation: Evaluation;
  readonly answers: Answers;
  readonly resolution: LineResolution;
}

const resolutionOf = (line: CartLine): LineResolution =>
  line.resolution ?? { changes: [], exact: true };

/**
 * A line's answers carried over to this version (docs/model-format.md "Guided
 * configuration"): the nearest configuration that can be completed (`resolve: true`).
 * Completable is not yet valid when the version requires a question the line leaves
 * open: those required questions are then answered from a cheapest completion, so that
 * a line is not left invalid when a valid neighbour exists (docs/adr/0145). The line
 * answered lists every change, the filled questions too. Usually two evaluations: the
 * resolved line says which answers the completion keeps, and the final line shows the
 * fills (docs/adr/0217).
 */
export function carriedOver(
  model: CompiledModel,
  request: EvaluationRequest,
  answers: Answers,
): CarriedOver {
  const resolved = evaluate(model, { ...request, resolve: true }) as Evaluation;
  const resolution = resolutionOf(resolved.line);
  const carried = answersAfter(answers, resolution.changes);
  const first = { evaluation: resolved, answers: carried, resolution };
  if (resolved.valid) return first;
  // Only the questions the version requires and the carried answers leave open: a soft
  // value (default, trigger) stays soft, an optional question stays unanswered.
  const open = new Set(
    resolved.line.questions
      .filter((q) => q.visible && q.required && q.values.length === 0)
      .map((q) => q.key),
  );
  if (open.size === 0) return first;
  // The resolved line is the line of the carried answers: its visible answers are the
  // ones the completion keeps, with no evaluation of the same answers again.
  const completion = cheapestCompletion(model, carried, effectiveAnswers(resolved.line.questions));
  const completed = completion.answers as Answers;
  const fills: AnswerChange[] = completion.completed
    .filter((key) => open.has(key))
    .map((key) => ({ question: key, from: [], to: valuesOf(completed[key]) }));
  const moved = filledLine(model, request, first, fills);
  if (moved !== undefined && shown(moved.evaluation.line, fills)) return moved;
  // Not valid, or a filled question not shown as filled: the completion's values and its
  // line may disagree (a default or a trigger it does not apply shows or hides a
  // question), so the fills are read from the line of the completed answers, as
  // `complete: 'cheapest'` answers it (its values need no price bounds).
  const { line } = evaluate(model, {
    ...request,
    questions: completed,
    view: 'compact',
    priceBounds: false,
  });
  const lineFills: AnswerChange[] = line.questions
    .filter((q) => open.has(q.key) && q.values.length > 0)
    .map((q) => ({ question: q.key, from: [], to: q.values }));
  if (sameFills(fills, lineFills)) return moved ?? first;
  return filledLine(model, request, first, lineFills) ?? first;
}

const valuesOf = (answer: unknown): unknown[] => (answer as { values: unknown[] }).values;

/** The carried answers with the required questions filled, resolved again; undefined unless valid. */
function filledLine(
  model: CompiledModel,
  request: EvaluationRequest,
  first: CarriedOver,
  fills: readonly AnswerChange[],
): CarriedOver | undefined {
  if (fills.length === 0) return undefined;
  const filled = answersAfter(first.answers, fills);
  const final = evaluate(model, { ...request, resolve: true, questions: filled }) as Evaluation;
  if (!final.valid) return undefined;
  const { resolution } = first;
  const own = resolutionOf(final.line).changes;
  const changes = chainedChanges(chainedChanges(resolution.changes, fills), own);
  const carriedResolution = { changes, exact: resolution.exact && resolutionOf(final.line).exact };
  final.line.resolution = carriedResolution;
  return { evaluation: final, answers: answersAfter(filled, own), resolution: carriedResolution };
}

/** Every filled question shows its fill in the line (visible, the user's). */
function shown(line: CartLine, fills: readonly AnswerChange[]): boolean {
  const byKey = new Map(line.questions.map((q) => [q.key, q]));
  return fills.every((fill) => {
    const q = byKey.get(fill.question);
    return q !== undefined && q.visible && q.source === 'user' && sameValues(q.values, fill.to);
  });
}

const sameFills = (a: readonly AnswerChange[], b: readonly AnswerChange[]) =>
  a.length === b.length &&
  a.every((fill, i) => fill.question === b[i].question && sameValues(fill.to, b[i].to));

const sameValues = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((value, i) => value === b[i]);
