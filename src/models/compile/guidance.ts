/**
 * What a request asks of guided configuration (docs/model-format.md "Guided configuration"),
 * as the main thread sends it to an engine worker: plain data, the engine's request members.
 */

/** `resolve` of a preview: pick this and change the fewest other answers, or repair them. */
export type ResolveRequest = true | { question: string; value: string | number | boolean };

/** `complete` of a preview: fill the unanswered questions with a cheapest valid completion. */
export type CompleteRequest = 'cheapest';

/** One answer the resolution changed: what it was, what it became (`[]`: dropped). */
export interface AnswerChange {
  question: string;
  from: unknown[];
  to: unknown[];
}

/** A line's `resolution` (only when one was asked for). */
export interface LineResolution {
  changes: AnswerChange[];
  exact: boolean;
}

/** The guidance members of an evaluation request. */
export interface Guidance {
  resolve?: ResolveRequest;
  complete?: CompleteRequest;
}

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
