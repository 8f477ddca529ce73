/**
 * One thing wrong with a model or a configuration. `path` names the offending input
 * (`questions[3].visible_if`, `questions.width.values[0]`, `rules.max_pvc_width`) and
 * is omitted when nothing specific is at fault. These become the `errors` items of the
 * response envelope unchanged.
 */
export interface Problem {
  /** Machine-readable code, snake_case (`unknown_name`, `limit_exceeded`, `cycle`). */
  code: string;
  message: string;
  path?: string;
  /**
   * A model document's problem: the same place as a JSON Pointer by positions
   * (`/questions/0/options/2/price`) when `path` names list entries by their keys.
   */
  pointer?: string;
  /** `conflict` only: every answer of the minimal conflicting set, in question order. */
  answers?: ConflictAnswer[];
  /** `conflict` only: the rules (keys) through which those answers conflict. */
  rules?: string[];
}

/** One answer of a conflict, as the request sent it (`{values}` of a question). */
export interface ConflictAnswer {
  question: string;
  values: unknown[];
}

/** At most this many problems are reported for one upload (the rest are dropped). */
export const MAX_REPORTED_PROBLEMS = 100;

/** Collects problems up to the reporting cap; callers keep going to find every problem. */
export class ProblemList {
  readonly items: Problem[] = [];

  add(code: string, message: string, path?: string): void {
    if (this.items.length >= MAX_REPORTED_PROBLEMS) return;
    this.items.push(path === undefined ? { code, message } : { code, message, path });
  }

  get empty(): boolean {
    return this.items.length === 0;
  }
}
