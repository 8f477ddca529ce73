import type { CartLine, Evaluation, LineQuestion } from '../../engine/index.js';
import type { Problem } from '../../common/errors/api-error.js';

/** An answer the newer version does not accept. */
export interface InvalidAnswer {
  question: string;
  values: unknown[];
  code: string;
  message: string;
  path: string;
  /** The rules (or options) that make an answered option unavailable. */
  unavailable_because: string[];
  /** A minimal set of the other answers (question keys) that exclude it. */
  conflicts_with: string[];
}

/** A question the newer version requires that the line leaves unanswered. */
export interface NewlyRequired {
  question: string;
  label: string;
}

/** A value the newer version fills in by itself (default or trigger) where the line's differed. */
export interface SoftValue {
  question: string;
  values: unknown[];
  source: 'default' | 'trigger';
  /** What the line had on its own version. */
  previous: unknown[];
}

export interface LineComparison {
  invalid_answers: InvalidAnswer[];
  newly_required: NewlyRequired[];
  soft_defaults: SoftValue[];
}

const questionOf = (path: string | undefined): string | null =>
  path?.match(/^questions\.([^.[]+)/)?.[1] ?? null;

/**
 * What evaluating a line's answers on another version changes, question by question:
 * the answers it refuses (each problem on a question, with the option's reasons and
 * conflict set), the questions newly required and left open, and the defaults or
 * triggers that now fill a question differently. Rule failures stay in `errors`.
 */
export function compareLines(
  answers: Record<string, unknown>,
  before: CartLine,
  after: Evaluation,
): LineComparison {
  const beforeBy = new Map(before.questions.map((q) => [q.key, q]));
  const afterBy = new Map(after.line.questions.map((q) => [q.key, q]));
  return {
    invalid_answers: after.errors
      .flatMap((problem) => perAnswer(problem))
      .map((problem) => invalidAnswer(problem, answers, afterBy))
      .filter((answer): answer is InvalidAnswer => answer !== null),
    newly_required: after.line.questions
      .filter((q) => q.visible && q.required && q.values.length === 0)
      .filter((q) => !beforeBy.get(q.key)?.required)
      .map((q) => ({ question: q.key, label: q.label })),
    soft_defaults: after.line.questions
      .filter((q) => q.source === 'default' || q.source === 'trigger')
      .filter((q) => !sameValues(q.values, beforeBy.get(q.key)?.values ?? []))
      .map((q) => ({
        question: q.key,
        values: q.values,
        source: q.source as 'default' | 'trigger',
        previous: beforeBy.get(q.key)?.values ?? [],
      })),
  };
}

/** A `conflict` names several answers: each is an answer the version refuses, at its question. */
function perAnswer(problem: Problem): Problem[] {
  if (problem.answers === undefined) return [problem];
  return problem.answers.map(({ question }) => ({
    code: problem.code,
    message: problem.message,
    path: `questions.${question}`,
  }));
}

function invalidAnswer(
  problem: Problem,
  answers: Record<string, unknown>,
  questions: Map<string, LineQuestion>,
): InvalidAnswer | null {
  const key = questionOf(problem.path);
  if (key === null) return null;
  const values = answeredValues(answers[key]);
  // A question left open is not an answer gone wrong (newly_required says so).
  if (values.length === 0) return null;
  const options = (questions.get(key)?.options ?? []).filter((o) => values.includes(o.key));
  return {
    question: key,
    values,
    code: problem.code,
    message: problem.message,
    path: problem.path ?? `questions.${key}`,
    unavailable_because: unique(options.flatMap((o) => o.unavailable_because)),
    conflicts_with: unique(options.flatMap((o) => o.conflicts_with)),
  };
}

function answeredValues(answer: unknown): unknown[] {
  const values = (answer as { values?: unknown } | undefined)?.values;
  return Array.isArray(values) ? values : [];
}

const unique = (items: string[]) => [...new Set(items)];

const sameValues = (a: unknown[], b: unknown[]) =>
  a.length === b.length && a.every((value, i) => value === b[i]);
