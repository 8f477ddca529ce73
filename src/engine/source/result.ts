import type { Problem } from '../problems.js';

/** Outcome of a source step: a value, or the problems with the HTTP status they warrant. */
export type SourceResult<T> =
  { ok: true; value: T } | { ok: false; status: 400 | 413; problems: Problem[] };

export type SourceFailure = Extract<SourceResult<never>, { ok: false }>;

export function ok<T>(value: T): SourceResult<T> {
  return { ok: true, value };
}

export function invalid(problems: Problem[]): SourceFailure {
  return { ok: false, status: 400, problems };
}

/** A limit refusal: `tooLarge` limits (sizes, entry counts) answer 413, the others 400. */
export function limitExceeded(message: string, tooLarge: boolean, path?: string): SourceFailure {
  const problem: Problem =
    path === undefined
      ? { code: 'limit_exceeded', message }
      : { code: 'limit_exceeded', message, path };
  return { ok: false, status: tooLarge ? 413 : 400, problems: [problem] };
}
