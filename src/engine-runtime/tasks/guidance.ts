/**
 * What a request asks of guided configuration (docs/model-format.md "Guided configuration"),
 * as the main thread sends it to an engine worker: plain data, the engine's request members.
 */

import type {
  EvaluationRequest,
  LineResolution,
  ResolutionChange as AnswerChange,
} from '../../engine/work.js';

export type { AnswerChange, LineResolution };

/** `resolve` of a preview: pick this and change the fewest other answers, or repair them. */
export type ResolveRequest = NonNullable<EvaluationRequest['resolve']>;

/** The guidance members of an evaluation request (`resolve`, `complete`). */
export type Guidance = Pick<EvaluationRequest, 'resolve' | 'complete'>;

type Answers = Record<string, unknown>;

/**
 * The answers a resolution leads to: `answers` with each change applied (a change to
 * nothing drops the answer). Questions the resolution did not name keep their answers.
 */
export function answersAfter(answers: Answers, changes: readonly AnswerChange[]): Answers {
  const changed = new Map(changes.map((change) => [change.question, change.to]));
  const kept = Object.entries(answers).filter(([key]) => !changed.has(key));
  const given = [...changed]
    .filter(([, to]) => to.length > 0)
    .map(([key, to]) => [key, { values: [...to] }] as const);
  return Object.fromEntries([...kept, ...given]);
}

/**
 * Two resolutions one after the other as one: per question, what it was before the first
 * and what it is after the second (a question back where it started is no change).
 */
export function chainedChanges(
  first: readonly AnswerChange[],
  second: readonly AnswerChange[],
): AnswerChange[] {
  const byQuestion = new Map(first.map((change) => [change.question, { ...change }]));
  for (const change of second) {
    const earlier = byQuestion.get(change.question);
    byQuestion.set(change.question, { ...change, from: earlier?.from ?? change.from });
  }
  return [...byQuestion.values()].filter((change) => !sameValues(change.from, change.to));
}

const sameValues = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((value, i) => value === b[i]);
