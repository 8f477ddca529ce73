/**
 * The explanation budget of one evaluation (EngineLimits.explanationWork): units of
 * work — diagram edges a check examines, words a pairwise lookup reads, part edges a
 * propagation revises — never time, so whether an option is explained does not depend
 * on the machine's load (docs/adr/0061-explanation-budget.md). Availability is never
 * charged: only the searches that say *why* an option is unavailable.
 */
export interface Work {
  /** Units left; the search that takes it below zero is abandoned. */
  left: number;
}

/** Thrown (one shared instance, no stack) when a search spends the last of the budget. */
export class OutOfWork {
  readonly reason = 'explanation budget spent';
}

const OUT = new OutOfWork();

/** Charges `units`; throws OutOfWork once the budget is spent. */
export function charge(work: Work | undefined, units: number): void {
  if (work === undefined) return;
  work.left -= units;
  if (work.left < 0) throw OUT;
}

/** `search()`, or undefined when it spent the budget (any other exception passes). */
export function withinBudget<T>(search: () => T): T | undefined {
  try {
    return search();
  } catch (error) {
    if (error instanceof OutOfWork) return undefined;
    throw error;
  }
}
