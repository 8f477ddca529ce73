/**
 * The budget a decision-diagram store (mdd.ts) is built against, and the errors it throws
 * when a budget or a phase's own cap runs out. Apart from the store so that the compile and
 * its fallback can catch them, and the tests name the reasons, without the store's code.
 */

/** The `reason` of a form whose compile ran out of time (`consistencyMs`, the safety net). */
export const TIME_BUDGET_REASON = 'the compile time budget ran out';

/** The `reason` of a form whose compile ran out of work (`consistencySteps`). */
export const WORK_BUDGET_REASON = 'the compile work budget ran out';

/** The compile budget ran out (caught by the compiler, which falls back). */
export class BudgetExceeded extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** The work passed `workCap`: a phase's own limit, not the budget (the caller tries otherwise). */
export class OverCap extends Error {}

/** The store passed its byte budget; collecting garbage (`MddStore.retrying`) may make room. */
export class StoreFull extends BudgetExceeded {}

export interface Budget {
  /** performance.now() past which building stops (a safety net: not deterministic). */
  readonly deadline: number;
  /** Bytes of live node storage past which building stops. */
  readonly bytes: number;
  /** Units of work (apply steps, nodes, enumerated assignments, table states) past which building stops. */
  readonly steps: number;
}
