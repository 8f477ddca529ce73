/**
 * The consistency compile's budgets and the time they allow, apart from the compile itself:
 * the main thread derives a compile's deadline from them (src/engine/index.ts) without
 * loading the consistency code.
 */

export interface FallbackBudget {
  consistencyMs: number;
  consistencyBytes: number;
  consistencySteps: number;
}

/**
 * Units of compile work by default (engine limits): apply steps, nodes made, enumerated
 * assignments and table states. renault-megane takes 4.4 million (docs/adr/0060).
 */
export const DEFAULT_CONSISTENCY_STEPS = 50_000_000;

/** The budget of the propagation form when the compile budget itself is zero (no diagram). */
const ZERO_BUDGET_FALLBACK: FallbackBudget = {
  consistencyMs: 30_000,
  consistencyBytes: 256 * 1024 * 1024,
  consistencySteps: DEFAULT_CONSISTENCY_STEPS,
};

/** A zero budget compiles no diagram (availability by propagation only). */
export const hasBudget = (limits: FallbackBudget): boolean =>
  limits.consistencyMs > 0 && limits.consistencyBytes > 0 && limits.consistencySteps > 0;

/** The fallback's budget: the compile budget counted afresh, the defaults when it is zero. */
export function fallbackBudget(limits: FallbackBudget): FallbackBudget {
  return hasBudget(limits) ? limits : ZERO_BUDGET_FALLBACK;
}

/**
 * The most time a consistency compile spends building against its budgets: the diagram's
 * `consistencyMs` (none when a budget is zero: no diagram), then the fallback's budget
 * counted afresh. Each is checked every 1,024 new nodes and every 16 enumerated
 * assignments, so either overruns only by that much; the analysis after the fallback
 * (propagation with nothing answered, dead options, a minimal wipe-out) comes on top.
 * The compile worker's time limit is derived from it (compiled-models.service.ts).
 */
export function consistencyTimeLimitMs(limits: FallbackBudget): number {
  const diagram = hasBudget(limits) ? limits.consistencyMs : 0;
  return diagram + fallbackBudget(limits).consistencyMs;
}
